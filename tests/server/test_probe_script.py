"""bench/probe_server.py (the audits' probes) in its tiny mode, so the script cannot rot: it starts a
real server per probe, runs the probe and reports what the hardened server answers."""

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


def probe_rows(tmp_path: Path, only: str, timeout: float) -> tuple[str, dict[str, str]]:
    """Run the probes ``only`` in tiny mode: the table printed, and each row's answer by probe."""
    out = tmp_path / "rows.json"
    done = subprocess.run(
        [sys.executable, "bench/probe_server.py", "--tiny", "--only", only, "--json", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    rows = {row["probe"]: row["now"] for row in json.loads(out.read_text())["rows"]}
    assert not any("probe failed" in probe for probe in rows), rows
    return done.stdout, rows


def test_probe_script_tiny_run(tmp_path: Path) -> None:
    table, rows = probe_rows(tmp_path, "10", timeout=120)
    assert table.startswith("| probe | the audit saw | now |")
    assert rows["10 /openapi.json"] == "404"
    assert rows["10 SQLite file mode"] == "0o600"
    assert rows["10 max_turns=10**30"].startswith("400 ")
    assert rows['10 "public": "false"'].startswith("400 bad-public")
    assert rows["10 text/plain from another origin"].startswith("403 cross-origin")
    assert rows["10 option named seed"].endswith("internals: none")


@pytest.mark.processes  # a server per probe, started and stopped (CI's second step)
def test_probes_11_and_14_tiny_run(tmp_path: Path) -> None:
    """Issue 33: one seat's sockets from one address, and numbers out of range."""
    _, rows = probe_rows(tmp_path, "11,14", timeout=300)
    flood = rows["11 300 sockets of one seat from one address"]
    assert flood.startswith("8 kept, refused: ") and "too-many-tabs" in flood, flood
    assert flood.endswith("/api/meta 200, POST /api/games 201"), flood
    numbers = {probe: now for probe, now in rows.items() if probe.startswith("14 ")}
    assert len(numbers) == 5, rows
    for probe, now in numbers.items():
        assert [part.split()[0] for part in now.split(" / ")] == ["400"] * 3, (probe, now)
