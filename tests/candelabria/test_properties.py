"""Random play through whole games (setup, three years of Mist, Kindling and War): every component is
conserved at every step, and the contract holds (save/load round trip, clone independence, resample
keeps the seat's view, refusals change nothing) at every step of the opening and then at points a
quarter apart (the conformance kit's ``ROUND_TRIPS_AT``: each check replays the whole history). The
invariants read the saved form and the content files, not the rules' own bookkeeping. Four players
are marked ``deep`` (CI's second step); three and five run by default."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from candlebox import IllegalAction
from candlebox.games import candelabria
from candlebox.games.candelabria import CandelabriaState
from candlebox.games.candelabria.board import Board
from candlebox.games.candelabria.components import load_content
from candlebox.testing.contract import ROUND_TRIPS_AT
from tests.candelabria import position
from tests.deep import split

CONTENT = Path(candelabria.__file__).parent / "content"


def _json(name: str) -> Any:
    return json.loads((CONTENT / f"{name}.json").read_text())


CANDLES = {c["code"] for c in _json("candles")["house"] + _json("candles")["advanced"]}
TILES = sum((t.get("copies", 1) for t in _json("upgrades")["tiles"]), 0)
TEMPLES = _json("components")["temples"]


def check_invariants(state: CandelabriaState) -> None:
    saved = state.to_json()
    snap = saved["state"]
    n = saved["players"]
    cards = snap["advanced_deck"] + snap["set_aside"] + snap["boxed_candles"]
    cards += [c for c in snap["curse_deck"] if not c.isdigit()]
    for seat in range(n):
        cards += snap["hands"][seat] + snap["maneuvered"][seat]
        cards += [c for c in snap["seal_cards"][seat] if c is not None]
    assert Counter(cards) == Counter(CANDLES), "every candle card somewhere, once"
    flames_pending = Counter(f[1] for f in snap["stack"] if f[0] == 6)  # Phase.FLAME
    for seat in range(n):
        at_curses = sum(row[seat] for row in snap["curse_influence"])
        total = len(snap["land_flames"][seat]) + at_curses + snap["land_flame_supply"][seat]
        assert total + flames_pending[seat] + 1 == 25, f"seat {seat}: 25 Land Flames"
        assert snap["land_flame_supply"][seat] >= 0
        assert sum(snap["candle_flames"][seat]) + snap["candle_flame_supply"][seat] == 12
        assert snap["gold"][seat] + snap["wax"][seat] <= 10, "the warehouse holds 10"
        assert len(snap["upgrades"][seat]) <= 6
    assert snap["reserve_gold"] + sum(snap["gold"]) == 50
    assert snap["reserve_wax"] + sum(snap["wax"]) == 50
    placed = Counter(c for stack in snap["temples"].values() for c in stack)
    for colour, supply in zip(("white", "grey", "black"), snap["temple_supply"], strict=True):
        assert placed[colour] + supply == TEMPLES[colour]
    tiles = [t for p in snap["upgrade_piles"] for t in p] + snap["upgrade_box"]
    tiles += [t for u in snap["upgrades"] for t in u]
    assert len(tiles) == TILES
    tactics = (
        snap["tactics_board"] + snap["tactics_deck"] + [t for ts in snap["tactics"] for t in ts]
    )
    tactics += [t for ts in snap["tactics_used"] for t in ts]
    tactics += [t for p in snap["played_tactics"] for t in p if isinstance(t, str)]
    assert len(tactics) == 75 + 3 * n
    assert (
        len(snap["curses"]) + len(snap["curses_out"]) + sum(c.isdigit() for c in snap["curse_deck"])
        == 9
    )
    assert len(set(snap["castles"])) == n, "one castle per territory"
    assert "6" not in [str(r) for r in snap["corrupted"]]
    for seat in [None, *range(n)]:
        view = state.view(seat)
        for other in view["seats"]:
            if other["seat"] != seat and not view["over"]:
                assert "hand" not in other, "hands are hidden"
                assert "secret" not in other, "a secret choice of tactic cards is hidden"


def check_contract(state: CandelabriaState, rng: random.Random) -> None:
    saved = state.to_json()
    text = json.dumps(saved)
    assert candelabria.load(json.loads(text)).to_json() == saved, "save/load round trip"
    twin = state.clone()
    assert twin.to_json() == saved
    if twin.to_act:
        seat = twin.to_act[0]
        twin.apply(seat, rng.choice(twin.legal_actions(seat)))
        assert state.to_json() == saved, "playing on a clone leaves the original alone"
    for viewer in [None, *range(state.num_players)]:
        json.dumps(state.view(viewer))
        json.dumps(state.log(viewer))
    for seat in range(state.num_players):
        other = state.resample(seat, rng.randrange(2**32))
        assert other.view(seat) == state.view(seat), "resample keeps the seat's view"
        assert other.log(seat) == state.log(seat)
        assert other.legal_actions(seat) == state.legal_actions(seat)
    if state.to_act:
        seat = state.to_act[0]
        for who, action in (
            (seat, "nonsense"),
            (seat, ""),
            ((seat + 1) % state.num_players, state.legal_actions(seat)[0]),
        ):
            if who in state.to_act and action in state.legal_actions(who):
                continue
            with pytest.raises(IllegalAction):
                state.apply(who, action)
        assert state.to_json() == saved, "a refusal changes nothing"


def play_out(players: int, seed: int, deep: bool, **options: Any) -> CandelabriaState:
    state = candelabria.new_game(players=players, seed=seed, **options)
    rng = random.Random(seed)
    while state.to_act:
        for seat in range(players):
            actions = state.legal_actions(seat)
            if seat in state.to_act:
                assert actions and len(set(actions)) == len(actions)
                assert all(a in state.notation.parse for a in actions), "every action is notation"
            else:
                assert actions == []
        check_invariants(state)
        # the deep checks reload and replay the whole history: at the conformance kit's fixed
        # points (every step of the opening, then a quarter apart), not every 7th step
        if deep and len(state.history) in ROUND_TRIPS_AT:
            check_contract(state, rng)
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    check_invariants(state)
    return state


@pytest.mark.parametrize("players", split([3, 4, 5], lambda players: players != 4))
def test_random_play_keeps_the_contract_at_every_step(players: int) -> None:
    state = play_out(players, seed=players, deep=True)
    assert state.view(None)["season"] == "over" and state.is_over


@pytest.mark.parametrize("players", split([3, 4, 5], lambda players: players != 4))
def test_random_play_with_every_option(players: int) -> None:
    for seed in range(4):
        play_out(
            players,
            seed=100 + seed,
            deep=seed == 0,
            warrior_push="optional",
            castle_entry="optional",
            upgrade_pile=4,
        )


def test_the_same_seed_and_actions_replay_the_same_game() -> None:
    state = play_out(4, seed=9, deep=False)
    again = candelabria.new_game(players=4, seed=9, **{k: v for k, v in state.options.items()})
    for seat, action in state.history:
        again.apply(seat, action)
    assert again.to_json() == state.to_json()


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(3, 5),
    picks=st.lists(st.integers(0, 10_000), min_size=1, max_size=120),
)
def test_any_line_of_play_conserves_every_component(
    seed: int, players: int, picks: list[int]
) -> None:
    state = candelabria.new_game(players=players, seed=seed)
    for pick in picks:
        if not state.to_act:
            break
        seat = state.to_act[0]
        actions = state.legal_actions(seat)
        state.apply(seat, actions[pick % len(actions)])
        check_invariants(state)


def test_restore_refuses_a_broken_save() -> None:
    state = candelabria.new_game(players=4, seed=3)
    good = state.to_json()

    def broken(change: Any) -> dict[str, Any]:
        data = json.loads(json.dumps(good))
        change(data["state"])
        return data

    cases = [
        (lambda s: s["hands"][0].append("A01"), "candle cards do not add up"),
        (lambda s: s["hands"][0].append("Z9"), "'Z9' is not a candle card"),
        (lambda s: s["land_flames"][0].append("99z"), "'99z' is not a territory"),
        (lambda s: s["land_flame_supply"].__setitem__(0, 3), "Land Flames do not add up"),
        (lambda s: s["gold"].__setitem__(0, 5), "gold and wax do not add up"),
        (lambda s: s["castles"].__setitem__(1, s["castles"][0]), "two castles share a territory"),
        (
            lambda s: s["temple_supply"].__setitem__(0, s["temple_supply"][0] - 1),
            "white temples do not add up",
        ),
        (lambda s: s["upgrade_box"].pop(), "upgrade tiles do not add up"),
        (lambda s: s["tactics_deck"].pop(), "tactic cards do not add up"),
        (
            lambda s: (
                s["curse_deck"].remove("1")
                if "1" in s["curse_deck"]
                else s["curses_out"].append("1")
            ),
            "curse cards do not add up",
        ),
        (lambda s: s["stack"].append([99, 0]), "is not one of the game's"),
        (lambda s: s["stack"].__setitem__(-1, [0, 9]), "names no seat"),
        (lambda s: s["house_of"].__setitem__(0, "X"), "'X' is not a house"),
        (lambda s: s.update(year=4), "1, 2 or 3"),
        (lambda s: s.update(corrupted=[6]), "region 6 cannot be corrupted"),
        (lambda s: s.update(side="small"), "played on the large side"),
        (lambda s: s.update(extra=1), "extra"),
        (lambda s: s["candle_flames"].__setitem__(0, [0, 0, 1]), "Candle Flames do not add up"),
    ]
    for change, message in cases:
        with pytest.raises(ValueError, match=message):
            position.restore(broken(change), state)  # an edited position, every count checked
        with pytest.raises(ValueError, match=r"differs in state|malformed"):
            candelabria.load(broken(change))  # a saved game: the replay does not reach it
    with pytest.raises(ValueError, match="not 'candelabria'"):
        candelabria.load({**good, "game": "candle-quest"})


BOARDS = [Board(load_content().sides[key]) for key in ("large", "small")]


@settings(max_examples=60, deadline=None)
@given(board=st.sampled_from(BOARDS), data=st.data())
def test_the_reach_tables_agree_with_the_map(board: Board, data: Any) -> None:
    t = data.draw(st.integers(0, board.size - 1))
    adjacent = set(board.adj[t])
    assert t not in adjacent and all(t in board.adj[u] for u in adjacent), "borders go both ways"
    assert set(board.explore[0][t]) == adjacent
    assert adjacent <= set(board.explore[1][t]) <= set(board.explore[2][t])
    assert set(board.reach_skipping(t, 0, 1)) == set(board.explore[1][t])
    everything = (1 << board.size) - 1
    assert set(board.reach_skipping(t, everything, 0)) == set(range(board.size)) - {t}
    for steps in (1, 2, 3):
        assert t not in board.push[steps][t], "a pushed candle never stays with the Warrior"
    assert set(board.push[1][t]) == adjacent
    same = {u for u in range(board.size) if board.icon[u] == board.icon[t]} - {t}
    assert set(board.pilgrim[t]) == adjacent | same
