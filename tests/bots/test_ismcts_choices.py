"""ISMCTS chooses as it did: a seeded search with an iteration budget is deterministic, so its
choices on positions of seeded heuristic games are recorded (tests/data/ismcts_choices.json) and a
change to the search that changes any of them fails here. A change meant to change the choices
records them again: ``python -m tests.bots.test_ismcts_choices``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from candlebox import bots
from tests.bots.test_ismcts import walk

RECORDED_GAMES = ("candle-quest", "sixteen-candies", "candelabria")  # the built-in games
RECORDED = Path(__file__).parent.parent / "data" / "ismcts_choices.json"
POSITIONS = 8  # per game and seed: each of PARAMS once
SEEDS = (1, 2)
BUDGET: dict[str, Any] = {"iterations": 12, "anchor": 0.0}
# Each position is searched with one of these, in turn: the defaults and the parameters that take
# the search's other ways (random rollouts, the generic search, an anchor, no rival model, the
# rivals searched, flat Monte Carlo, the rank reward).
PARAMS: tuple[dict[str, Any], ...] = (
    {},
    {"rollout": "random"},
    {"hooks": "generic"},
    {"anchor": 1.0},
    {"model": 0},
    {"rivals": "search"},
    {"tree_depth": 1},
    {"reward": "rank", "widening": 0, "prior": 0},
)


def choices(game: str) -> list[str]:
    """The search's choice at each position of the game's seeded heuristic games."""
    found = []
    for seed in SEEDS:
        for i, state in enumerate(walk(game, seed, POSITIONS)):
            seat = state.to_act[0]
            params = PARAMS[i % len(PARAMS)]
            # anchor 0 unless asked: 16 Candies' default anchor would keep the heuristic's choice
            # at so few iterations, and the search's own choices are what is recorded
            bot = bots.make("ismcts", seed=100 * seed + i, **{**BUDGET, **params})
            found.append(bot.choose(state, seat))
    return found


@pytest.mark.parametrize("game", RECORDED_GAMES)
def test_the_same_seeds_choose_as_recorded(game: str) -> None:
    recorded = json.loads(RECORDED.read_text())[game]
    assert choices(game) == recorded


if __name__ == "__main__":
    games = sys.argv[1:] or list(RECORDED_GAMES)
    RECORDED.write_text(json.dumps({game: choices(game) for game in games}, indent=1) + "\n")
    print(f"recorded {RECORDED}")
