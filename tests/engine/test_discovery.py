"""Games are found through the ``candlebox.games`` entry points (engine/discovery.py): the built-in
ones as declared in pyproject.toml, an installed plug-in the same way, and a broken plug-in is
reported by name without stopping the others.

The plug-ins here are installed for real in the way pip leaves them (a package and a ``.dist-info``
folder with its ``entry_points.txt`` on ``sys.path``), in a child Python, so this process's registry
is untouched."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import candlebox
from candlebox.engine.discovery import GROUP, PYPROJECT, canonical, source_tree_games
from candlebox.scaffold import write_game

ROOT = Path(__file__).resolve().parents[2]


def test_the_built_in_games_are_declared_in_pyproject_and_found_first() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"][
        GROUP
    ]
    assert PYPROJECT == ROOT / "pyproject.toml"
    found = source_tree_games()
    assert found is not None and [d.name for d in found] == list(declared)
    assert candlebox.GAMES[: len(declared)] == tuple(declared)
    assert candlebox.plugin_problems() == ()


def test_another_projects_pyproject_is_not_read_as_candlebox(tmp_path: Path) -> None:
    other = tmp_path / "pyproject.toml"
    other.write_text(
        '[project]\nname = "else"\n[project.entry-points."candlebox.games"]\nx = "y:Z"\n'
    )
    assert source_tree_games(other) is None
    assert source_tree_games(tmp_path / "missing.toml") is None
    assert canonical("Candle_Box.x") == "candle-box-x"


def _distribution(site: Path, name: str, entry_points: dict[str, str]) -> None:
    """What ``pip install`` leaves for a distribution: its metadata and its entry points."""
    info = site / f"{name.replace('-', '_')}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    lines = [f"[{GROUP}]", *(f"{key} = {value}" for key, value in entry_points.items())]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n")


SCRIPT = """
import json, warnings
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    import candlebox
    games = list(candlebox.GAMES)
    problems = [str(p) for p in candlebox.plugin_problems()]
print(json.dumps({
    "games": games,
    "problems": problems,
    "warned": [str(w.message) for w in caught],
    "played": candlebox.new_game("good-game", players=2, seed=1).legal_actions(0)[:1],
}))
"""


def test_installed_plugins_are_found_and_a_broken_one_is_reported(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    write_game("good-game", tmp_path / "good")
    (tmp_path / "good" / "good_game").rename(site / "good_game")
    _distribution(site, "good-game", {"good-game": "good_game:INFO"})
    (site / "broken_game.py").write_text("raise RuntimeError('the rules file is missing')\n")
    (site / "odd_game.py").write_text("INFO = 42\n")
    _distribution(
        site,
        "broken-games",
        {
            "broken": "broken_game:INFO",  # raises on import
            "odd": "odd_game:INFO",  # not a GameInfo
            "renamed": "good_game:INFO",  # the name is not the game's id
            "absent": "good_game:NO_INFO",  # no such attribute
            "bare": "good_game",  # a module, not an object in it
        },
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)])}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["games"] == [*candlebox.GAMES, "good-game"]  # built-in first, then plug-ins
    assert out["played"][0].startswith("bid ")
    problems = out["problems"]
    assert len(problems) == 5 and out["warned"] == problems
    by_name = {p.split("'")[1]: p for p in problems}
    assert "'broken-games'" in by_name["broken"]
    assert "RuntimeError: the rules file is missing" in by_name["broken"]
    assert "it names an object of type int, not a candlebox GameInfo" in by_name["odd"]
    assert "named 'renamed' but the game's id is 'good-game'" in by_name["renamed"]
    assert "'good_game' has no attribute 'NO_INFO'" in by_name["absent"]
    assert "'good_game' is not 'package.module:ATTRIBUTE' (no colon)" in by_name["bare"]
