"""Standings (issue 14): along games of every game, variant and player count, each seat's parts sum to
its score; at the end the scores are the engine's ``scores`` and the seats ranked first are exactly its
``winners``; rows come in rank order, and the summary names the winner."""

from __future__ import annotations

import itertools
import random

import pytest

import candlebox
from candlebox.engine import State, game_ids, game_info
from candlebox.engine.rng import Rng
from candlebox.engine.standings import Standings

CHECK_EVERY = 23  # decisions between two looks at the current standings


def configurations() -> list[tuple[str, str, int, dict[str, object]]]:
    found: list[tuple[str, str, int, dict[str, object]]] = []
    for game in game_ids():
        for variant in game_info(game).variants:
            for players in variant.players:
                found.append((game, variant.name, players, {}))
    found.append(("candle-quest", "advanced", 3, {"tiebreak": "shekels"}))
    found.append(("sixteen-candies", "standard", 3, {"pool_cap": True, "pool": 8}))
    found.append(("sixteen-candies", "standard", 2, {"all_tied": "caller-wins", "rounds": 3}))
    found.append(("candelabria", "standard", 4, {"missions": True, "decay": True}))
    return found


def check(state: State, standings: Standings) -> None:
    rows = standings.rows
    assert sorted(row.seat for row in rows) == list(range(state.num_players))
    for row in rows:
        assert sum(part.points for part in row.parts) == row.score, row
        assert all(part.source and not part.source.isspace() for part in row.parts)
    ranks = [row.rank for row in rows]
    assert ranks[0] == 1 and ranks == sorted(ranks)
    for before, after in itertools.pairwise(rows):
        assert before.score >= after.score
    assert standings.final == state.is_over
    assert standings.summary.endswith((".", ")"))
    if state.is_over:
        assert [row.score for row in sorted(rows, key=lambda r: r.seat)] == list(state.scores)
        assert {row.seat for row in rows if row.rank == 1} == set(state.winners)
        assert {row.seat for row in rows if row.winner} == set(state.winners)
        names = [f"P{seat}name" for seat in range(state.num_players)]
        assert all(names[seat] in state.standings(names).summary for seat in state.winners)


@pytest.mark.parametrize(
    ("game", "variant", "players", "options"),
    configurations(),
    ids=lambda value: str(value) if not isinstance(value, dict) else "+".join(value) or "-",
)
def test_parts_sum_and_ranks_agree_with_the_engine(
    game: str, variant: str, players: int, options: dict[str, object]
) -> None:
    info = game_info(game)
    policy, viewer = info.policy(), info.viewer()
    for seed in (0, 1):
        state = candlebox.new_game(game, players=players, variant=variant, seed=seed, **options)
        choose = random.Random(seed)
        rng = Rng(seed)
        step = 0
        while not state.is_over:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            # The heuristic finishes games (a Menorah completed); random play reaches the rest.
            use_policy = policy is not None and (seed == 0 or choose.random() < 0.5)
            action = policy(viewer(state, seat), legal, rng) if use_policy else choose.choice(legal)
            state.apply(seat, action)
            step += 1
            if step % CHECK_EVERY == 0:
                check(state, state.standings())
        check(state, state.standings())
