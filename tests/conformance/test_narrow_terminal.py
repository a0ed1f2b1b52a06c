"""Every game's terminal renderer reads at 40 columns (a phone's terminal, a split pane): its tables
become lines, so no column or header is cut to '…' and no line is wider than the terminal (the
conformance kit's check, candlebox/testing/words.py, on every registered game with a renderer)."""

from __future__ import annotations

import pytest

from candlebox.engine import game_ids, game_info
from candlebox.testing import words

GAMES = [game for game in game_ids() if game_info(game).renderer() is not None]


@pytest.mark.parametrize("game", GAMES)
def test_forty_columns_cut_nothing(game: str) -> None:
    words.narrow_terminal_cuts_nothing(game)
