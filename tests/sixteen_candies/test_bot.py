"""The heuristic 16 Candies player: legal, blind to what its seat may not know, and clearly better
than random (the full measure, 400 games, is in the lead's report; this is a quick check)."""

from __future__ import annotations

import candlebox
from candlebox import bots
from candlebox.games.sixteen_candies.heuristic import best_value, shown


def _play(names: list[str], seed: int, **options: object) -> candlebox.State:
    state = candlebox.new_game("sixteen-candies", players=len(names), seed=seed, **options)
    players = [bots.make(name, seed=seed * 7 + i) for i, name in enumerate(names)]
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, players[seat].choose(state, seat))
    return state


def test_heuristic_beats_random_clearly() -> None:
    wins = 0.0
    games = 40
    for seed in range(games):
        order = ["heuristic", "random"] if seed % 2 == 0 else ["random", "heuristic"]
        state = _play(order, seed)
        wins += (order.index("heuristic") in state.winners) / len(state.winners)
    assert wins / games >= 0.9


def test_heuristic_finishes_games_under_every_option() -> None:
    for seed, options in enumerate(
        [
            {"draw": "optional"},
            {"rediscard": False},
            {"instant_win": "held"},
            {"all_tied": "caller-wins", "pool_cap": True},
        ]
    ):
        state = _play(["heuristic"] * 3, seed, **options)
        assert not state.truncated


def test_heuristic_sees_only_what_its_seat_may_know() -> None:
    state = candlebox.new_game("sixteen-candies", players=3, seed=11)
    driver = bots.make("random", seed=3)
    for step in range(150):
        if state.is_over:
            break
        seat = state.to_act[0]
        twin = state.resample(seat, seed=step)
        assert bots.make("heuristic", seed=4).choose(state, seat) == bots.make(
            "heuristic", seed=4
        ).choose(twin, seat)
        actions = [a for a in state.legal_actions(seat) if a != "call"] or ["call"]
        state.apply(seat, actions[driver.rng.below(len(actions))])  # type: ignore[attr-defined]


def test_hand_judgement() -> None:
    assert best_value(["G6-K1", "G5-K2", "G4-H3"]) == 100, "4, 5 and 6: an instant win"
    assert best_value(["G6-K1", "G6-H1", "G5-K2", "W"]) == 17
    assert best_value(["W", "W", "W"]) == 9
    assert shown(["G6", "G5", "G4"]) == (100, 4)
    assert shown(["G6", "W", "C4"]) == (9, 5)
