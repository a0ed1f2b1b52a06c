"""16 Candies plays content packs: the printed pack plays the same game as no pack, a changed Wild
plays differently (its count in the hands' values, its penalty in the payments, its copies in the
box), a changed value is refused without design mode, the bots judge hands by the pack's numbers, a
saved game records its pack, and two decks in one process never share a bot's cached judgement."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import candlebox
from candlebox.engine import State
from tests.cli.conftest import run

GAME = "sixteen-candies"


def export(folder: Path) -> Path:
    done = run("content", "export", GAME, str(folder))
    assert done.exit_code == 0, done.output
    return folder


def edited(folder: Path, **wild: int) -> Path:
    path = folder / "deck.json"
    data = json.loads(path.read_text())
    data["wild"].update(wild)
    path.write_text(json.dumps(data, indent=1))
    return folder


def played(
    seed: int,
    players: int = 3,
    bot: str = "heuristic",
    params: dict[str, Any] | None = None,
    **options: Any,
) -> State:
    params = params or {}
    state = candlebox.new_game(GAME, players, seed=seed, **options)
    bots = [candlebox.bots.make(bot, seed=seed + seat, **params) for seat in range(players)]
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, bots[seat].choose(state, seat))
    return state


def test_the_printed_pack_plays_the_same_games_as_no_pack(tmp_path: Path) -> None:
    folder = export(tmp_path / "printed")
    for seed in range(3):
        pack, shipped = played(seed, content=str(folder)), played(seed)
        assert pack.content_pack() is not None and shipped.content_pack() is None
        assert pack.history == shipped.history and pack.scores == shipped.scores


def test_a_changed_wild_is_refused_without_design_and_played_with_it(tmp_path: Path) -> None:
    folder = edited(export(tmp_path / "wild"), count=5, penalty=4, copies=6)
    with pytest.raises(ValueError, match=r"deck\.json: .*wild\.count"):
        candlebox.new_game(GAME, 3, content=str(folder))
    with pytest.raises(ValueError, match=r"option 'design' .* option 'content' too"):
        candlebox.new_game(GAME, 3, design=True)
    # Three Wilds dealt to seat 0: worth 3 × 5 of one candy, with a penalty of 3 × 4.
    deck = ["W", "G6-C1", "C6-G1", "W", "G5-H2", "C5-G2", "W", "H6-K1", "K6-G1"]
    state = candlebox.new_game(GAME, 3, seed=2, content=str(folder), design=True, deck=deck)
    assert state.content.full_set.count(state.content.wild) == 6  # type: ignore[attr-defined]
    assert "(penalty 12)" in state.label(0, "top W W W")
    state.apply(0, "top W W W")
    seat = state.typed_view(0).seats[0]
    assert (seat.value, seat.penalty) == (15, 12)  # type: ignore[attr-defined]
    printed = candlebox.new_game(GAME, 3, seed=2, deck=deck)
    printed.apply(0, "top W W W")
    shown = printed.typed_view(0).seats[0]
    assert (shown.value, shown.penalty) == (9, 6)  # type: ignore[attr-defined]
    # Whole games differ from the printed ones, and the simulator plays the pack.
    assert any(
        played(s, content=str(folder), design=True).history != played(s).history for s in (1, 2)
    )
    refused = run("simulate", GAME, "-p", "3", "-n", "1", "-o", f"content={folder}")
    assert refused.exit_code == 2 and "wild.count" in refused.stderr
    done = run("simulate", GAME, "-p", "3", "-n", "2", "-o", f"content={folder}", "--design")
    assert done.exit_code == 0, done.output


def test_the_bots_judge_hands_by_the_packs_numbers(tmp_path: Path) -> None:
    """The heuristic's hand judgement is cached per deck: a Wild worth 6 (design) makes three Wilds
    the best hand there, while the printed deck's cache, filled first, keeps its own answer."""
    from candlebox.games.sixteen_candies import heuristic
    from candlebox.games.sixteen_candies.cards import load_deck

    folder = edited(export(tmp_path / "rich"), count=6)
    rich = heuristic.faces_of(load_deck(str(folder), design=True))
    hand = ("G6-C1", "G5-C2", "W")
    assert heuristic.best_value(hand) == 6 + 5 + 3  # printed: a Wild counts three
    assert rich.best_value(hand) == 6 + 5 + 6
    assert heuristic.best_value(hand) == 14  # the printed cache was not touched by the pack's
    # And ISMCTS plays the pack through its search hooks (the rival model reads the pack's faces).
    game = played(
        3, players=2, bot="ismcts", params={"iterations": 30}, content=str(folder), design=True
    )
    assert game.is_over


def test_a_saved_game_records_its_pack_and_refuses_another(tmp_path: Path) -> None:
    folder = edited(export(tmp_path / "wild"), penalty=5)
    game = played(4, content=str(folder), design=True)
    saved = json.loads(json.dumps(game.to_json()))
    assert saved["pack"] == game.content_pack() and saved["pack"].startswith("sha256:")
    assert candlebox.load(saved) == game
    printed = export(tmp_path / "printed")
    other = {**saved, "options": {**saved["options"], "content": str(printed), "design": False}}
    with pytest.raises(ValueError, match=f"played with content pack {saved['pack']}"):
        candlebox.load(other)
    assert "pack" not in played(4).to_json()


def test_the_rl_encoding_refuses_a_pack_with_other_card_codes(tmp_path: Path) -> None:
    np = pytest.importorskip("numpy")
    from candlebox.rl import Spec

    folder = export(tmp_path / "codes")
    path = folder / "deck.json"
    data = json.loads(path.read_text())
    data["cards"][0]["halves"][1]["count"] = 2  # G6-C1 becomes G6-C2
    path.write_text(json.dumps(data))
    spec = Spec.make(GAME, 3)
    out = np.zeros(spec.observation_size, dtype=np.float32)
    spec.observe(candlebox.new_game(GAME, 3, seed=1, content=str(export(tmp_path / "p"))), 0, out)
    state = candlebox.new_game(GAME, 3, seed=1, content=str(folder))
    with pytest.raises(ValueError, match="knows the printed cards only"):
        spec.observe(state, 0, out)
