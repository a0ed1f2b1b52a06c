"""Reviews and hints use only what the seat may know (issue 16): a review is the same for two saved
games that differ only in cards the seat never saw, and a hint the same on states it cannot tell apart.
"""

from __future__ import annotations

import random

import pytest

import candlebox
from candlebox import analysis
from candlebox.engine import State

GAME = "candle-quest"  # the game whose deck can be stacked on top with the rest shuffled beneath


def twin_games(prefix: int, seeds: tuple[int, int]) -> tuple[State, State]:
    """Two games with the same top of the draw stack (``prefix`` cards) and the rest shuffled by
    different seeds, played with the same moves until the top is nearly used up: every card drawn came
    from the shared top, so every seat has seen the same things in both; the undrawn cards beneath
    (which a search imagining the rest of the game would draw) differ."""
    stack = candlebox.new_game(GAME, 2, seed=1).to_json()["state"]["stack"]
    games = [
        candlebox.new_game(GAME, 2, seed=seed, deck=stack[:prefix], first_player=0)
        for seed in seeds
    ]
    first, second = games
    total = first.view(None)["stack"]
    pick = random.Random(4)
    while first.view(None)["stack"] > total - prefix + 1:
        seat = first.to_act[0]
        action = pick.choice(first.legal_actions(seat))
        for game in games:
            game.apply(seat, action)
        for seat in range(2):  # nobody could tell the two games apart so far
            assert first.view(seat) == second.view(seat)
            assert first.legal_actions(seat) == second.legal_actions(seat)
    return first, second


def test_a_review_is_the_same_for_games_that_differ_only_in_unseen_cards() -> None:
    first, second = twin_games(8, (1, 2))
    one, two = first.to_json(), second.to_json()
    assert one["history"] == two["history"] and one["options"] == two["options"]
    assert one["state"]["stack"] != two["state"]["stack"], "the cards beneath differ"
    review = analysis.review(one, 0, None, iterations=30, seed=7)
    assert review.decisions, "the seat had decisions to review"
    assert analysis.review(two, 0, None, iterations=30, seed=7) == review


@pytest.mark.parametrize("players", [2, 3])
def test_a_candelabria_hint_is_the_same_on_states_the_seat_cannot_tell_apart(
    players: int,
) -> None:
    state = candlebox.new_game("candelabria", players, seed=6)
    pick = random.Random(6)
    for _ in range(40):
        seat = state.to_act[0]
        state.apply(seat, pick.choice(state.legal_actions(seat)))
    while len(state.legal_actions(state.to_act[0])) < 2:
        state.apply(state.to_act[0], state.legal_actions(state.to_act[0])[0])
    seat = state.to_act[0]
    twins = [state.resample(seat, 11), state.resample(seat, 12)]
    assert any(twin.to_json()["state"] != state.to_json()["state"] for twin in twins)
    assert all(twin.view(seat) == state.view(seat) for twin in twins)
    tip = analysis.hint(state, seat, None, iterations=12, seed=5)
    assert all(analysis.hint(twin, seat, None, iterations=12, seed=5) == tip for twin in twins)
