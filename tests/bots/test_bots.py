"""The bot registry, seeded determinism, information discipline, and the heuristic's strength."""

from __future__ import annotations

import pytest

import candlebox
from candlebox import bots


def test_registry_lists_and_builds_bots() -> None:
    assert {"random", "heuristic"} <= set(bots.available())
    for name in bots.available():
        assert bots.describe(name)
        assert hasattr(bots.make(name, seed=1), "choose")
    with pytest.raises(ValueError, match="unknown bot 'genius'"):
        bots.make("genius")
    with pytest.raises(ValueError, match="random"):
        bots.make("random", depth=3)
    with pytest.raises(ValueError, match="epsilon"):
        bots.make("heuristic", epsilon=2)


def test_epsilon_weakens_the_heuristic() -> None:
    strong = sum(0 in _play(["heuristic", "heuristic"], s).winners for s in range(30))
    # Seat 0 plays at full strength against a seat 1 that mostly plays at random.
    weak_rival = 0
    for seed in range(30):
        state = candlebox.new_game("candle-quest", players=2, seed=seed)
        players = [
            bots.make("heuristic", seed=seed),
            bots.make("heuristic", seed=seed, epsilon=0.9),
        ]
        while not state.is_over:
            seat = state.to_act[0]
            state.apply(seat, players[seat].choose(state, seat))
        weak_rival += 0 in state.winners
    assert weak_rival > strong


def _play(names: list[str], seed: int, game: str = "candle-quest", **options) -> candlebox.State:  # type: ignore[no-untyped-def]
    state = candlebox.new_game(game, players=len(names), seed=seed, **options)
    players = [bots.make(name, seed=seed * 7 + i) for i, name in enumerate(names)]
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, players[seat].choose(state, seat))
    return state


@pytest.mark.parametrize("name", ["random", "heuristic"])
def test_same_seed_same_choices(name: str) -> None:
    first = _play([name, name], seed=5, max_turns=200)
    second = _play([name, name], seed=5, max_turns=200)
    assert first.history == second.history


@pytest.mark.parametrize("name", ["random", "heuristic"])
def test_bots_see_only_what_their_seat_may_know(name: str) -> None:
    """Identical choices in states the seat cannot tell apart (the stack reshuffled)."""
    state = candlebox.new_game("candle-quest", players=3, seed=11)
    driver = bots.make("heuristic", seed=3)
    for _ in range(120):
        if state.is_over:
            break
        seat = state.to_act[0]
        twin = state.resample(seat, seed=99)
        assert bots.make(name, seed=4).choose(state, seat) == bots.make(name, seed=4).choose(
            twin, seat
        )
        state.apply(seat, driver.choose(state, seat))


@pytest.mark.parametrize("variant", ["basic", "advanced", "junior"])
def test_heuristic_beats_random_clearly(variant: str) -> None:
    wins = 0.0
    games = 40
    for seed in range(games):
        order = ["heuristic", "random"] if seed % 2 == 0 else ["random", "heuristic"]
        state = _play(order, seed, variant=variant)
        mine = order.index("heuristic")
        if mine in state.winners:
            wins += 1 / len(state.winners)
    assert wins / games >= 0.8, f"heuristic won only {wins} of {games} against random"
