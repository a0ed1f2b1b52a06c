"""Every game's terminal renderer reads at 40 columns (a phone's terminal, a split pane): its tables
become lines, so no column or header is cut to '…' and no line is wider than the terminal."""

from __future__ import annotations

import random

import pytest
from rich.console import Console

import candlebox

GAMES = [g for g in candlebox.game_ids() if candlebox.game_info(g).renderer() is not None]


def _printed(state: candlebox.State, seat: int, width: int) -> str:
    console = Console(width=width, record=True, color_system=None)
    candlebox.game_info(state.game_id).renderer().render(
        state.typed_view(seat), console, state.prompt(seat)
    )
    return console.export_text()


def _positions(game: str) -> list[candlebox.State]:
    """Mid-game at the largest table, and a finished 2-player game."""
    info = candlebox.game_info(game)
    largest = max(v.max_players for v in info.variants)
    rng = random.Random(5)
    positions = []
    for players, steps in ((largest, 40), (2, 100_000)):
        state = candlebox.new_game(game, players=players, seed=3, max_turns=40)
        for _ in range(steps):
            if state.is_over:
                break
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        positions.append(state)
    return positions


@pytest.mark.parametrize("game", GAMES)
def test_forty_columns_cut_nothing(game: str) -> None:
    for state in _positions(game):
        narrow = _printed(state, 0, 40)
        assert "…" not in narrow, narrow
        assert max(len(line) for line in narrow.splitlines()) <= 40
