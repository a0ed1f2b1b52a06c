"""The add-a-game trial's fixture: a game made by ``candlebox new-game``, installed with pip into a
folder of its own that the child Pythons (and servers) find through ``PYTHONPATH``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from candlebox.scaffold import write_game

ROOT = Path(__file__).resolve().parents[2]
GAME = "lantern-duel"
# The wheel pip builds with the setuptools already here (no download), without candlebox itself:
# the child Pythons import this checkout's candlebox (PYTHONPATH).
PIP_INSTALL = [
    sys.executable,
    "-m",
    "pip",
    "install",
    "--quiet",
    "--no-deps",
    "--no-build-isolation",
]


class Installed:
    """The generated project and the folder pip installed it into."""

    def __init__(self, project: Path, site: Path) -> None:
        self.project = project
        self.site = site
        self.env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)]),
            "COLUMNS": "100",
        }

    def run(self, *args: str, stdin: str | None = None, cwd: Path | None = None) -> str:
        done = subprocess.run(
            [sys.executable, *args],
            input=stdin,
            capture_output=True,
            text=True,
            env=self.env,
            cwd=cwd or self.project.parent,
            timeout=600,
        )
        assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
        return done.stdout

    def python(self, script: str) -> dict:
        return json.loads(self.run("-c", script).strip().splitlines()[-1])


@pytest.fixture(scope="session")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    base = tmp_path_factory.mktemp("trial")
    project = base / GAME
    write_game(GAME, project)
    site = base / "site"
    subprocess.run(
        [*PIP_INSTALL, "--target", str(site), str(project)],
        check=True,
        capture_output=True,
        cwd=base,
    )
    assert (site / "lantern_duel" / "__init__.py").is_file()
    yield Installed(project, site)
