"""bench/probe_server.py's probes 11 (one seat's sockets from one address) and 14 (numbers out of
range) in tiny mode, so they cannot rot (issue 33): a real server, what it answers now."""

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


def test_probes_11_and_14_tiny_run(tmp_path: Path) -> None:
    out = tmp_path / "rows.json"
    done = subprocess.run(
        [sys.executable, "bench/probe_server.py", "--tiny", "--only", "11,14", "--json", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    rows = {row["probe"]: row["now"] for row in json.loads(out.read_text())["rows"]}
    assert not any("probe failed" in probe for probe in rows), rows
    flood = rows["11 300 sockets of one seat from one address"]
    assert flood.startswith("8 kept, refused: ") and "too-many-tabs" in flood, flood
    assert flood.endswith("/api/meta 200, POST /api/games 201"), flood
    numbers = {probe: now for probe, now in rows.items() if probe.startswith("14 ")}
    assert len(numbers) == 5, rows
    for probe, now in numbers.items():
        assert [part.split()[0] for part in now.split(" / ")] == ["400"] * 3, (probe, now)
