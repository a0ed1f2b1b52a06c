"""``candlebox replay``: a saved game replays; a damaged one is refused clearly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.conftest import read, run


def test_a_played_game_replays(saved_game: Path) -> None:
    result = run("replay", str(saved_game))
    assert result.exit_code == 0, result.output
    assert "replays exactly" in result.stdout
    assert "   1  seat" in result.stdout
    assert "seen by a spectator" in result.stdout


def test_replay_as_a_seat(saved_game: Path) -> None:
    result = run("replay", str(saved_game), "--seat", "1")
    assert result.exit_code == 0, result.output
    assert "seen by seat 1" in result.stdout


def test_stepping_waits_for_enter_and_can_stop(saved_game: Path) -> None:
    result = run("replay", str(saved_game), "--step", input="\nq\n")
    assert result.exit_code == 0, result.output
    assert "Stopped at step 2" in result.stdout
    result = run("replay", str(saved_game), "--step", input="\nc\n")
    assert "replays exactly" in result.stdout


def write(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data))
    return path


def test_an_illegal_move_in_the_history_does_not_replay(saved_game: Path) -> None:
    data = read(saved_game)
    data["history"][0][1] = "loot 4"
    result = run("replay", str(write(saved_game, data)))
    assert result.exit_code == 1
    assert "does not replay: step 1" in result.stderr


def test_a_tampered_state_does_not_replay(saved_game: Path) -> None:
    data = read(saved_game)
    data["state"]["shekels"][0] += 5
    result = run("replay", str(write(saved_game, data)))
    assert result.exit_code == 1
    assert "differs in state.shekels" in result.stderr


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "is not valid JSON (line 1"),
        ("[1, 2]", "a saved game is a JSON object, not a list"),
        ('{"game": "candle-quest"}', "has no 'players' field"),
        ("garbled-history", "history step 1 should be [seat, action]"),
        ("unknown-game", "unknown game 'chess'"),
        ("bad-option", "max_turns"),
    ],
)
def test_a_malformed_file_is_a_clear_error(
    saved_game: Path, tmp_path: Path, content: str, message: str
) -> None:
    data = read(saved_game)
    if content == "garbled-history":
        data["history"][0] = "flip"
        content = json.dumps(data)
    elif content == "unknown-game":
        data["game"] = "chess"
        content = json.dumps(data)
    elif content == "bad-option":
        data["options"]["max_turns"] = "lots"
        content = json.dumps(data)
    path = tmp_path / "broken.json"
    path.write_text(content)
    result = run("replay", str(path))
    assert result.exit_code == 2, result.output
    assert str(path) in result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_a_missing_file(tmp_path: Path) -> None:
    result = run("replay", str(tmp_path / "nothing.json"))
    assert result.exit_code == 2
    assert "cannot read" in result.stderr


# Every command that reads a saved game: each must refuse a hostile file the same way.
READERS = {
    "replay": ("replay", "{path}"),
    "replay --verify": ("replay", "{path}", "--verify"),
    "review": ("review", "{path}", "--seat", "0", "--iterations", "1"),
    "play --resume": ("play", "candle-quest", "--resume", "{path}"),
}


@pytest.mark.parametrize("command", READERS)
@pytest.mark.parametrize("depth", [100_000, 5_000, 200])
def test_a_deeply_nested_file_is_a_one_line_error(
    saved_game: Path, tmp_path: Path, command: str, depth: int
) -> None:
    """A file nested deeper than Python's parser can follow (the whole file, or one field of a
    valid game), or merely deeper than any saved game (which nests 4 levels), is refused like every
    bad file: one line, exit 2, never a RecursionError's traceback."""
    data = read(saved_game)
    data["options"]["max_turns"] = "DEEP"
    content = json.dumps(data).replace('"DEEP"', "[" * depth + "]" * depth)
    path = tmp_path / "deep.json"
    path.write_text(content)
    result = run(*(part.format(path=path) for part in READERS[command]))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "RecursionError" not in result.output
    assert str(path) in result.stderr and "nested too deeply" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
