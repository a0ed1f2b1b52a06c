"""Every script in bench/ starts: its imports resolve and it answers ``--help``. The scripts run
only when someone measures, so a change elsewhere (a function moved out of a script another
imports) would otherwise break one unseen until then."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
SCRIPTS = sorted(path.name for path in BENCH.glob("*.py"))


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], cwd=BENCH.parent, capture_output=True, text=True, timeout=300
    )


@pytest.mark.parametrize("script", SCRIPTS)
def test_the_script_starts(script: str) -> None:
    done = run(str(BENCH / script), "--help")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "usage:" in done.stdout


def test_baselines_plays_its_matches() -> None:
    done = run(
        str(BENCH / "baselines.py"),
        "--games", "candle-quest", "--players", "2,3", "--n-random", "2", "--n-heuristic", "0",
        "--n-ismcts", "1", "--easy", "iterations=2",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    lines = [line for line in done.stdout.splitlines() if "policy vs" in line]
    assert len(lines) == 3, done.stdout
    assert "2p policy vs random" in lines[0] and "n=2" in lines[0]
    assert "2p policy vs ismcts:iterations=2" in lines[1] and "n=1" in lines[1]
    # 3 players: 2/3 of the games (rounded), and ISMCTS-Easy plays 2-player tables only
    assert "3p policy vs random" in lines[2] and "n=1" in lines[2]


def test_baselines_names_a_player_count_without_a_policy() -> None:
    done = run(str(BENCH / "baselines.py"), "--games", "sixteen-candies", "--players", "5")
    assert done.returncode == 2
    assert "--players: no policy ships for sixteen-candies with 5 players" in done.stderr


def test_baselines_names_a_wrong_bot_parameter() -> None:
    done = run(str(BENCH / "baselines.py"), "--easy", "iterationz=3")
    assert done.returncode == 2
    assert "--easy: " in done.stderr and "iterationz" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.deep  # a whole measuring run; that it starts is checked above (CI's second step)
def test_peers_measures_the_adapters_and_their_caps(tmp_path: Path) -> None:
    """``--adapters`` gives, per game, the PettingZoo env beside its cap and the vector env beside
    the engine and the vector env's own cap (the same env whose observation is one copied row),
    each row measured in the same run."""
    pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    out = tmp_path / "peers.json"
    done = run(
        str(BENCH / "peers.py"), "--adapters", "--games", "candle-quest", "--peers", "none",
        "--seconds", "0.2", "--repeats", "1", "--json", str(out),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    import json

    (row,) = json.loads(out.read_text())["adapters"]
    assert row["config"] == "candle-quest/basic/3p"
    for key in ("pettingzoo", "cap", "vector", "vector_cap", "engine"):
        assert row[key] > 0, key
    # The cap writes less than any encoder: the real vector env cannot be much faster than it.
    # (no speed is compared here: a loaded machine can make any run the faster; bench/ measures)
    assert "its cap, the observation one copy" in done.stdout
