"""Standings (issue 14): along games of every game, variant and player count (and each game's
``Conformance.scoring_options``), each seat's parts sum to its score; at the end the scores are the
engine's ``scores`` and the seats ranked first are exactly its ``winners``; rows come in rank order,
and the summary names the winner (the conformance kit's check, candlebox/testing/views.py)."""

from __future__ import annotations

import pytest

from candlebox.engine import game_ids
from candlebox.testing import views


def configurations() -> list[tuple[str, str, int, dict[str, object]]]:
    return [
        (game, *config) for game in game_ids() for config in views.standings_configurations(game)
    ]


@pytest.mark.parametrize(
    ("game", "variant", "players", "options"),
    configurations(),
    ids=lambda value: str(value) if not isinstance(value, dict) else "+".join(value) or "-",
)
def test_parts_sum_and_ranks_agree_with_the_engine(
    game: str, variant: str, players: int, options: dict[str, object]
) -> None:
    views.standings_agree(game, variant, players, options)
