"""The state-reading policies (SearchHooks.state_policy, own_state_policy) and 16 Candies' rival
model read from the state choose exactly as the view-reading ones, on many states of many games."""

from __future__ import annotations

import random

import pytest

import candlebox
from candlebox.engine import Rng, State
from candlebox.games.candle_quest import heuristic as cq
from candlebox.games.sixteen_candies import heuristic as sc
from candlebox.games.sixteen_candies import search as sc_search
from candlebox.games.sixteen_candies.save import possible
from candlebox.games.sixteen_candies.views import ValuedSeat
from tests.deep import split


def _states(game: str, variant: str, players: int, games: int) -> list[tuple[State, int]]:
    """Decisions of seeded games played half by the heuristic, half at random."""
    found = []
    for seed in range(games):
        pick = random.Random(seed)
        state = candlebox.new_game(game, players=players, variant=variant, seed=seed)
        policy = candlebox.game_info(game).policy()
        assert policy is not None
        while not state.is_over:
            seat = state.to_act[0]
            actions = state.legal_actions(seat)
            if len(actions) > 1:
                found.append((state.clone(), seat))
            if pick.random() < 0.5:
                action = policy(state.typed_view(seat), actions, Rng(seed))
            else:
                action = pick.choice(actions)
            state.apply(seat, action)
    return found


@pytest.mark.parametrize(  # every variant by default; basic at four players: -m deep (CI)
    ("variant", "players"),
    split(
        [("basic", 2), ("basic", 4), ("advanced", 3), ("junior", 3)],
        lambda c: c != ("basic", 4),
        True,
    ),
)
def test_candle_quest_state_policy_chooses_as_the_view_policy(variant: str, players: int) -> None:
    states = _states("candle-quest", variant, players, 12)
    assert len(states) > 500
    for state, seat in states:
        actions = state.legal_actions(seat)
        old = cq.policy(state.typed_view(seat), actions, Rng(1))
        assert cq.state_policy(state, seat, actions, Rng(1)) == old, (state, seat)
        # In a determinization too (the search reads rivals' invented screens the same way).
        world = state.resample(seat, 7)
        assert cq.state_policy(world, seat, actions, Rng(1)) == cq.policy(
            world.typed_view(seat), actions, Rng(1)
        )


@pytest.mark.parametrize(  # four players: -m deep (CI's second step)
    ("variant", "players"), split([("standard", 2), ("standard", 4)], lambda c: c[1] == 2, True)
)
def test_sixteen_candies_state_policies_choose_as_the_view_policies(
    variant: str, players: int
) -> None:
    states = _states("sixteen-candies", variant, players, 25)
    assert len(states) > 500
    for state, seat in states:
        actions = state.legal_actions(seat)
        view = state.typed_view(seat)
        assert sc.state_policy(state, seat, actions, Rng(1)) == sc.policy(view, actions, Rng(1))
        own = sc_search.own_state_policy(state, seat, actions, Rng(1))
        assert own == sc_search.search_policy(view, actions, Rng(1)), (state, seat)


def _plausibility_from_views(world: State, rivals: tuple[sc_search.Rival, ...]) -> float:
    """The rival model as it was first written, reading each rival's typed view."""
    weight = 1.0
    for rival in rivals:
        player = world.typed_view(rival.seat).seats[rival.seat]
        if not isinstance(player, ValuedSeat):
            continue
        hand = [card.card for card in player.hand]
        value = sc.best_value(hand)
        if (
            value >= sc.INSTANT
            or (rival.below is not None and value >= rival.below)
            or (
                rival.called
                and (
                    value < rival.at_least
                    or (player.value, player.penalty)
                    != sc_search.best_shown(sc.PRINTED_FACES, tuple(sorted(hand)))
                )
            )
        ):
            weight *= sc_search.UNLIKELY
        if rival.discarded is not None:
            for i in range(3):
                if sc.best_value([*hand[:i], *hand[i + 1 :], rival.discarded]) > value:
                    weight *= sc_search.UNLIKELY
                    break
    return weight


def test_sixteen_candies_rival_model_reads_the_state_as_its_views() -> None:
    checked = oriented = 0
    for state, seat in _states("sixteen-candies", "standard", 3, 15)[::3]:
        rivals = sc_search.observe(state, seat)
        for seed in range(4):
            world = state.resample(seat, seed)
            assert sc_search.plausibility(world, seat, rivals) == _plausibility_from_views(
                world, rivals
            )
            checked += 1
            # Orienting a caller's cards its best way keeps the deal possible, and the model
            # then finds nothing amiss in their orientation.
            sc_search.orient(world, seat, rivals)
            assert possible(world)
            for rival in rivals:
                player = world.typed_view(rival.seat).seats[rival.seat]
                if rival.called and isinstance(player, ValuedSeat):
                    best = sc_search.best_shown(
                        sc.PRINTED_FACES, tuple(sorted(c.card for c in player.hand))
                    )
                    if best[0] < sc.INSTANT:
                        assert (player.value, player.penalty) == best
                        oriented += 1
    assert checked > 300
    assert oriented > 10


def _hand_value_reference(cards: list[str]) -> int:
    """16 Candies' best hand as first written: every candy searched for a 4-5-6."""
    best = 0
    for i, candy in enumerate(sc.CANDIES):
        counts = sorted((sc.CONTRIB[c][i] for c in cards), reverse=True)
        best = max(best, sum(counts[:3]))
        holders = [
            {c for c in range(len(cards)) if (candy, n) in sc.HOLDS[cards[c]]} for n in (4, 5, 6)
        ]
        if all(holders) and sc._distinct(holders):
            return sc.INSTANT
    return best


def test_sixteen_candies_hand_value_shortcut_changes_nothing() -> None:
    deck = [code for code, copies in sc.BOX.items() for _ in range(copies)]
    pick = random.Random(3)
    instants = 0
    for _ in range(20_000):
        hand = pick.sample(deck, pick.choice((3, 4)))
        value = sc.evaluate_hand(hand)
        assert value == _hand_value_reference(hand), hand
        instants += value == sc.INSTANT
    assert instants > 20  # the shortcut is tested on instant wins too
