"""``candlebox report``: the balance report built from a small run, with and without matplotlib."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from candlebox import sim
from candlebox.sim import ratings, stats
from candlebox.sim.report import have_matplotlib
from tests.cli.conftest import run


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("results") / "small.csv"
    done = run(
        "simulate",
        "candle-quest",
        "-n",
        "16",
        "-p",
        "3",
        "--bots",
        "heuristic,random,heuristic:epsilon=0.5",
        "--rotate",
        "-o",
        "max_turns=60",
        "--out",
        str(path),
        "--json",
    )
    assert done.exit_code == 0, done.output
    return path


def test_report_from_a_small_run(results: Path, tmp_path: Path) -> None:
    folder = tmp_path / "report"
    done = run("report", str(results), "--out", str(folder))
    assert done.exit_code == 0, done.output
    page = (folder / "index.html").read_text()
    for text in (
        "Candle Quest (basic), 3 players — 16 games",
        "Win rate by seat and by place in the turn order",
        "First-player advantage",
        "Win rate by bot",
        "heuristic:epsilon=0.5",
        "Game length and scores",
        "Actions chosen",
        "95% interval",
        "Ratings",
    ):
        assert text in page, text
    if not have_matplotlib():
        pytest.skip("matplotlib is not installed (the sim extra): the report has no plots")
    images = re.findall(r'<img src="([^"]+)"', page)
    assert len(images) >= 6
    for name in images:
        data = (folder / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000, name


def test_report_default_folder_and_tables_only(results: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy.csv"
    copy.write_bytes(results.read_bytes())
    done = run("report", str(copy))
    assert done.exit_code == 0, done.output
    assert (tmp_path / "copy-report" / "index.html").is_file()
    rows = sim.read(copy)
    page = sim.build_report(rows, tmp_path / "plain", [str(copy)], plots=False).read_text()
    assert "<img" not in page and "Win rate by bot" in page


def test_report_errors(tmp_path: Path) -> None:
    done = run("report", str(tmp_path / "missing.csv"))
    assert done.exit_code == 2
    assert "no such file" in done.stderr


def test_wilson_interval() -> None:
    rate = stats.wilson(70, 100)
    assert rate.rate == 0.7
    assert rate.low == pytest.approx(0.604, abs=1e-3) and rate.high == pytest.approx(
        0.781, abs=1e-3
    )
    assert stats.wilson(0, 10).low == 0 and stats.wilson(10, 10).high == 1
    assert stats.wilson(0, 0).games == 0


def test_ranks_and_ratings() -> None:
    row = {"players": 3, "winners": [2], "scores": [5.0, 7.0, 9.0], "seed": 0}
    assert ratings.ranks(row) == [2, 1, 0]
    games = [
        {
            "players": 2,
            "winners": [seed % 5 != 0],
            "scores": [0.0, 0.0],
            "seed": seed,
            "bots": ["a", "b"],
        }
        for seed in range(40)
    ]
    found = ratings.rate(games)
    if found is None:
        pytest.skip("neither openskill nor trueskill is installed (the sim extra): no ratings")
    _, rated = found
    assert [r.bot for r in rated] == ["b", "a"] and rated[0].games == 40
