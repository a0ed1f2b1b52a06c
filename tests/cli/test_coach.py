"""``hint`` in ``candlebox play`` and ``candlebox review``."""

from __future__ import annotations

import json
import re
from pathlib import Path

from rich.console import Console

import candlebox
from candlebox.cli import coach
from candlebox.cli.actions import pick
from tests.cli.conftest import SHORT, run


def test_hint_lists_the_best_actions_with_their_chances(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = run(
        "play",
        "candle-quest",
        *SHORT,
        "--save",
        str(path),
        "--hint-seconds",
        "0.05",
        input="1\nhint\nquit\n",
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Thinking (up to 0.05 s)" in out
    assert re.search(r"★ +\d+ \S+", out)
    assert re.search(r"\d+% \(\d+ tries\)", out)


def test_a_hint_numbers_each_move_as_the_action_list_does() -> None:
    """Typing the number a hint shows beside a move plays that move (a rank of the hint's own, "2."
    for the second best, was read as the action list's number 2 and played another move)."""
    for game in candlebox.game_ids():
        state = candlebox.new_game(game, players=2, seed=5)
        seat = state.to_act[0]
        while len(state.legal_actions(seat)) < 3:
            state.apply(seat, state.legal_actions(seat)[-1])
            seat = state.to_act[0]
        console = Console(record=True, width=200)
        coach.print_hint(state, seat, console, None, 40)
        lines = [
            line for line in console.export_text().splitlines() if re.match(r"[★ ] +\d+ ", line)
        ]
        assert len(lines) >= 2, console.export_text()
        for line in lines:
            number, action = re.match(r"[★ ] +(\d+) (.+?)  ", line).groups()  # type: ignore[union-attr]
            assert pick(number, state.legal_actions(seat)) == action, (game, line)


def test_review_shows_each_decision_and_the_marks(saved_game: Path) -> None:
    result = run("review", str(saved_game), "--seat", "0", "--iterations", "20")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Review of seat 0 (20 searches per decision)" in out
    assert re.search(r"the\s+search's", out) and "chosen" in out
    assert re.search(r"\d+ decisions?: \d+ blunders?, \d+ mistakes?, \d+ inaccurac", out)
    # whose chance, and each from how many tries (issue 36: a bare "0%" was read as nothing)
    assert "seat 0's chance of winning after each move" in " ".join(out.split())
    assert re.search(r"\d+% \(\d+\s+tr", out)


def test_review_says_what_it_left_out(saved_game: Path, tmp_path: Path) -> None:
    """A file from the server records the moves a bot made for a seat's player: left out, and said."""
    data = json.loads(saved_game.read_text())
    path = tmp_path / "handed.json"
    path.write_text(json.dumps({**data, "stand_ins": [[0, 0, None]]}))
    result = run("review", str(path), "--seat", "0", "--iterations", "5")
    assert result.exit_code == 0, result.output
    assert re.search(r"Left out: \d+ decisions? a bot made for this seat's player", result.stdout)
    assert re.search(r"^0 decisions", result.stdout, re.M)


def test_review_refuses_a_bad_seat_and_a_bad_file(saved_game: Path, tmp_path: Path) -> None:
    result = run("review", str(saved_game), "--seat", "7", "--iterations", "5")
    assert result.exit_code == 2
    assert "--seat 7: this game has seats 0–1" in result.output
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    result = run("review", str(bad), "--seat", "0")
    assert result.exit_code == 2
    assert "bad.json" in result.output
