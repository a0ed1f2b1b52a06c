"""Simulation at scale: N seeded bot-only games on local processes or a Ray cluster, a results table
(one row per game), and a balance report.

    >>> from pathlib import Path
    >>> from candlebox import sim
    >>> bots = (sim.Seat("heuristic"), sim.Seat("random"))
    >>> plan = sim.Plan("candle-quest", 2, None, {"max_turns": 60}, bots, 4)  # 4 games
    >>> rows = sim.run_local(plan, jobs=1)  # jobs=J: J local processes
    >>> len(rows), sorted(rows[0])[:3]
    (4, ['actions', 'bots', 'end_reason'])
    >>> sim.write(rows, Path("results.csv"))
    >>> sim.build_report(rows, Path("report"), ["results.csv"], plots=False).name  # plots: PNGs
    'index.html'

Game ``i`` of a plan uses seed ``plan.seed + i`` and its bots' seeds follow from it, so the rows are the
same however the games are run (one process, J processes, Ray). See docs/simulation.md.
"""

from candlebox.sim import cards, compare, evaluate, experiment, summary
from candlebox.sim.game import Plan, Seat, action_kind, bot_seed, play
from candlebox.sim.report import build as build_report
from candlebox.sim.run import RayMissing, run_local, run_ray
from candlebox.sim.table import COLUMNS, TableError, read, write

__all__ = [
    "COLUMNS",
    "Plan",
    "RayMissing",
    "Seat",
    "TableError",
    "action_kind",
    "bot_seed",
    "build_report",
    "cards",
    "compare",
    "evaluate",
    "experiment",
    "play",
    "read",
    "run_local",
    "run_ray",
    "summary",
    "write",
]
