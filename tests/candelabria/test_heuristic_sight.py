"""The heuristic reads the state through a cheap Glance in the bots (issue 16) and the typed view
elsewhere; both must choose exactly what the old heuristic chose from the plain view."""

from __future__ import annotations

import random
from typing import Any

import pytest

from candlebox.engine import Rng, game_info
from candlebox.games import candelabria
from candlebox.games.candelabria import heuristic
from candlebox.games.candelabria.sight import Glance, ViewSight, glance
from tests.candelabria import legacy_heuristic

CONFIGS: list[tuple[int, dict[str, Any]]] = [
    (3, {}),
    (4, {"missions": True}),
    (5, {"decay": True, "decay_draw": "every"}),
    (4, {"warrior_push": "optional", "castle_entry": "optional", "battle_shift": "none"}),
    (2, {}),
    (2, {"missions": True}),
]


@pytest.mark.parametrize(("players", "options"), CONFIGS)
def test_glance_and_typed_view_choose_as_the_old_heuristic(
    players: int, options: dict[str, Any]
) -> None:
    decisions: set[str] = set()
    compared = 0
    for seed in range(3):
        state = candelabria.new_game(players=players, seed=seed, **options)
        rng = random.Random(seed)
        while not state.is_over:
            for seat in state.to_act:
                actions = state.legal_actions(seat)
                if len(actions) < 2:
                    continue
                picks = []
                for view in (state.view(seat), state.typed_view(seat), glance(state, seat)):
                    policy = legacy_heuristic.policy if isinstance(view, dict) else heuristic.policy
                    picks.append(policy(view, actions, Rng(compared)))  # type: ignore[arg-type]
                assert picks[0] == picks[1] == picks[2], (state.pending(), actions, picks)
                decisions.add(state.pending()["decision"])  # type: ignore[index]
                compared += 1
            # the heuristic plays half the moves, so its own lines (battles, curses) are reached
            seat = state.to_act[0]
            actions = state.legal_actions(seat)
            if rng.random() < 0.5:
                action = heuristic.policy(glance(state, seat), actions, Rng(seed))  # type: ignore[arg-type]
            else:
                action = actions[rng.randrange(len(actions))]
            state.apply(seat, action)
    assert compared > 200
    assert {"turn", "move", "secret", "take", "cancel"} <= decisions
    assert ("haunt" if players == 2 else "influence") in decisions


@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_glance_answers_as_the_typed_view(players: int) -> None:
    """Every question, on every territory and house, along random games (region power above all)."""
    state = candelabria.new_game(players=players, seed=11)
    rng = random.Random(11)
    while not state.is_over:
        seat = state.to_act[0]
        if state.pending()["decision"] != "pick":  # type: ignore[index]
            fast, slow = Glance(state, seat), ViewSight(state.typed_view(seat))
            assert fast.decision == slow.decision and fast.me == slow.me
            assert fast.houses() == slow.houses() and fast.leader() == slow.leader()
            assert fast.two_player == slow.two_player
            assert fast.corrupted() == slow.corrupted() and fast.haunted() == slow.haunted()
            for name in state.board.names:
                assert fast.spot(name) == slow.spot(name)
                assert fast.haunted((1, name)) == slow.haunted((1, name))
            for house in fast.houses():
                # equal where either is not 0 (a region missing counts as 0)
                fast_power, slow_power = fast.region_power(house), slow.region_power(house)
                for region in set(fast_power) | set(slow_power):
                    assert fast_power.get(region, 0) == slow_power.get(region, 0)
                assert fast.played(house) == slow.played(house)
            for place in range(len(state.curses)):
                assert fast.curse_flames(place) == slow.curse_flames(place)
        actions = state.legal_actions(seat)
        state.apply(seat, actions[rng.randrange(len(actions))])


def test_the_bots_are_given_the_glance() -> None:
    info = game_info("candelabria")
    state = candelabria.new_game(players=3, seed=1)
    assert isinstance(info.policy_viewer()(state, 0), Glance)
