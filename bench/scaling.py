"""Throughput of ``candlebox simulate`` against the number of workers: local processes and Ray.

The same plan (default: 2-player Candle Quest, the heuristic against a light ISMCTS bot, 120 games)
is played on 1, 2, ... local processes (``candlebox.sim.run_local``) and on a local Ray cluster of
1, 2, ... CPUs (``candlebox.sim.run_ray``), and every run is checked to give the same rows. Games/s is
measured after the pool or cluster has started (its start-up time is printed apart).

    python bench/scaling.py                       # workers 1,2,3,4; needs the ray extra for Ray rows
    python bench/scaling.py --workers 1,2 --n 60 --no-ray

On a machine with C cores, throughput can only grow up to C workers; beyond, the extra workers share
the cores. Other work on the machine lowers the figures: the load average is printed before and after.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

from candlebox import sim
from candlebox.cli.config import parse_bot


def plan_of(game: str, bots: str, n: int, options: dict[str, Any]) -> sim.Plan:
    seats = []
    for text in bots.split(","):
        spec = parse_bot(text)
        seats.append(sim.Seat(spec.name, spec.params, spec.label))
    return sim.Plan(game, len(seats), None, options, tuple(seats), n, seed=0, rotate=True)


def timed(run: Any) -> tuple[float, list[dict[str, Any]]]:
    start = time.perf_counter()
    rows = run()
    return time.perf_counter() - start, rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="candle-quest")
    parser.add_argument("--bots", default="heuristic,ismcts:iterations=10")
    parser.add_argument("--n", type=int, default=120, help="games per run")
    parser.add_argument("--workers", default="1,2,3,4")
    parser.add_argument("--no-ray", action="store_true", help="local processes only")
    args = parser.parse_args()
    plan = plan_of(args.game, args.bots, args.n, {})
    counts = [int(w) for w in args.workers.split(",")]
    print(f"cores: {os.cpu_count()}, load average before: {os.getloadavg()}", flush=True)
    print(f"plan: {args.game}, {args.bots}, {args.n} games", flush=True)
    reference: list[dict[str, Any]] | None = None
    for workers in counts:
        seconds, rows = timed(lambda w=workers: sim.run_local(plan, jobs=w))
        reference = reference or rows
        same = "same rows" if rows == reference else "ROWS DIFFER"
        print(
            f"local processes {workers}: {args.n / seconds:7.2f} games/s "
            f"({seconds:6.1f} s, pool start-up included; {same})",
            flush=True,
        )
    if args.no_ray:
        return
    try:
        sim.run.import_ray()
    except sim.RayMissing as exc:
        print(f"SKIPPED Ray: {exc}")
        return
    for workers in counts:
        start = time.perf_counter()
        with sim.run.ray_session("auto", workers=workers) as ray:
            # A first small run warms the workers up (imports), so the timing is of the games.
            sim.run_ray(plan_of(args.game, args.bots, workers, {}), "auto")
            up = time.perf_counter() - start
            seconds, rows = timed(lambda: sim.run_ray(plan, "auto"))
            cpus = int(ray.cluster_resources().get("CPU", 0))
        same = "same rows" if rows == reference else "ROWS DIFFER"
        print(
            f"Ray, {cpus} CPUs:       {args.n / seconds:7.2f} games/s "
            f"({seconds:6.1f} s; cluster start-up and warm-up {up:.1f} s; {same})",
            flush=True,
        )
    print(f"load average after: {os.getloadavg()}", flush=True)


if __name__ == "__main__":
    main()
