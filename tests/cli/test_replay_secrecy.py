"""``candlebox replay --seat N`` shows exactly what that seat saw, and a spectator no secret choice.

Each game is played part-way with seeded random moves (so hands are still hidden), saved, and replayed
from every seat. Every line printed must be the header, a line of that seat's own log, a line of its
own view, or the closing lines; and no other seat's private action (a hand's turn in 16 Candies, a
secret tactic in Candelabria) may appear at all.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from rich.console import Console

import candlebox
from candlebox.cli import render
from tests.cli.conftest import run

GAMES = [
    ("candle-quest", 3, None, 60),
    ("sixteen-candies", 3, None, 40),
    ("candelabria", 3, "standard", 80),
]


def part_played(game: str, players: int, variant: str | None, steps: int) -> candlebox.State:
    state = candlebox.new_game(game, players=players, variant=variant, seed=11)
    chance = random.Random(5)
    for _ in range(steps):
        if state.is_over:
            break
        seat = sorted(state.to_act)[0]
        state.apply(seat, chance.choice(state.legal_actions(seat)))
    assert not state.is_over, "the test needs a game still in play"
    return state


def rendered(state: candlebox.State, seat: int) -> set[str]:
    """Every line the seat may be shown: its log entries and its view, rendered as replay does."""
    console = Console(highlight=False, soft_wrap=True, width=80)
    with console.capture() as captured:
        for entry in state.log(seat):
            console.print(render.event_text(state.game_id, entry))
        render.render_state(state, seat, console)
        console.print("The game is not over.")
    return {line.strip() for line in captured.get().splitlines()}


def secrets(state: candlebox.State, seat: int | None) -> set[str]:
    """The private actions of every seat but ``seat`` that ``seat`` never made itself."""
    own = {action for mover, action in state.history if mover == seat}
    return {
        action
        for mover, action in state.history
        if mover != seat
        and (kind := state.move_kind(action)) is not None
        and kind.redact
        and action not in own
    }


@pytest.mark.parametrize(("game", "players", "variant", "steps"), GAMES)
def test_replay_as_a_seat_prints_only_that_seats_log_and_view(
    tmp_path: Path, game: str, players: int, variant: str | None, steps: int
) -> None:
    state = part_played(game, players, variant, steps)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(state.to_json()))
    if game != "candle-quest":  # Candle Quest has no secret actions: every candle moves face up
        assert secrets(state, 0), "the test needs another seat's secret in the history"
    for seat in range(players):
        result = run("replay", str(path), "--seat", str(seat))
        assert result.exit_code == 0, result.output
        allowed = rendered(state, seat)
        lines = [line.strip() for line in result.stdout.splitlines() if line.strip()]
        assert lines[0].startswith("Replaying") and lines[0].endswith(f"seen by seat {seat}")
        assert lines[-1].endswith("replays exactly.")
        extra = [line for line in lines[1:-1] if line not in allowed]
        assert not extra, f"seat {seat} was shown more than it saw: {extra[:3]}"
        for secret in secrets(state, seat):
            assert secret not in result.stdout, f"seat {seat} was shown {secret!r}"


@pytest.mark.parametrize(("game", "players", "variant", "steps"), GAMES[1:])
def test_a_spectator_replay_hides_every_secret_choice(
    tmp_path: Path, game: str, players: int, variant: str | None, steps: int
) -> None:
    state = part_played(game, players, variant, steps)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(state.to_json()))
    result = run("replay", str(path))
    assert result.exit_code == 0, result.output
    hidden = secrets(state, None)
    assert hidden
    for secret in hidden:
        assert secret not in result.stdout
    assert f": {candlebox.HIDDEN_ACTION}" in result.stdout, "a secret move still shows who moved"
