"""``candlebox new-game`` (candlebox/scaffold/): the project it writes is a working game with its own
tests, under the new names only; bad names and busy folders are refused before anything is written.
The whole trial (installed with pip, then played by every part of candlebox) is
tests/plugins/test_trial.py."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from candlebox.cli import app
from candlebox.scaffold import TEMPLATE_ID, TEMPLATE_PACKAGE, TEMPLATE_TITLE, names, write_game

ROOT = Path(__file__).resolve().parents[2]


def test_the_project_carries_the_new_names_only(tmp_path: Path) -> None:
    written = write_game("lantern-duel", tmp_path / "duel")
    relative = {str(path.relative_to(tmp_path / "duel")) for path in written}
    assert {
        "pyproject.toml",
        "README.md",
        "tests/test_game.py",
        "lantern_duel/__init__.py",
        "lantern_duel/state.py",
        "lantern_duel/views.py",
        "lantern_duel/text.py",
        "lantern_duel/words.py",
        "lantern_duel/heuristic.py",
        "lantern_duel/render.py",
        "lantern_duel/encoder.py",
        "lantern_duel/content/how_to_play.md",
        "lantern_duel/content/learn.json",
        "lantern_duel/py.typed",
    } <= relative
    for path in written:
        text = path.read_text()
        for old in (TEMPLATE_ID, TEMPLATE_PACKAGE, TEMPLATE_TITLE):
            assert old not in text, f"{path}: {old!r} left"
    pyproject = (tmp_path / "duel" / "pyproject.toml").read_text()
    assert 'lantern-duel = "lantern_duel:INFO"' in pyproject
    assert 'GAME_ID = "lantern-duel"' in (tmp_path / "duel/lantern_duel/state.py").read_text()
    assert (
        "# How to play Lantern Duel"
        in (tmp_path / "duel/lantern_duel/content/how_to_play.md").read_text()
    )


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("Lantern", "is not a game id"),
        ("lantern duel", "is not a game id"),
        ("9lives", "is not a game id"),
        ("x" * 41, "at most 40"),
        ("class", "Python keyword"),
        ("candle-quest", "already a game's id"),
    ],
)
def test_a_bad_name_is_refused_and_nothing_written(tmp_path: Path, name: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        write_game(name, tmp_path / "new")
    assert not (tmp_path / "new").exists()


def test_a_folder_in_use_is_refused(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("mine")
    with pytest.raises(ValueError, match="not an empty folder"):
        write_game("lantern-duel", tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]


def test_the_title_defaults_to_the_names_words() -> None:
    assert names("lantern-duel").title == "Lantern Duel"
    assert names("lantern-duel", title=" Lanterns! ").title == "Lanterns!"


def test_the_command_writes_the_project_or_says_what_is_wrong(tmp_path: Path) -> None:
    done = CliRunner().invoke(app, ["new-game", "lantern-duel", "--dir", str(tmp_path / "d")])
    assert done.exit_code == 0, done.output
    assert "pip install -e" in done.output and (tmp_path / "d" / "pyproject.toml").is_file()
    bad = CliRunner().invoke(app, ["new-game", "Bad Name", "--dir", str(tmp_path / "e")])
    assert bad.exit_code == 2 and "is not a game id" in bad.output
    assert "Traceback" not in bad.output and not (tmp_path / "e").exists()


def test_the_new_game_passes_its_own_tests(tmp_path: Path) -> None:
    """The project's tests (rules, secrecy, saving, words, texts, every bot, encoder, renderer and
    how-to page), run from its folder without installing it: the template is a working game."""
    project = tmp_path / "duel"
    write_game("lantern-duel", project)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(project), str(ROOT)]),
        # pytest alone: this environment's plugins (Playwright, hypothesis, ...) only cost start-up
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
    }
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:randomly",
            "-p",
            "no:cacheprovider",
            "tests",
        ],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and "skipped" not in done.stdout
