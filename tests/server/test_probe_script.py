"""bench/probe_server.py (the issue-12 attacker's probes) in its tiny mode, so the script cannot rot:
it starts a real server, runs one probe and reports what the hardened server answers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import candlebox

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

ROOT = Path(candlebox.__file__).resolve().parents[1]


def test_probe_script_tiny_run(tmp_path: Path) -> None:
    out = tmp_path / "rows.json"
    done = subprocess.run(
        [sys.executable, "bench/probe_server.py", "--tiny", "--only", "10", "--json", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("| probe | the audit saw | now |")
    rows = {row["probe"]: row["now"] for row in json.loads(out.read_text())["rows"]}
    assert not any("probe failed" in probe for probe in rows), rows
    assert rows["10 /openapi.json"] == "404"
    assert rows["10 SQLite file mode"] == "0o600"
    assert rows["10 max_turns=10**30"].startswith("400 ")
    assert rows['10 "public": "false"'].startswith("400 bad-public")
    assert rows["10 text/plain from another origin"].startswith("403 cross-origin")
    assert rows["10 option named seed"].endswith("internals: none")
