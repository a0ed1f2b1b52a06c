"""Resample deals a world that could be: what each seat's log says about its own hidden cards agrees
with the twin's holdings, and the resampling seat sees exactly what it saw (rulings CA-39)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from candlebox.games import candelabria
from candlebox.games.candelabria import CandelabriaState
from candlebox.games.candelabria.conformance import story as candelabria_story


def _played(players: int, seed: int, steps: int, **options: Any) -> CandelabriaState:
    state = candelabria.new_game(players=players, seed=seed, **options)
    rng = random.Random(seed)
    while state.to_act and len(state.history) < steps:
        seat = rng.choice(state.to_act)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def _own_story(log: list[dict[str, Any]], seat: int) -> Counter:
    """The Advanced cards a seat's own log says it drew and still holds (drawn or kept, less those
    it returned, deployed, maneuvered or put back under the deck)."""
    holds: Counter = Counter()
    for entry in log:
        if entry.get("seat") != seat:
            continue
        kind = entry["event"]
        if kind == "draw":
            holds[entry["card"]] += 1
        elif kind == "keep":
            holds.subtract(entry["others"])
        elif kind in ("return", "deploy", "maneuver") and entry["card"].startswith("A"):
            holds[entry["card"]] -= 1
    return +holds


def test_the_others_logs_name_the_cards_the_twin_deals_them() -> None:
    checked = 0
    for seed in range(4):
        state = _played(3, seed, 300)
        for seed2 in range(3):
            twin = state.resample(0, seed2)
            assert twin.log(0) == state.log(0) and twin.view(0) == state.view(0)
            for other in (1, 2):
                holds = _own_story(twin.log(other), other)
                hand = Counter(twin.view(other)["seats"][other]["hand"])
                assert not holds - hand, (
                    f"seat {other}'s log says it holds {sorted((holds - hand).elements())}, "
                    f"its hand in the twin is {sorted(hand.elements())}"
                )
                checked += sum(holds.values())
    assert checked > 5, "the games drew cards the others hold"


def test_a_twin_tells_a_possible_story() -> None:
    for players, seed, options in ((3, 5, {}), (4, 6, {"missions": True}), (5, 7, {})):
        for steps in (150, 400, 900):
            state = _played(players, seed, steps, **options)
            for seat in range(players):
                twin = state.resample(seat, seed * 100 + steps)
                candelabria_story(twin)
                assert twin.clone().to_json() == twin.to_json()  # whole in itself
                assert twin.log(seat) == state.log(seat)
                assert twin.view(seat) == state.view(seat)


def test_the_others_private_missions_in_their_logs_are_the_twins() -> None:
    state = _played(4, 3, 10, missions=True)
    differs = False
    for seed in range(6):
        twin = state.resample(0, seed)
        assert twin.log(0) == state.log(0)
        for other in (1, 2, 3):
            told = [
                e["mission"]
                for e in twin.log(other)
                if e["event"] == "mission-private" and e["seat"] == other
            ]
            house = twin.house_code(other)
            held = twin.view(other)["missions"]["private"][house]["mission"]
            assert told == [held], f"seat {other}'s log tells {told}, it holds {held}"
            differs |= held != state.view(other)["missions"]["private"][house]["mission"]
    assert differs, "the others' missions are dealt anew"
