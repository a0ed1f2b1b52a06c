"""Bad command lines: one clear line on stderr, exit code 2, no traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.conftest import run


@pytest.mark.parametrize("command", ["play", "simulate"])
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["chess"], "unknown game 'chess'; games: "),
        (["candle-quest", "-o", "max_turns=lots"], "option 'max_turns' takes a whole number"),
        (["candle-quest", "-o", "max_turns=0"], "must be at least 1"),
        (["candle-quest", "-o", "colour=red"], "has no option 'colour'; options: deck"),
        (["candle-quest", "-o", "max_turns"], "--option takes KEY=VALUE"),
        # basic lacks the option: its own value ('shared') is accepted, another refused with why
        (["candle-quest", "-o", "tiebreak=shekels"], "option 'tiebreak' can only be 'shared'"),
        (["candle-quest", "-p", "9"], "for 2–5 players, not 9"),
        (["candle-quest", "--variant", "expert"], "no variant 'expert'"),
        (["candle-quest", "--bots", "genius"], "unknown bot 'genius'"),
        (["candle-quest", "--bots", "random:depth"], "name:key=value"),
        (["candle-quest", "--bots", "random:depth=3"], "unexpected keyword argument 'depth'"),
        (
            ["candle-quest", "-p", "4", "--bots", "random,random"],
            "one bot for all seats or exactly",
        ),
    ],
)
def test_bad_settings(command: str, args: list[str], message: str) -> None:
    result = run(command, *args, input="quit\n")
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_an_option_of_another_variant_is_fine_there() -> None:
    result = run(
        "simulate",
        "candle-quest",
        "--variant",
        "advanced",
        "-o",
        "tiebreak=shekels",
        "-o",
        "max_turns=20",
        "-n",
        "2",
        "--json",
    )
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("command", ["play", "simulate"])
@pytest.mark.parametrize("bot", ["policy", "ismcts:guide=policy"])
def test_a_bot_that_cannot_play_the_table_is_one_line(command: str, bot: str) -> None:
    """A network trained for another table (each player count has a file for its default variant;
    this table plays another variant): named before any game starts."""
    pytest.importorskip("numpy", reason="the policy bot needs numpy: pip install -e '.[rl]'")
    table = ("-p", "3", "--variant", "advanced")
    result = run(command, "candle-quest", *table, "--bots", bot, input="quit\n")
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1, result.stderr
    assert (
        f"--bots: {bot}: the policy network in candle-quest-3p.npz plays Candle Quest (basic) "
        "with 3 players only; this table is Candle Quest (advanced) with 3 players"
    ) in result.stderr
    assert "Traceback" not in result.output


def test_seat_out_of_range() -> None:
    result = run("play", "candle-quest", "--seat", "2")
    assert result.exit_code == 2
    assert "--seat 2: this game has seats 0–1" in result.stderr


@pytest.mark.parametrize("command", [[], ["play"], ["simulate"], ["replay"], ["games"], ["bots"]])
def test_help(command: list[str]) -> None:
    result = run(*command, "--help")
    assert result.exit_code == 0
    assert "Usage" in result.stdout


def test_listings() -> None:
    games = run("games")
    assert games.exit_code == 0
    for text in ("Candle Quest", "advanced", "2–5", "max_turns", "shared|shekels", "advanced only"):
        assert text in games.stdout
    bots = run("bots")
    assert bots.exit_code == 0
    assert "heuristic" in bots.stdout and "random" in bots.stdout


@pytest.mark.parametrize("module", ["candlebox.cli", "candlebox"])
def test_the_installed_command_reports_without_a_traceback(tmp_path: Path, module: str) -> None:
    command = [sys.executable, "-m", module, "play", "chess"]
    done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert done.returncode == 2
    assert "unknown game 'chess'" in done.stderr
    assert "Traceback" not in done.stderr
    assert not list(tmp_path.iterdir())  # nothing saved for a game that never started


def test_an_unwritable_save_path(tmp_path: Path) -> None:
    result = run("play", "candle-quest", "--save", str(tmp_path / "missing" / "g.json"))
    assert result.exit_code == 2
    assert "cannot save the game to" in result.stderr
