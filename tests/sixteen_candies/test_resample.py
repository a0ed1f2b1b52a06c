"""Resample deals only possible worlds: every seat knows that nobody has won instantly this round, so
no twin gives a player a 4-5-6 of one candy it would have had to win with (rulings SC-10)."""

from __future__ import annotations

import random

import pytest

import candlebox
from candlebox.games.sixteen_candies import save
from candlebox.games.sixteen_candies.conformance import story as sixteen_candies_story
from tests.sixteen_candies.helpers import game, orient_all


def _states(mode: str, games: int, players: int = 4):  # type: ignore[no-untyped-def]
    """Positions along random games (no calls, so rounds run long and hands change often)."""
    for seed in range(games):
        state = candlebox.new_game("sixteen-candies", players=players, seed=seed, instant_win=mode)
        rng = random.Random(seed)
        while not state.is_over and len(state.history) < 240:
            seat = rng.choice(state.to_act)
            actions = [a for a in state.legal_actions(seat) if a != "call"]
            state.apply(seat, rng.choice(actions))
            if len(state.history) % 3 == 0:
                yield state


# the default mode by default; "held": -m deep (CI's second step)
@pytest.mark.parametrize("mode", ["top", pytest.param("held", marks=pytest.mark.deep)])
def test_no_twin_holds_an_instant_win_nobody_called(mode: str) -> None:
    twins = 0
    for state in _states(mode, 12):
        sixteen_candies_story(state)  # the real game is a possible world
        for seat in range(state.num_players):
            twin = state.resample(seat, twins)
            sixteen_candies_story(twin)
            twins += 1
    assert twins > 1500


def test_a_waiting_opponent_is_never_dealt_a_held_four_five_six() -> None:
    """Once both hands are picked up and checked, seat 0 knows seat 1 holds no 4-5-6 of one candy;
    a uniform deal of seat 1's three cards from the cards seat 0 has not seen sometimes would."""
    hands = [["G6-K1", "C5-H2", "K4-G3"], ["G6-H1", "C6-K1", "H5-G2"]]
    state = game(hands, instant_win="held")
    orient_all(state, "K1 C5 K4", "G6 C6 H5")
    for seed in range(600):
        sixteen_candies_story(state.resample(0, seed))


def test_resample_stays_uniform_by_redealing_from_scratch() -> None:
    """Rejection keeps the uniform deal's odds among the possible worlds: a possible deal comes out
    exactly as often as before (a seed whose first deal was possible gives that very deal)."""
    for state in _states("held", 3):
        for seat in range(state.num_players):
            first = state.clone()
            save._deal(first, seat, candlebox.engine.Rng(17))
            if save.possible(first):
                twin = state.resample(seat, 17)
                assert twin.to_json()["state"] == first.to_json()["state"]


@pytest.mark.parametrize("mode", ["top", pytest.param("held", marks=pytest.mark.deep)])
def test_a_redeal_in_place_is_the_resample_of_its_seed(mode: str) -> None:
    """The search deals again into one determinization instead of copying the state for each deal
    it rejects (``save.redeal``): the world it gets must be exactly the fresh resample of that seed,
    whatever the world was dealt before (every seat's log included: the deals are logged)."""
    checked = 0
    for state in _states(mode, 4):
        for seat in range(state.num_players):
            world = state.resample(seat, 5)
            for seed in (11, 12):
                save.redeal(world, seat, seed)
                fresh = state.resample(seat, seed)
                assert world.to_json()["state"] == fresh.to_json()["state"]
                assert [world.log(s) for s in range(state.num_players)] == [
                    fresh.log(s) for s in range(state.num_players)
                ]
                checked += 1
    assert checked > 300
