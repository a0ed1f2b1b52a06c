"""Ray runs the same seeded games as local processes, with the same rows (needs the ray extra)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip(
    "ray",
    reason="Ray is not installed (pip install -e '.[ray]'): local-vs-Ray results not compared",
)

from candlebox import sim
from tests.cli.conftest import run


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    """One local Ray cluster (2 CPUs) for the module, started as ``--ray auto`` would start it."""
    with sim.run.ray_session("auto", workers=2) as ray:
        yield ray


def test_ray_gives_the_local_rows(local_ray: Any) -> None:
    plan = sim.Plan(
        "candle-quest",
        3,
        None,
        {"max_turns": 40},
        (
            sim.Seat("heuristic"),
            sim.Seat("random"),
            sim.Seat("heuristic", {"epsilon": 0.3}, "weak"),
        ),
        12,
        seed=5,
        rotate=True,
    )
    seen: list[int] = []
    on_ray = sim.run_ray(plan, "auto", progress=seen.append)
    assert sum(seen) == 12
    assert on_ray == sim.run_local(plan, jobs=1)


def test_cli_ray_table_matches_local(local_ray: Any, tmp_path: Path) -> None:
    args = ["simulate", "candle-quest", "-n", "6", "--bots", "heuristic,random", "--seed", "9"]
    args += ["-o", "max_turns=30", "--json"]
    on_ray = run(*args, "--ray", "auto", "--out", str(tmp_path / "ray.csv"))
    local = run(*args, "--out", str(tmp_path / "local.csv"))
    assert on_ray.exit_code == 0, on_ray.output
    assert local.exit_code == 0, local.output
    assert (tmp_path / "ray.csv").read_text() == (tmp_path / "local.csv").read_text()
    assert json.loads(on_ray.stdout) == json.loads(local.stdout)


def test_an_experiment_on_ray_gives_the_local_rows(local_ray: Any) -> None:
    seats = (sim.Seat("heuristic"), sim.Seat("random"))
    arms = [
        sim.experiment.Arm(
            f"max_turns={turns}",
            {"max_turns": str(turns)},
            sim.Plan("candle-quest", 2, None, {"max_turns": turns}, seats, 0, seed=11),
        )
        for turns in (20, 40)
    ]
    rule = sim.experiment.UntilNarrow(0.3, 40)

    def on_ray(work: list[sim.run.Work]) -> list[list[dict[str, Any]]]:
        return sim.run.play_ray(work, "auto")

    def local(work: list[sim.run.Work]) -> list[list[dict[str, Any]]]:
        return sim.run.play_local(work, jobs=1)

    assert sim.experiment.run(arms, 8, on_ray, rule) == sim.experiment.run(arms, 8, local, rule)
