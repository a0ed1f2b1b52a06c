"""Bad input: malformed and illegal actions, bad options and malformed saves give clear errors and
leave the state untouched."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

import candlebox
from tests.sixteen_candies import position
from tests.sixteen_candies.helpers import game, orient_all, play

HANDS = [["G6-K1", "C5-H2", "K4-G3"], ["G6-H1", "C6-K1", "H5-G2"]]


def started() -> candlebox.State:
    state = game(HANDS, pile=["K5-H2"])
    orient_all(state, "G6 C5 K4", "G6 C6 H5")
    return state


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ("dance", "unknown action 'dance'"),
        ("draw", "'draw' is followed by 'pile' or 'discard'"),
        ("draw deck", "'draw' is followed by 'pile' or 'discard'"),
        ("discard Z9", "not a card code"),
        ("discard", "not a card code"),
        ("top", "'top' is followed by the top half"),
        ("top G6 X9", "'X9'"),
        ("call now", "'call' takes nothing after it"),
        ("end it", "'end' takes nothing"),
        (" draw pile", "unknown action ''"),
    ],
)
def test_malformed_actions_are_refused_and_change_nothing(action: str, message: str) -> None:
    state = started()
    before = state.to_json()
    with pytest.raises(candlebox.IllegalAction, match="malformed") as refused:
        state.apply(0, action)
    assert message in str(refused.value)
    assert "Legal now: draw pile, draw discard" in str(refused.value)
    assert state.to_json() == before


@pytest.mark.parametrize(
    ("seat", "action", "message"),
    [
        (0, "discard G6-K1", "not legal now (seat 0 is to draw"),
        (0, "top G6 C5 K4", "not legal now"),
        (0, "call", "not legal now"),
        (0, "skip", "not legal now"),
        (1, "draw pile", "seat 1 does not act now"),
        (2, "draw pile", "not a seat of this 2-player game"),
        (True, "draw pile", "not a seat"),
        (0, 7, "an action is text"),
    ],
)
def test_illegal_actions_are_refused_and_change_nothing(
    seat: Any, action: Any, message: str
) -> None:
    state = started()
    before = state.to_json()
    with pytest.raises(candlebox.IllegalAction) as refused:
        state.apply(seat, action)
    assert message in str(refused.value)
    assert state.to_json() == before


def test_a_discard_of_a_card_not_in_hand_and_a_wrong_orientation() -> None:
    state = started()
    play(state, (0, "draw pile"))
    with pytest.raises(candlebox.IllegalAction, match="not legal now"):
        state.apply(0, "discard G6-H1")
    play(state, (0, "discard K5-H2"))
    with pytest.raises(candlebox.IllegalAction, match="Legal: top G6 C5 K4"):
        state.apply(0, "top C5 G6 K4")  # the right halves, in the wrong order


def test_nothing_is_legal_once_the_game_is_over() -> None:
    state = game(HANDS, max_turns=1)
    orient_all(state, "G6 C5 K4", "G6 C6 H5")
    play(state, (0, "draw pile"))
    play(state, (0, state.legal_actions(0)[-1]))
    play(state, (0, state.legal_actions(0)[0]), (0, "end"))
    assert state.is_over and state.legal_actions(0) == [] and state.to_act == ()
    with pytest.raises(candlebox.IllegalAction, match="the game is over"):
        state.apply(0, "draw pile")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"deck": ["G6-K1", "Z9"]}, "'Z9' is not a card code"),
        ({"deck": ["G6-K1", "G6-K1"]}, "G6-K1×1 too many"),
        ({"deck": ["W"] * 5}, "W×1 too many"),
        ({"deck": "G6-K1"}, "list of card codes"),
        ({"first_player": 3}, "seat 3 is not in a 3-player game"),
        ({"first_player": 4}, "at most 3"),
        ({"first_player": -1}, "at least 0"),
        ({"max_turns": 0}, "at least 1"),
        ({"max_turns": None}, "cannot be None"),
        ({"rounds": 0}, "at least 1"),
        ({"pool": 0}, "at least 1"),
        ({"pool": "16"}, "whole number"),
        ({"pool_cap": "yes"}, "true or false"),
        ({"draw": "sometimes"}, "required, optional"),
        ({"rediscard": 1}, "true or false"),
        ({"instant_win": "anywhere"}, "top, held"),
        ({"all_tied": "shared"}, "caller-loses, caller-wins"),
        ({"colour": "blue"}, "unknown option 'colour'"),
    ],
)
def test_bad_options_are_refused_clearly(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError) as refused:
        candlebox.new_game("sixteen-candies", players=3, seed=1, **options)
    assert message in str(refused.value)


def test_options_parse_from_text() -> None:
    variant = candlebox.variants("sixteen-candies")[0]
    assert variant.option("deck").parse("G6-K1, W C4-G3") == ["G6-K1", "W", "C4-G3"]
    assert variant.option("rediscard").parse("no") is False
    assert variant.option("rounds").parse("none") is None


# ----------------------------------------------------------------------------- malformed saves
def _saved() -> dict[str, Any]:
    state = started()
    play(state, (0, "draw discard"))
    return json.loads(json.dumps(state.to_json()))


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = data
        for key in parents:
            node = node[int(key)] if key.isdigit() else node[key]
        node[int(last) if last.isdigit() else last] = value

    return change


def _drop_drawn_card(data: dict[str, Any]) -> None:
    """Seat 0 is to discard but holds only three cards (the fourth put back on the discard pile)."""
    snap = data["state"]
    snap["discard"].append(snap["hands"][0].pop())
    snap["tops"][0].pop()
    snap["sources"][0].pop()
    snap["taken"] = None


def _swap_hand_card(data: dict[str, Any]) -> None:
    hand = data["state"]["hands"][1]
    data["state"]["draw"].append(hand[0])
    hand[0] = data["state"]["draw"].pop(0)
    data["state"]["tops"][1][0] = hand[0].split("-")[0]


BAD_SAVES: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("game", _set("game", "sixteen-candles"), "'sixteen-candles'"),
    ("field", _set("state.colour", "blue"), "malformed"),
    ("type", _set("state.pools", "sixteen"), "malformed"),
    ("missing", lambda d: d["state"].pop("hands"), "malformed"),
    ("players", _set("players", 7), "2–4 players"),
    ("option", _set("options.draw", "never"), "option 'draw'"),
    ("deck option", _set("options.deck", ["Q1"]), "option 'deck' holds 'Q1'"),
    ("card code", _set("state.hands.1.0", "G7-K0"), "not a card code"),
    ("lost card", lambda d: d["state"]["draw"].pop(), "do not add up"),
    ("doubled card", lambda d: d["state"]["draw"].append("W"), "do not add up"),
    ("top half", _set("state.tops.1.0", "H6"), "is not a half of seat 1's"),
    ("tops count", lambda d: d["state"]["tops"][1].pop(), "one top half per card"),
    ("entries", lambda d: d["state"]["pools"].pop(), "one entry per player"),
    ("pool", _set("state.pools.1", -2), "negative Health Pool"),
    ("phase", _set("state.phase", "dancing"), "unknown phase 'dancing'"),
    ("actor", _set("state.actor", 5), "the seat to act (5) is not a seat"),
    ("hand size", _drop_drawn_card, "seat 0 holds 3 cards, not 4"),
    ("source", _set("state.sources.1.0", 0), "did not put"),
    ("source range", _set("state.sources.1.0", 10_000), "has no source event"),
    ("secret swap", _swap_hand_card, "did not put"),
    ("epoch", _set("state.epoch", 3), "epoch 3 but 0 reshuffles"),
    ("round start", _set("state.round_start", 2), "round_start"),
    ("taken", _set("state.taken", "G6-H1"), "not the last drawn"),
    ("caller out", _set("state.caller", 7), "caller (7)"),
    ("queue", _set("state.queue", [9]), "out is to act"),
    ("over", _set("state.phase", "over"), "finished game needs winners"),
    ("not a dict", lambda d: None, ""),
]


@pytest.mark.parametrize(("name", "change", "message"), BAD_SAVES, ids=[b[0] for b in BAD_SAVES])
def test_malformed_saves_are_refused_clearly(
    name: str, change: Callable[[dict[str, Any]], None], message: str
) -> None:
    # An edited position (what rules tests build) is read with every count checked; the
    # configuration is checked by candlebox.load as well, which also replays the history.
    like = candlebox.load(_saved())
    data = _saved()
    position.restore(copy.deepcopy(data), like)  # the unchanged position reads back
    if name == "not a dict":
        with pytest.raises(ValueError, match="a saved game is a JSON object"):
            candlebox.load([data])  # type: ignore[arg-type]
        return
    change(data)
    with pytest.raises(ValueError) as refused:
        position.restore(data, like)
    assert message in str(refused.value)
    if not name.startswith(("field", "type", "missing", "card code")):
        with pytest.raises(ValueError):  # the replay does not reach it, or the file is refused
            candlebox.load(data)


def test_loading_as_this_game_refuses_another_games_save() -> None:
    data = _saved()
    data["game"] = "candle-quest"
    with pytest.raises(ValueError, match="saved game is 'candle-quest', not 'sixteen-candies'"):
        candlebox.load(data, "sixteen-candies")
