"""Running a plan's games: in this process, on J local processes, or as tasks on a Ray cluster.

Game ``i`` depends on nothing but its seed, so every way of running a plan gives the same rows (sorted
by seed) whatever the number of processes or workers; only the speed differs.
"""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import candlebox
from candlebox.sim.game import Plan, check, play

Progress = Callable[[int], None]  # called with the number of games just finished
Row = dict[str, Any]
Work = tuple[Plan, list[int]]  # some games of a plan, by seed


def play_chunk(plan: Plan, seeds: list[int]) -> list[Row]:
    """The rows of some of a plan's games: the unit of work sent to a process or a Ray task."""
    return [play(plan, seed) for seed in seeds]


def chunks(seeds: list[int], workers: int, per_worker: int = 8) -> list[list[int]]:
    """Seeds split into about ``per_worker`` chunks per worker (balance, and a lively progress bar)."""
    if not seeds:
        return []
    size = max(1, math.ceil(len(seeds) / (max(1, workers) * per_worker)))
    return [seeds[i : i + size] for i in range(0, len(seeds), size)]


def _quiet(_: int) -> None:
    return None


def run_local(plan: Plan, jobs: int = 1, progress: Progress | None = None) -> list[Row]:
    """Every game of the plan on ``jobs`` processes (1: in this process); rows sorted by seed."""
    check(plan)
    return play_local([(plan, plan.seeds)], jobs, progress)[0]


def play_local(
    work: list[Work], jobs: int = 1, progress: Progress | None = None
) -> list[list[Row]]:
    """The rows of each (plan, seeds) of ``work``, each sorted by seed, on ``jobs`` processes.

    One pool serves every plan, so an experiment's arms share its start-up and keep every process
    busy to the end. The plans are not checked here (see ``check``).
    """
    advance = progress or _quiet
    found: list[list[Row]] = [[] for _ in work]
    if jobs <= 1 or sum(len(seeds) for _, seeds in work) <= 1:
        for index, (plan, seeds) in enumerate(work):
            for seed in seeds:
                found[index].append(play(plan, seed))
                advance(1)
        return found
    # spawn, not fork: the parent may run threads (the progress bar's), and the children import the
    # same candlebox from the parent's sys.path.
    with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn")) as pool:
        owner: dict[Future[list[Row]], int] = {
            pool.submit(play_chunk, plan, part): index
            for index, (plan, seeds) in enumerate(work)
            for part in chunks(seeds, jobs)
        }
        pending = set(owner)
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                part = future.result()
                found[owner[future]].extend(part)
                advance(len(part))
    return [sorted(rows, key=lambda row: row["seed"]) for rows in found]


# ----------------------------------------------------------------------------- Ray
class RayMissing(RuntimeError):
    """Ray is not installed (it is the optional ``ray`` extra)."""


def import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise RayMissing(
            "Ray is not installed; install the optional extra: pip install -e '.[ray]'"
        ) from None
    return ray


def _package_root() -> str:
    return str(Path(candlebox.__file__).resolve().parent.parent)


@contextmanager
def ray_session(address: str, workers: int | None = None) -> Iterator[Any]:
    """Ray connected to ``address``, or ``"auto"``: a running local cluster if there is one, else a
    new one on this machine with ``workers`` CPUs (default: all) for the duration of the block.

    A new local cluster's workers import candlebox from the same place as this process. A remote
    cluster must have candlebox installed.
    """
    ray = import_ray()
    if ray.is_initialized():
        yield ray
        return
    quiet: dict[str, Any] = {
        "include_dashboard": False,
        "log_to_driver": False,
        "logging_level": logging.WARNING,
        "configure_logging": True,
    }
    if address == "auto":
        try:
            ray.init(address="auto", **quiet)
        except ConnectionError:
            path = os.pathsep.join(p for p in (_package_root(), os.environ.get("PYTHONPATH")) if p)
            ray.init(num_cpus=workers, runtime_env={"env_vars": {"PYTHONPATH": path}}, **quiet)
    else:
        ray.init(address=address, **quiet)
    try:
        yield ray
    finally:
        ray.shutdown()


def run_ray(
    plan: Plan,
    address: str = "auto",
    workers: int | None = None,
    progress: Progress | None = None,
) -> list[Row]:
    """Every game of the plan as Ray tasks (``ray.remote`` over chunks of seeds); rows sorted by seed.

    ``workers``: the CPUs of a new local cluster, and at most that many tasks running at once.
    """
    check(plan)
    return play_ray([(plan, plan.seeds)], address, workers, progress)[0]


def play_ray(
    work: list[Work],
    address: str = "auto",
    workers: int | None = None,
    progress: Progress | None = None,
) -> list[list[Row]]:
    """The rows of each (plan, seeds) of ``work`` as Ray tasks, each sorted by seed (see run_ray)."""
    advance = progress or _quiet
    with ray_session(address, workers) as ray:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        width = min(workers, cpus) if workers else cpus
        task = ray.remote(num_cpus=1, max_retries=0)(play_chunk)
        refs = [ray.put(plan) for plan, _ in work]  # each plan sent to the cluster once
        todo = [
            (index, refs[index], part)
            for index, (_, seeds) in enumerate(work)
            for part in chunks(seeds, width)
        ]
        todo.reverse()
        owner: dict[Any, int] = {}
        running: list[Any] = []
        found: list[list[Row]] = [[] for _ in work]
        while todo or running:
            while todo and len(running) < 2 * width:  # a little queued work keeps workers busy
                index, plan_ref, part = todo.pop()
                ref = task.remote(plan_ref, part)
                owner[ref] = index
                running.append(ref)
            done, running = ray.wait(running, num_returns=1)
            for ref in done:
                part = ray.get(ref)
                found[owner.pop(ref)].extend(part)
                advance(len(part))
    return [sorted(rows, key=lambda row: row["seed"]) for rows in found]
