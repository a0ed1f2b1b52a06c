"""Shared helpers for the CLI tests: an in-process runner and one short game played and saved."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from candlebox.cli import app

SHORT = ["--seed", "3", "--option", "max_turns=3"]  # a game of three turns: a few decisions each


def run(*args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(app, list(args), input=input)


@pytest.fixture
def saved_game(tmp_path: Path) -> Path:
    """A finished short game saved by ``candlebox play`` (every prompt answered with 1)."""
    path = tmp_path / "short.json"
    result = run("play", "candle-quest", *SHORT, "--save", str(path), input="1\n" * 40)
    assert result.exit_code == 0, result.output
    return path


def read(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text())
