"""bench/load_accounts.py (the accounts load run, docs/deploy.md) in a small run, so the script
cannot rot: two real server processes on one PostgreSQL, accounts signed up and in, rated games
played to their end through both, every rating counted. Marked ``processes`` (CI's second step)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import candlebox

pytest.importorskip("websockets")
pytestmark = pytest.mark.processes

ROOT = Path(candlebox.__file__).resolve().parents[1]


def test_a_small_load_run_finishes_every_rated_game_with_no_error(
    postgres_url: str, tmp_path: Path
) -> None:
    out = tmp_path / "load.json"
    command = [sys.executable, "bench/load_accounts.py", "--accounts", "8", "--games", "3"]
    done = subprocess.run(
        [*command, "--db", postgres_url, "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:] + done.stdout[-3000:]
    result = json.loads(out.read_text())
    assert result["error_count"] == 0, result["errors"]
    assert (result["games_started"], result["games_finished"]) == (3, 3)
    assert result["sign_in"]["count"] == result["sign_up"]["count"] == 8
    assert result["moves"] > 0 and result["argon2"]["cpu_ms"] > 0
