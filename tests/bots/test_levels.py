"""The opponent levels are monotone (issue 16): on a small fixed tournament of every game, each level
wins more games than the level below it. bench/levels.py measures them at scale (docs/simulation.md,
"Levels"); this is the check that a change to a level, a bot or a game did not break the ladder.

2-player games of each level against the level below, seats alternating, seeded (the budgets are
iterations, so the games replay exactly). Marked slow: the searches of the Hard level take minutes
on a loaded machine (python -m pytest tests/bots/test_levels.py -m slow).
"""

from __future__ import annotations

import importlib
from itertools import pairwise
from pathlib import Path

import pytest

import candlebox
from candlebox import sim
from candlebox.engine.levels import LEVEL_NAMES, Level, Record, ladder

GAMES_PER_PAIR = 10
SEED = 7_000


def match(game: str, lower: Level, upper: Level) -> dict[str, float]:
    """Games won by each of the two levels (a shared win: a half each)."""
    seats = tuple(sim.Seat(level.bot, dict(level.params), level.name) for level in (lower, upper))
    plan = sim.Plan(game, 2, None, {}, seats, GAMES_PER_PAIR, SEED, rotate=True)
    won = {lower.name: 0.0, upper.name: 0.0}
    for seed in plan.seeds:
        row = sim.play(plan, seed)
        for seat in row["winners"]:
            won[row["bots"][seat]] += 1 / len(row["winners"])
    return won


def test_every_game_offers_the_four_levels_with_budgets_not_seconds() -> None:
    for game in candlebox.game_ids():
        levels = candlebox.game_info(game).levels
        assert tuple(level.name for level in levels) == LEVEL_NAMES
        assert all("seconds" not in level.params and level.doc for level in levels)
    with pytest.raises(ValueError, match="hard_iterations is at least 1"):
        ladder(hard_iterations=0)


@pytest.mark.parametrize(
    "numbers", [(101.0, 100, 2), (-1.0, 100, 2), (1.0, 0, 2), (1.0, 10, 1)], ids=str
)
def test_a_record_is_games_that_can_have_been_played(numbers: tuple[float, int, int]) -> None:
    with pytest.raises(ValueError, match="not a record of games"):
        Record(*numbers)
    assert Record(99.5, 100, 4).players == 4


@pytest.mark.slow
@pytest.mark.parametrize("game", candlebox.game_ids())
def test_each_level_wins_more_games_than_the_level_below(game: str) -> None:
    levels = candlebox.game_info(game).levels
    for lower, upper in pairwise(levels):
        won = match(game, lower, upper)
        assert won[upper.name] > won[lower.name], (game, won)


def test_the_measured_ratings_climb_the_ladder_in_every_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """bench/levels.py's ratings of the games in bench/results/levels.jsonl (the figures of
    docs/simulation.md) rise strictly from Beginner to Hard in every game: rated over the tables and
    the 2-player games alike, so two levels a game's standings always tie at the tables (16 Candies'
    losers share a place) are still told apart."""
    pytest.importorskip("openskill")
    bench = Path(__file__).resolve().parents[2] / "bench"
    monkeypatch.syspath_prepend(str(bench))  # the script, imported by name as it imports itself
    levels = importlib.import_module("levels")
    rows = levels.load(bench / "results" / "levels.jsonl")
    for game in candlebox.game_ids():
        measured = levels.ratings_of(levels.current(rows, game))
        assert measured is not None
        mu = {rating.bot: rating.mu for rating in measured[1]}
        ladder_mu = [mu[name] for name in LEVEL_NAMES]
        assert all(a < b for a, b in pairwise(ladder_mu)), (game, ladder_mu)
