"""Saved games of every earlier format keep loading: each file in tests/data/saved/ loads into a state
that shows exactly what the saving state showed (views, logs, legal actions), and plays on."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import candlebox
from candlebox.engine import State

SAVED = Path(__file__).parent.parent / "data" / "saved"
NAMES = sorted(
    p.name.removesuffix(".json") for p in SAVED.glob("*.json") if ".expect" not in p.name
)


def _read(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    saved = json.loads((SAVED / f"{name}.json").read_text())
    # a later format's file of the same game shares the first one's expectations
    path = SAVED / f"{name}.expect.json"
    if not path.exists():
        path = SAVED / f"{name.partition('-')[2]}.expect.json"
    expect = json.loads(path.read_text())
    return saved, expect


def test_every_game_and_format_has_files() -> None:
    formats = {json.loads((SAVED / f"{n}.json").read_text())["format"] for n in NAMES}
    games = {json.loads((SAVED / f"{n}.json").read_text())["game"] for n in NAMES}
    assert formats == {1, 2}
    assert games == set(candlebox.GAMES)


@pytest.mark.parametrize("name", NAMES)
def test_a_saved_game_loads_as_it_was(name: str) -> None:
    saved, expect = _read(name)
    state = candlebox.load(saved)
    viewers: list[int | None] = [None, *range(state.num_players)]
    # through JSON, as the files were written: tuples and lists alike
    assert json.loads(json.dumps([state.view(seat) for seat in viewers])) == expect["views"]
    assert json.loads(json.dumps([state.log(seat) for seat in viewers])) == expect["logs"]
    assert [state.legal_actions(seat) for seat in range(state.num_players)] == expect["legal"]
    assert list(state.to_act) == expect["to_act"]
    assert state.is_over == expect["is_over"]
    assert list(state.winners) == expect["winners"]
    assert list(state.scores) == expect["scores"]
    assert [list(move) for move in state.history] == saved["history"]


@pytest.mark.parametrize("name", NAMES)
def test_a_loaded_game_saves_and_plays_on(name: str) -> None:
    saved, _ = _read(name)
    state = candlebox.load(saved)
    again = candlebox.load(json.loads(json.dumps(state.to_json())))
    assert again == state
    for _ in range(5):
        if state.is_over:
            break
        seat = state.to_act[0]
        action = state.legal_actions(seat)[-1]
        state.apply(seat, action)
        again.apply(seat, action)
    assert again == state


def test_a_game_saved_under_older_rules_replays_its_history_under_todays() -> None:
    """Candelabria's rules are version 2; its files in tests/data/saved/ were written under version 1
    (no ``rules`` field), whose positions differ: they load by their history alone."""
    saved, _ = _read("ca-4p")
    assert "rules" not in saved
    state = candlebox.load(saved)
    assert state.RULES_VERSION == 2 and state.to_json()["rules"] == 2
    newer = {**state.to_json(), "rules": state.RULES_VERSION + 1}
    with pytest.raises(ValueError, match="newer than this version's 2"):
        candlebox.load(newer)
    same = state.to_json()  # under today's rules the position is a check again
    same["state"] = {**same["state"], "year": same["state"]["year"] + 1}
    with pytest.raises(ValueError, match="do not reach the saved position"):
        candlebox.load(same)


def test_a_state_still_naming_its_rules_version_rules_is_refused_when_defined() -> None:
    """``RULES`` is the wiring's name in a game's state module; the int the saved ``"rules"`` key holds
    is ``RULES_VERSION``, and a state class setting the old name would save the wrong version."""
    with pytest.raises(
        TypeError, match=r"OldState\.RULES: the rules' version is named RULES_VERSION"
    ):

        class OldState(State):  # defining it is the check
            RULES = 3
