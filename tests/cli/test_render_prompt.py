"""Every game's terminal view states the pending decision in the game's own words (issue 14): its "▶"
line is ``State.prompt(viewer)``, for a seat and for a spectator, through the terminal
(``candlebox.cli.render.render_state``) and the RL adapters' text (``candlebox.rl.render``); and no
renderer words a decision its own way any more."""

from __future__ import annotations

import inspect
import random
import re
from pathlib import Path

import pytest
from rich.console import Console

import candlebox
from candlebox.cli import render
from candlebox.cli.render import generic
from candlebox.rl.render import render_text

RENDERERS = [Path(generic.__file__)] + [
    Path(inspect.getfile(candlebox.game_info(game).renderer().render))  # type: ignore[union-attr]
    for game in candlebox.GAMES
]


def decision_lines(text: str) -> list[str]:
    """The "▶" lines but the seats tables' rows (a "▶" before the seat number marks who acts)."""
    lines = (line.strip() for line in text.splitlines())
    return [line[2:] for line in lines if re.match(r"▶ (?!\d)", line)]


def terminal(state: candlebox.State, viewer: int | None) -> str:
    console = Console(width=2000, color_system=None, highlight=False)
    with console.capture() as captured:
        render.render_state(state, viewer, console)
    return captured.get()


@pytest.mark.parametrize("game", candlebox.GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_the_decision_line_is_the_games_prompt(game: str, seed: int) -> None:
    info = candlebox.game_info(game)
    players = max(info.variant(info.default_variant(3)).min_players, 3)
    state = candlebox.new_game(game, players=players, seed=seed)
    chance = random.Random(seed)
    for step in range(120):
        if state.is_over:
            break
        if step % 7 == 0:  # a few views along the game, not every one (the map is long to print)
            for viewer in (None, 0, *state.to_act):
                want = [state.prompt(viewer)]
                assert decision_lines(terminal(state, viewer)) == want, (game, step, viewer)
                assert decision_lines(render_text(state, viewer, width=2000)) == want
        seat = sorted(state.to_act)[0]
        state.apply(seat, chance.choice(state.legal_actions(seat)))


@pytest.mark.parametrize("path", RENDERERS, ids=lambda path: path.parent.name)
def test_no_renderer_words_a_decision_of_its_own(path: Path) -> None:
    source = path.read_text()
    assert "def pending_text" not in source
    for own_words in (
        "high bid",
        "by seat",
        "Waiting for",
        " to take ",
        " to bid on",
        "still owed",
    ):
        assert own_words not in source, (path.name, own_words)
