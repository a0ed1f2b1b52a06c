"""Seeded simulation: rows that depend on nothing but the seeds, the results table, and the CLI."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

import candlebox
from candlebox import sim
from candlebox.cli import simulate as simulate_module
from tests.cli.conftest import run

SHORT = {"max_turns": 30}


def plan(
    games: int = 6, game: str = "candle-quest", rotate: bool = False, **options: Any
) -> sim.Plan:
    seats = (sim.Seat("heuristic"), sim.Seat("random"))
    return sim.Plan(game, 2, None, {**SHORT, **options}, seats, games, seed=40, rotate=rotate)


def test_rows_describe_each_game() -> None:
    rows = sim.run_local(plan(4))
    assert [row["seed"] for row in rows] == [40, 41, 42, 43]
    for row in rows:
        assert tuple(row) == sim.COLUMNS
        assert row["game"] == "candle-quest" and row["variant"] == "basic" and row["players"] == 2
        assert row["bots"] == ["heuristic", "random"]
        assert row["options"]["max_turns"] == 30 and "bank" in row["options"]
        assert set(row["winners"]) <= {0, 1} and len(row["scores"]) == 2
        assert sum(sum(kinds.values()) for kinds in row["actions"]) == row["steps"]
        assert 0 < row["turns"] <= 30 and row["first_player"] in (0, 1)
        assert row["end_reason"] in ("menorah", "max-turns", "stalled")
        assert row["truncated"] == (row["end_reason"] == "max-turns")
        assert len(row["facts"]["seats"]) == 2
    # The same game, replayed by hand with the same seeds, gives the same row.
    state = candlebox.new_game("candle-quest", players=2, seed=41, **SHORT)
    robots = [
        candlebox.bots.make(n, seed=41 * 100 + s) for s, n in enumerate(["heuristic", "random"])
    ]
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, robots[seat].choose(state, seat))
    assert rows[1]["winners"] == list(state.winners) and rows[1]["steps"] == len(state.history)


def test_bot_seeds_follow_the_cli_rule() -> None:
    from candlebox.cli.config import bot_seed

    assert all(sim.bot_seed(g, s) == bot_seed(g, s) for g in (0, 7, 123) for s in range(5))


def test_action_kinds() -> None:
    assert sim.action_kind("auction 3") == "auction"
    assert sim.action_kind("discard R7") == "discard"
    assert sim.action_kind("flip") == "flip"
    assert sim.action_kind("draw pile") == "draw pile"
    assert sim.action_kind("top G5 G4 W") == "top"


def test_rotation_moves_the_line_up() -> None:
    rows = sim.run_local(plan(3, rotate=True))
    assert [row["bots"] for row in rows] == [
        ["heuristic", "random"],
        ["random", "heuristic"],
        ["heuristic", "random"],
    ]


def test_processes_do_not_change_the_results() -> None:
    one = sim.run_local(plan(8, rotate=True), jobs=1)
    two = sim.run_local(plan(8, rotate=True), jobs=2)
    assert one == two


@pytest.mark.parametrize("game", candlebox.GAMES)
def test_every_game_gives_rows(game: str) -> None:
    info = candlebox.game_info(game)
    players = next(p for p in range(2, 9) if p in info.variant(info.default_variant(p)).players)
    seats = (sim.Seat("random"),) * players
    rows = sim.run_local(sim.Plan(game, players, None, {"max_turns": 20}, seats, 2))
    assert len(rows) == 2 and all(row["game"] == game for row in rows)
    assert all(len(row["actions"]) == players for row in rows)


def test_csv_round_trip(tmp_path: Path) -> None:
    rows = sim.run_local(plan(3))
    sim.write(rows, tmp_path / "r.csv")
    assert sim.read(tmp_path / "r.csv") == rows


def test_paths_may_be_text_or_path_objects(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every path candlebox.sim takes is a str or an os.PathLike, as open() takes."""
    monkeypatch.chdir(tmp_path)
    rows = sim.run_local(plan(2))
    sim.write(rows, "text.csv")
    assert sim.read("text.csv") == rows
    assert sim.read(str(tmp_path / "text.csv")) == rows
    page = sim.build_report(rows, "report", ["text.csv"], plots=False)
    assert page == Path("report") / "index.html" and page.is_file()


def test_a_bot_that_cannot_play_the_table_is_refused_before_any_game() -> None:
    pytest.importorskip("numpy", reason="the policy bot needs numpy: pip install -e '.[rl]'")
    seats = (sim.Seat("heuristic"), sim.Seat("policy"), sim.Seat("random"))
    # each player count has a file for its default variant (basic): this table plays another
    three = sim.Plan("candle-quest", 3, "advanced", SHORT, seats, 4, seed=40)
    played: list[int] = []
    with pytest.raises(
        ValueError, match=r"seat 1 \(policy\): .*with 3 players only; this table is .*\(advanced\)"
    ):
        sim.run_local(three, progress=played.append)
    assert not played


def test_parquet_round_trip(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow", reason="pyarrow is not installed (the sim extra): no Parquet")
    rows = sim.run_local(plan(3))
    sim.write(rows, tmp_path / "r.parquet")
    assert sim.read(tmp_path / "r.parquet") == rows


def test_unreadable_tables(tmp_path: Path) -> None:
    with pytest.raises(sim.TableError, match="no such file"):
        sim.read(tmp_path / "none.csv")
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n1,2\n")
    with pytest.raises(sim.TableError, match="not a candlebox results table"):
        sim.read(bad)


# ----------------------------------------------------------------------------- the CLI
def cli_rows(tmp_path: Path, name: str, *args: str) -> tuple[dict, str]:
    out = tmp_path / name
    result = run(
        "simulate",
        "candle-quest",
        "-n",
        "6",
        "--bots",
        "heuristic,random",
        "--seed",
        "3",
        "-o",
        "max_turns=30",
        "--out",
        str(out),
        "--json",
        *args,
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout), out.read_text()


def test_cli_jobs_same_table_and_summary(tmp_path: Path) -> None:
    summary_1, table_1 = cli_rows(tmp_path, "one.csv", "--jobs", "1")
    summary_2, table_2 = cli_rows(tmp_path, "two.csv", "--jobs", "2")
    assert table_1 == table_2
    assert summary_1 == summary_2
    assert table_1.splitlines()[0] == ",".join(sim.COLUMNS)
    assert len(table_1.splitlines()) == 7
    low, high = summary_1["win_rate_by_bot_95"]["heuristic"]
    assert low <= summary_1["win_rate_by_bot"]["heuristic"] <= high


def test_cli_rotate(tmp_path: Path) -> None:
    summary, _ = cli_rows(tmp_path, "r.csv", "--rotate")
    assert summary["rotate"] is True
    assert sum(summary["win_rate_by_bot"].values()) == pytest.approx(1.0)


def test_cli_ray_missing_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> None:
        raise sim.RayMissing(
            "Ray is not installed; install the optional extra: pip install -e '.[ray]'"
        )

    monkeypatch.setattr(sim.run, "import_ray", missing)
    result = run("simulate", "candle-quest", "-n", "2", "--ray", "auto")
    assert result.exit_code == 2
    assert "--ray: Ray is not installed" in result.stderr


def test_cli_parquet_needs_pyarrow(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        simulate_module.importlib.util,
        "find_spec",
        lambda name, *args: None if name == "pyarrow" else real(name, *args),
    )
    result = run("simulate", "candle-quest", "-n", "2", "--out", str(tmp_path / "r.parquet"))
    assert result.exit_code == 2
    assert "Parquet needs pyarrow" in result.stderr
