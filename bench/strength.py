"""Bot strength at real settings (issue 16): resumable tournaments, one results file per table row.

Four kinds of row, for every game of ``candlebox.game_ids()`` (or ``--games``), default variant:

- ``largest``: the game's largest player count, one ISMCTS seat against the heuristic in every other;
- ``cross``: 2 players, ISMCTS with the game's search hooks against ISMCTS with the generic ones
  (``hooks=generic``), the same budget: an opponent the hooks were not tuned for (a game without
  hooks has no cross-check: both bots would be the same);
- ``two``: 2 players, ISMCTS against the heuristic;
- ``rollouts``: 2 players, ISMCTS against ISMCTS with random rollouts (``rollout=random``), each at
  its own 1 s iteration count: a search that consults neither the heuristic nor the game's hooks, so
  it cross-checks even a game whose hooks change nothing at 2 players (Candle Quest's ``cross`` row
  is a mirror match: its one hook, ``evaluate``, scores rollouts cut at 400 steps, which no 2-player
  game reaches).

ISMCTS gets the iteration count that takes 1 s of CPU on an idle core at that game and player count
(``--budget`` measures it into bench/results/strength/budget.json; ``--budget --rollout random``
the random-rollout searcher's), so games run in parallel without
sharing a clock. The line-up rotates one seat every game. Game ``i`` of a row has seed ``base + i``
(bases below); its bots are seeded from it as ``candlebox simulate`` seeds them.

Each row is a JSON-lines file under bench/results/strength/ (``<kind>-<game>-<players>p.jsonl``): one
line per finished game (seed, line-up, winners, finishing order, scores, and for each ISMCTS seat its
decisions with a choice, their CPU seconds and iterations). A run skips the seeds already in the file,
so any number of sessions add games; ``--until`` stops it starting games after a time (those under
way finish), and SIGINT/SIGTERM stop it at once (the games under way are lost, the file stays whole).

    python bench/strength.py --budget                       # measure the 1 s iteration counts
    python bench/strength.py --budget --players 2 --rollout random
    nice -n 19 python bench/strength.py --rows largest,cross,two,rollouts --jobs 2 --until 08:45
    python bench/strength.py --report                       # the tables, from the files

The targets (games per row) are the issue's: bench/results/strength/targets.json.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import signal
import sys
import time
from dataclasses import asdict, dataclass
from multiprocessing import get_context
from multiprocessing.pool import AsyncResult
from pathlib import Path
from typing import Any

import candlebox
from candlebox import bots, sim

RESULTS = Path(__file__).resolve().parent / "results" / "strength"
BUDGET = RESULTS / "budget.json"
TARGETS = RESULTS / "targets.json"
KINDS = ("largest", "cross", "two", "rollouts")
SEED_BASE = {"largest": 500_000, "cross": 600_000, "two": 700_000, "rollouts": 800_000}
RANDOM_ROLLOUTS = {"rollout": "random"}  # the ``rollouts`` rows' opponent, beside its iterations


# ----------------------------------------------------------------------------- the rows
@dataclass(frozen=True)
class Row:
    """One row of a table: a game, a player count, a line-up (seat 0's bot is the one measured)."""

    kind: str
    game: str
    variant: str
    players: int
    seats: tuple[sim.Seat, ...]
    target: int
    base: int

    @property
    def path(self) -> Path:
        return RESULTS / f"{self.kind}-{self.game}-{self.players}p.jsonl"

    def plan(self, games: int) -> sim.Plan:
        return sim.Plan(
            self.game, self.players, self.variant, {}, self.seats, games, self.base, True
        )


def player_counts(game: str) -> list[int]:
    info = candlebox.game_info(game)
    return [p for p in range(1, 13) if p in info.variant(info.default_variant(p)).players]


def has_hooks(game: str) -> bool:
    """Whether the game gives the search anything beyond the fast copies of its heuristic."""
    hooks = candlebox.game_info(game).search_hooks()
    return any(
        getattr(hooks, name) is not None
        for name in ("policy", "evaluate", "horizon", "observe", "plausibility", "orient")
    ) or bool(hooks.defaults)


def ismcts(iterations: int, **more: Any) -> sim.Seat:
    params = {"iterations": iterations, **more}
    return sim.Seat(
        "ismcts", params, ":".join(["ismcts", *(f"{k}={v}" for k, v in params.items())])
    )


def load_json(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text()) if path.exists() else {}


def played(path: Path) -> list[dict[str, Any]]:
    """The finished games of a row (a line cut short by a crash is skipped)."""
    if not path.exists():
        return []
    lines = []
    for text in path.read_text().splitlines():
        try:
            lines.append(json.loads(text))
        except json.JSONDecodeError:
            continue
    return lines


def budget_key(players: int, params: dict[str, Any]) -> str:
    """budget.json's key of a searcher: the player count, then any parameter that changes its cost
    ("2", "2:rollout=random")."""
    return ":".join([str(players), *(f"{k}={v}" for k, v in params.items())])


def budget_of(game: str, players: int, path: Path, **params: Any) -> int:
    """The iteration count of the searcher with these parameters: the one the row's file already
    played (a row never mixes budgets), else the measured 1 s count."""
    suffix = "".join(f":{k}={v}" for k, v in params.items())
    for line in played(path)[:1]:
        for tally in line["ismcts"]:
            shown = tally["bot"]
            if shown.endswith(suffix) if suffix else ":rollout=" not in shown:
                return int(tally["iterations_per_decision_budget"])
    key = budget_key(players, params)
    measured = load_json(BUDGET).get("games", {}).get(game, {}).get(key)
    if not measured:
        more = "".join(f" --{k} {v}" for k, v in params.items())
        sys.exit(
            f"no 1 s budget measured for {game} at {key}: run --budget --players {players}{more}"
        )
    return int(measured["iterations"])


def rows_for(game: str, kinds: list[str]) -> list[Row]:
    info = candlebox.game_info(game)
    targets = load_json(TARGETS)
    found = []
    for kind in kinds:
        players = max(player_counts(game)) if kind == "largest" else 2
        if players not in player_counts(game) or (kind == "cross" and not has_hooks(game)):
            continue
        variant = str(info.default_variant(players))
        path = RESULTS / f"{kind}-{game}-{players}p.jsonl"
        budget = budget_of(game, players, path)
        if kind == "largest":
            seats = (ismcts(budget),) + (sim.Seat("heuristic"),) * (players - 1)
        elif kind == "cross":
            seats = (ismcts(budget), ismcts(budget, hooks="generic"))
        elif kind == "rollouts":
            other = budget_of(game, players, path, **RANDOM_ROLLOUTS)
            seats = (ismcts(budget), ismcts(other, **RANDOM_ROLLOUTS))
        else:
            seats = (ismcts(budget), sim.Seat("heuristic"))
        target = targets.get(kind, 40)
        if isinstance(target, dict):
            target = target.get(game, target.get("default", 40))
        found.append(Row(kind, game, variant, players, seats, int(target), SEED_BASE[kind]))
    return found


# ----------------------------------------------------------------------------- one game
def finishing_order(state: candlebox.State) -> list[int]:
    """Seats best first: the winners, then by score (ties keep seat order)."""
    winners = set(state.winners)
    scores = list(state.scores) or [0.0] * state.num_players
    return sorted(range(state.num_players), key=lambda s: (s not in winners, -float(scores[s])))


def play_one(row: Row, seed: int) -> dict[str, Any]:
    """Game ``seed`` of the row, as ``candlebox.sim.play`` plays it, with the ISMCTS seats' CPU time."""
    start_cpu, start_wall = time.process_time(), time.perf_counter()
    plan = row.plan(1)
    state = sim.game.new_state(plan, seed)
    lineup = plan.lineup(seed)
    robots = [
        bots.make(spec.name, seed=sim.bot_seed(seed, seat), **spec.params)
        for seat, spec in enumerate(lineup)
    ]
    searched: dict[int, dict[str, Any]] = {
        seat: {"seat": seat, "bot": spec.shown, "decisions": 0, "cpu_seconds": 0.0, "iterations": 0}
        for seat, spec in enumerate(lineup)
        if spec.name == "ismcts"
    }
    while not state.is_over:
        choices = []
        for seat in sorted(state.to_act):
            before = time.process_time()
            choices.append((seat, robots[seat].choose(state, seat)))
            if seat in searched and robots[seat].last.get("iterations"):  # type: ignore[attr-defined]
                tally = searched[seat]
                tally["decisions"] += 1
                tally["cpu_seconds"] += time.process_time() - before
                tally["iterations"] += int(robots[seat].last["iterations"])  # type: ignore[attr-defined]
        for seat, action in choices:
            if seat in state.to_act:
                state.apply(seat, action)
    for seat, tally in searched.items():
        tally["iterations_per_decision_budget"] = lineup[seat].params["iterations"]
    return {
        "seed": seed,
        "game": state.game_id,
        "variant": state.variant,
        "players": state.num_players,
        "bots": [spec.shown for spec in lineup],
        "winners": sorted(state.winners),
        "order": finishing_order(state),
        "scores": [float(score) for score in state.scores],
        "steps": len(state.history),
        "truncated": bool(state.truncated),
        "ismcts": list(searched.values()),
        "cpu_seconds": time.process_time() - start_cpu,
        "wall_seconds": time.perf_counter() - start_wall,
    }


# ----------------------------------------------------------------------------- running
class Stop(Exception):
    pass


def _stop(signum: int, frame: Any) -> None:
    raise Stop(signal.Signals(signum).name)


def _worker_init() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop


def run(rows: list[Row], jobs: int, until: float | None) -> None:
    """Every row's missing games, in the rows' order, ``jobs`` at a time; a line per finished game."""
    waiting: dict[str, list[list[tuple[Row, int]]]] = {}
    for row in rows:
        done = {line["seed"] for line in played(row.path)}
        missing = [s for s in row.plan(row.target).seeds if s not in done]
        print(f"{row.path.name}: {len(done)} played, {len(missing)} to go", flush=True)
        waiting.setdefault(row.kind, []).append([(row, seed) for seed in missing])
    # Kind by kind in the order given; within a kind the games take turns, so a run cut short has
    # measured every game of its first kind a little rather than one game fully.
    queue: list[tuple[Row, int]] = []
    for lists in waiting.values():
        longest = max(len(games) for games in lists)
        queue.extend(games[i] for i in range(longest) for games in lists if i < len(games))
    if not queue:
        return
    RESULTS.mkdir(parents=True, exist_ok=True)
    signal.signal(signal.SIGTERM, _stop)
    pool = get_context("spawn").Pool(max(1, jobs), initializer=_worker_init)
    running: list[tuple[Row, AsyncResult[dict[str, Any]]]] = []
    try:
        while queue or running:
            while queue and len(running) < jobs and (until is None or time.time() < until):
                row, seed = queue.pop(0)
                running.append((row, pool.apply_async(play_one, (row, seed))))
            if not running:
                print("deadline reached: no more games started", flush=True)
                break
            for row, result in [item for item in running if item[1].ready()]:
                running.remove((row, result))
                line = result.get()
                with row.path.open("a") as handle:
                    handle.write(json.dumps(line) + "\n")
                print(
                    f"{row.path.name} seed {line['seed']}: winners {line['winners']} of "
                    f"{line['bots']} ({line['cpu_seconds']:.0f} CPU s, {time.strftime('%H:%M:%S')})",
                    flush=True,
                )
            if until is not None and time.time() >= until and queue:
                queue.clear()
                print("deadline reached: finishing the games under way", flush=True)
            time.sleep(0.5)
    except (Stop, KeyboardInterrupt):
        print("stopped: the games under way are dropped", flush=True)
        pool.terminate()
    else:
        pool.close()
    pool.join()


# ----------------------------------------------------------------------------- the 1 s budget
def positions(
    game: str, players: int, games: int = 3, per_game: int = 8
) -> list[tuple[candlebox.State, int]]:
    """Fixed decisions from real games: heuristic self-play (seeds 0, 1, ...), ``per_game`` decisions
    with a choice spread evenly over each whole game (a decision's cost falls as the game nears its
    end, so a row's mean needs the whole game)."""
    found: list[tuple[candlebox.State, int]] = []
    for seed in range(games):
        state = candlebox.new_game(game, players=players, seed=seed)
        robots = [bots.make("heuristic", seed=sim.bot_seed(seed, s)) for s in range(players)]
        decisions = []
        while not state.is_over:
            choices = []
            for seat in sorted(state.to_act):
                if len(state.legal_actions(seat)) > 1:
                    decisions.append((state.clone(), seat))
                choices.append((seat, robots[seat].choose(state, seat)))
            for seat, action in choices:
                if seat in state.to_act:
                    state.apply(seat, action)
        step = len(decisions) / per_game
        found.extend(decisions[int(i * step)] for i in range(min(per_game, len(decisions))))
    return found


def iterations_per_cpu_second(game: str, players: int, cpu: float, **params: Any) -> dict[str, Any]:
    """ISMCTS iterations per CPU-second of this process over the fixed decisions, at the count that
    fills 1 CPU-second a decision: a pilot at 50 iterations, then ``rounds`` measurements, each at the
    count the one before found (a search's cost per iteration changes with its size, so the rate
    must be measured near the budget itself). ``params``: the searcher's other parameters."""
    fixed = positions(game, players, per_game=4)

    def rate_at(iterations: int) -> tuple[float, float]:
        spent = 0.0
        for index, (state, seat) in enumerate(fixed):
            bot = bots.make("ismcts", seed=index, iterations=iterations, **params)
            begin = time.process_time()
            bot.choose(state, seat)
            spent += time.process_time() - begin
        return iterations * len(fixed) / spent, spent

    rate, spent = rate_at(50)
    history = [round(rate, 1)]
    for _ in range(2):
        iterations = max(10, round(rate * cpu))
        rate, spent = rate_at(iterations)
        history.append(round(rate, 1))
    significant = 10 ** max(0, len(str(round(rate))) - 2)  # two significant figures
    return {
        "iterations": max(1, round(rate * cpu / significant) * significant),
        "iterations_per_cpu_second": round(rate, 1),
        "rates_measured": history,
        "decisions": len(fixed),
        "iterations_per_decision_measured": iterations,
        "cpu_seconds": round(spent, 2),
    }


def measure_budget(
    games: list[str], cpu: float, only: set[int] | None = None, **params: Any
) -> None:
    """The 1 s counts of these games (at 2 players and the largest count, or only the counts in
    ``only``) for ISMCTS with ``params`` (none: the game's defaults), each written as soon as
    measured (several processes may measure different games at once: the file is re-read before
    each write)."""
    for game in games:
        counts = {2, max(player_counts(game))} & set(player_counts(game))
        for players in sorted(counts if only is None else counts & only):
            load = os.getloadavg()[0]
            result = iterations_per_cpu_second(game, players, cpu, **params)
            result["load_average"] = round(load, 2)
            result["measured"] = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
            found = load_json(BUDGET)
            key = budget_key(players, params)
            found.setdefault("games", {}).setdefault(game, {})[key] = result
            found["how"] = (
                "ISMCTS (the game's default parameters, or those after the player count in "
                "the key) iterations per CPU-second (time.process_time "
                "of the deciding process) over fixed decisions: heuristic self-play games, seeds "
                "0-2, 4 decisions with a choice spread evenly over each game; measured at 50 "
                "iterations, then twice at the count the measurement before said fills 1 s; the "
                "last rate, rounded to two significant figures, is the budget"
            )
            RESULTS.mkdir(parents=True, exist_ok=True)
            BUDGET.write_text(json.dumps(found, indent=2) + "\n")
            print(f"{game} {key}: {result}", flush=True)


# ----------------------------------------------------------------------------- the report
@dataclass(frozen=True)
class Summary:
    row: str
    games: int
    target: int
    measured: str  # seat 0's win share (2 players) or the ISMCTS seat's (largest count)
    low: float
    others: str  # the other seat kind's share per seat
    verdict: str
    cpu_per_decision: float
    iterations: int
    cpu_hours_missing: float | None


# The rows that ask whether the game's search beats another search, and what that search is called.
CROSS_CHECKS = {"cross": "generic search", "rollouts": "random-rollout search"}


def estimated_cpu_hours(row: Row) -> float:
    """For a row with no games yet: its ISMCTS seats' decisions with a choice in 2 heuristic games
    (seeds 0, 1) at 1 CPU-second each, times the target (the heuristic's own time is left out)."""
    searched = sum(spec.name == "ismcts" for spec in row.seats)
    decisions = 0
    for seed in range(2):
        state = candlebox.new_game(row.game, players=row.players, variant=row.variant, seed=seed)
        robots = [bots.make("heuristic", seed=s) for s in range(row.players)]
        while not state.is_over:
            choices = []
            for seat in sorted(state.to_act):
                decisions += len(state.legal_actions(seat)) > 1
                choices.append((seat, robots[seat].choose(state, seat)))
            for seat, action in choices:
                if seat in state.to_act:
                    state.apply(seat, action)
    return decisions / 2 / row.players * searched * row.target / 3600


def summarise(row: Row) -> Summary | None:
    lines = played(row.path)
    if not lines:
        return None
    games = len(lines)
    ours = row.seats[0].shown
    wins = sum(sim.stats.share(line, line["bots"].index(ours)) for line in lines)
    rate = sim.stats.wilson(wins, games)
    # Every other seat's share, per seat: the others are the same bot in seats that rotate, so each
    # holds (1 - ISMCTS's share) / (players - 1), and its interval follows from ISMCTS's.
    spread = row.players - 1
    rest = sim.stats.Rate(
        (games - wins) / spread, games, (1 - rate.high) / spread, (1 - rate.low) / spread
    )
    searched = [t for line in lines for t in line["ismcts"] if t["bot"] == ours]
    decisions = sum(t["decisions"] for t in searched)
    cpu = sum(t["cpu_seconds"] for t in searched)
    per_game = sum(line["cpu_seconds"] for line in lines) / games
    if row.kind == "largest":
        # ISMCTS beats each other seat exactly when its share beats the even share 1/players.
        even = 1 / row.players
        if rate.low > even:
            verdict = "best seat: shown"
        elif rate.rate > even:
            verdict = "best seat: point estimate only"
        elif rate.high < even:
            verdict = "not the best seat: shown"
        else:
            verdict = "not the best seat: point estimate only"
    elif row.kind in CROSS_CHECKS:
        # The question is whether the game's tuning holds against a search it was not made against:
        # whether the game's search wins more than half, not the heuristic rows' 65%.
        other = CROSS_CHECKS[row.kind]
        if rate.low > 0.5:
            verdict = f"ahead of the {other}: shown"
        elif rate.rate > 0.5:
            verdict = f"ahead of the {other}: point estimate only"
        elif rate.high < 0.5:
            verdict = f"behind the {other}: shown"
        else:
            verdict = f"not ahead of the {other} (within the interval of even)"
    else:
        verdict = "low end >= 65%" if rate.low >= 0.65 else "low end < 65%"
    if games < row.target:
        verdict += f" (short of the target by {row.target - games} games)"
    return Summary(
        row=f"{row.kind} {row.game} {row.players}p ({row.seats[0].shown} vs {row.seats[1].shown})",
        games=games,
        target=row.target,
        measured=rate.text(),
        low=rate.low,
        others=rest.text(),
        verdict=verdict,
        cpu_per_decision=cpu / decisions if decisions else 0.0,
        iterations=row.seats[0].params["iterations"],
        # CPU of every process playing the missing games (each game on one core).
        cpu_hours_missing=max(0, row.target - games) * per_game / 3600,
    )


def report(rows: list[Row], style: str = "text") -> None:
    """The tables: ``text`` (a paragraph a row), ``markdown`` (docs/simulation.md's table) or ``json``."""
    if style == "markdown":
        print(
            "| row | games (target) | ISMCTS's share, 95% interval | each other seat's | verdict "
            "| CPU s a decision (iterations) | CPU-hours to the target |"
        )
        print("|---|---|---|---|---|---|---|")
    for row in rows:
        summary = summarise(row)
        if style == "json":
            print(json.dumps(asdict(summary) if summary else {"row": row.path.stem, "games": 0}))
        elif style == "markdown":
            name = f"{row.kind} {row.game} {row.players}p: {row.seats[0].shown} vs {row.seats[1].shown}"
            if summary is None:
                hours = estimated_cpu_hours(row)
                print(f"| {name} | 0 ({row.target}) | — | — | — | — | ≈ {hours:.1f} (estimate) |")
                continue
            print(
                f"| {name} | {summary.games} ({summary.target}) | {summary.measured} | "
                f"{summary.others} | {summary.verdict} | {summary.cpu_per_decision:.2f} "
                f"({summary.iterations}) | {summary.cpu_hours_missing:.1f} |"
            )
        elif summary is None:
            print(
                f"{row.kind} {row.game} {row.players}p: no games yet (target {row.target}); "
                f"about {estimated_cpu_hours(row):.1f} CPU-hours to play"
            )
        else:
            other = "each heuristic seat" if row.kind == "largest" else "the other"
            print(
                f"{summary.row}\n  games {summary.games}/{summary.target}; ISMCTS "
                f"{summary.measured}, {other} {summary.others} (even {1 / row.players:.1%}); "
                f"{summary.verdict}; {summary.cpu_per_decision:.2f} CPU s a decision "
                f"({summary.iterations} iterations); still to play: "
                f"{summary.cpu_hours_missing:.1f} CPU-hours"
            )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--games", default="", help="game ids, comma-separated (default: every game)"
    )
    parser.add_argument("--rows", default=",".join(KINDS), help="row kinds: largest,cross,two")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--until", help="start no game after this UTC time (HH:MM)")
    parser.add_argument("--budget", action="store_true", help="measure the 1 s iteration counts")
    parser.add_argument("--cpu", type=float, default=1.0, help="CPU seconds a decision (budget)")
    parser.add_argument(
        "--players", default="", help="player counts to measure (budget; default: 2 and largest)"
    )
    parser.add_argument(
        "--rollout",
        choices=("auto", "random"),
        default="auto",
        help="the searcher to measure (budget): the game's (auto) or random rollouts",
    )
    parser.add_argument("--report", action="store_true", help="print the tables from the files")
    parser.add_argument(
        "--style", choices=("text", "markdown", "json"), default="text", help="of --report"
    )
    args = parser.parse_args()
    games = [g for g in args.games.split(",") if g] or list(candlebox.game_ids())
    if args.budget:
        only = {int(p) for p in args.players.split(",") if p} or None
        params = {} if args.rollout == "auto" else {"rollout": args.rollout}
        measure_budget(games, args.cpu, only, **params)
        return
    kinds = [k for k in args.rows.split(",") if k]
    if unknown := set(kinds) - set(KINDS):
        sys.exit(f"unknown row kinds {sorted(unknown)}: choose from {', '.join(KINDS)}")
    # Priority: every game's rows of the first kind, then the next kind's.
    rows = [row for kind in kinds for game in games for row in rows_for(game, [kind])]
    if args.report:
        report(rows, args.style)
        return
    until = None
    if args.until:
        now = dt.datetime.now(dt.UTC)
        hour, minute = (int(part) for part in args.until.split(":"))
        moment = now.replace(hour=hour, minute=minute, second=0, microsecond=0)
        until = (moment if moment > now else moment + dt.timedelta(days=1)).timestamp()
    print(f"load average before: {os.getloadavg()}", flush=True)
    run(rows, args.jobs, until)
    print(f"load average after: {os.getloadavg()}", flush=True)


if __name__ == "__main__":
    main()
