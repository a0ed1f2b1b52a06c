"""The opponent levels, measured: a round-robin of every level of every game, rated with openskill.

For each game (``--games``, default all), its levels (``GameInfo.levels``, weakest first) play:

- **tables**: all levels at one table, at the game's player count closest to the number of levels (4
  levels: 4 players), the line-up rotated one seat per game, so every game gives every pairing and
  each level sits in every seat equally often (``--n`` games);
- **pairs**: 2-player games of each level against the level below, seats alternating (``--pairs``
  games per pair; 0 skips them).

Games are seeded (game ``i`` of a kind: seed ``--seed + i``; bots' seeds follow as in
``candlebox simulate``). Each game's row is appended to ``--out`` (JSON lines) as soon as it ends, with
the line-up's level definitions, so a run stopped half-way resumes where it was (rows of a level whose
definition changed since are not reused). ``--report`` only reads the file.

Per level it prints the rating (openskill Plackett–Luce over the full finishing order of every game,
the tables and the pairs, as the game's standings give it; mu, sigma, ordinal mu − 3 sigma), its
share of wins at the tables, and the share of games it finished ahead of the level below (a tie counts
a half), at the tables and in the pairs, with Wilson 95% intervals; then whether the levels are strictly increasing: ratings in
ladder order (two levels the standings always tie, separated by their 2-player games), and every
level's "ahead of the level below" interval above one half (in its 2-player games, or at the tables
when it played none).

    nice -n 19 python bench/levels.py --jobs 2                 # 100 tables and 100 of each pair
    nice -n 19 python bench/levels.py --games candelabria --n 100 --pairs 0
    python bench/levels.py --report --markdown                 # the tables for docs/simulation.md

Time per decision depends on the machine's load: each row records the seconds each level spent per
decision (process CPU time, so another process's load does not count), and the report prints the mean.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from itertools import combinations, pairwise
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import candlebox
from candlebox import bots, sim
from candlebox.engine.levels import Level
from candlebox.sim.ratings import Rating, ranks, rate
from candlebox.sim.stats import Rate, wilson

OUT = Path("bench/results/levels.jsonl")


@dataclass(frozen=True)
class Job:
    game: str
    kind: str  # "table" or "pair"
    players: int
    levels: tuple[str, ...]  # the line-up before rotation, by level name
    seed: int
    index: int  # the game's number within its kind: the rotation


def spec(level: Level) -> dict[str, Any]:
    return {"level": level.name, "bot": level.bot, "params": dict(level.params)}


def specs_of(game: str) -> dict[str, dict[str, Any]]:
    return {level.name: spec(level) for level in candlebox.game_info(game).levels}


def table_players(game: str, levels: int) -> int:
    """The game's player count closest to ``levels`` (the larger one on a tie)."""
    info = candlebox.game_info(game)
    counts = sorted({n for v in info.variants for n in v.players})
    return min(counts, key=lambda n: (abs(n - levels), -n))


def jobs_for(game: str, tables: int, pairs: int, seed: int) -> list[Job]:
    names = tuple(level.name for level in candlebox.game_info(game).levels)
    players = table_players(game, len(names))
    if players >= len(names):  # every level, the weakest again in any extra seat
        lineups = [tuple(names[i % len(names)] for i in range(players))]
    else:  # more levels than seats: every choice of levels in turn
        lineups = list(combinations(names, players))
    out = [
        Job(game, "table", players, lineups[i % len(lineups)], seed + i, i) for i in range(tables)
    ]
    for lower, upper in pairwise(names):
        out += [Job(game, "pair", 2, (lower, upper), seed + i, i) for i in range(pairs)]
    return out


def ordered(per_game: list[list[Job]]) -> list[Job]:
    """Every game's jobs, cheapest kind first (pairs without a search bot, then the tables, then
    the other pairs), the games interleaved: a run stopped early has measured every game alike."""

    def searches(job: Job) -> bool:
        levels = {level.name: level for level in candlebox.game_info(job.game).levels}
        return any(levels[n].bot == "ismcts" for n in job.levels)

    def stage(job: Job) -> int:
        return 1 if job.kind == "table" else 2 if searches(job) else 0

    out: list[Job] = []
    for kind in range(3):
        lists = [[j for j in jobs if stage(j) == kind] for jobs in per_game]
        for rank in range(max((len(x) for x in lists), default=0)):
            out += [x[rank] for x in lists if rank < len(x)]
    return out


def play(job: Job) -> dict[str, Any]:
    """One game of the job: the row of ``candlebox.sim`` plus levels and time per decision."""
    levels = {level.name: level for level in candlebox.game_info(job.game).levels}
    shift = job.index % job.players
    lineup = [job.levels[(seat + shift) % job.players] for seat in range(job.players)]
    seats = tuple(sim.Seat(levels[n].bot, dict(levels[n].params), n) for n in lineup)
    plan = sim.Plan(job.game, job.players, None, {}, seats, 1, job.seed)
    state = sim.game.new_state(plan, job.seed)
    robots = [
        bots.make(s.name, seed=sim.bot_seed(job.seed, seat), **s.params)
        for seat, s in enumerate(seats)
    ]
    cpu = [0.0] * job.players
    decisions = [0] * job.players
    while not state.is_over:
        choices = []
        for seat in sorted(state.to_act):
            start = time.process_time()
            choices.append((seat, robots[seat].choose(state, seat)))
            cpu[seat] += time.process_time() - start
            decisions[seat] += 1
        for seat, action in choices:
            if seat in state.to_act:
                state.apply(seat, action)
    row = sim.game.row(seats, job.seed, state)
    place = {standing.seat: standing.rank for standing in state.standings().rows}
    row.update(kind=job.kind, index=job.index, cpu=cpu, decisions=decisions)
    row["ranks"] = [place[seat] for seat in range(job.players)]  # the game's own finishing order
    row["levels"] = [spec(levels[n]) for n in lineup]
    return row


def load(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    rows = []
    for line in path.read_text().splitlines():
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:  # a line cut short by an interrupted run
                continue
    return rows


def row_key(row: dict[str, Any]) -> str:
    return json.dumps([row["game"], row["kind"], row["players"], row["levels"], row["seed"]])


def job_key(job: Job, specs: dict[str, dict[str, Any]]) -> str:
    shift = job.index % job.players
    lineup = [job.levels[(seat + shift) % job.players] for seat in range(job.players)]
    return json.dumps([job.game, job.kind, job.players, [specs[n] for n in lineup], job.seed])


def current(rows: Iterable[dict[str, Any]], game: str) -> list[dict[str, Any]]:
    """The game's rows whose every level is as the game defines it now."""
    specs = specs_of(game)
    return [
        r
        for r in rows
        if r["game"] == game and all(specs.get(s["level"]) == s for s in r["levels"])
    ]


def run(jobs: list[Job], path: Path, workers: int) -> None:
    done = {row_key(r) for r in load(path)}
    specs = {job.game: specs_of(job.game) for job in jobs}
    todo = [job for job in jobs if job_key(job, specs[job.game]) not in done]
    print(f"{len(jobs) - len(todo)} games already in {path}, {len(todo)} to play", file=sys.stderr)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as out:

        def keep(row: dict[str, Any], count: int) -> None:
            out.write(json.dumps(row) + "\n")
            out.flush()
            print(f"  {count}/{len(todo)} {row['game']} {row['kind']}", file=sys.stderr)

        if workers <= 1:
            for count, job in enumerate(todo, 1):
                keep(play(job), count)
            return
        with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
            waiting: set[Future[dict[str, Any]]] = set()
            queue = list(reversed(todo))
            count = 0
            while queue or waiting:
                while queue and len(waiting) < 2 * workers:  # a few ahead, so Ctrl-C stops soon
                    waiting.add(pool.submit(play, queue.pop()))
                finished, waiting = wait(waiting, return_when=FIRST_COMPLETED)
                for future in finished:
                    count += 1
                    keep(future.result(), count)


# ----------------------------------------------------------------------------- the report
def ahead(rows: list[dict[str, Any]], upper: str, lower: str) -> Rate:
    """Games in which ``upper`` finished ahead of ``lower`` (a tie: a half), with its interval."""
    score, games = 0.0, 0
    for row in rows:
        names = [s["level"] for s in row["levels"]]
        if upper not in names or lower not in names:
            continue
        place = finish(row)
        mine = min(place[i] for i, n in enumerate(names) if n == upper)
        theirs = min(place[i] for i, n in enumerate(names) if n == lower)
        score += 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
        games += 1
    return wilson(score, games)


def finish(row: dict[str, Any]) -> list[int]:
    """Each seat's place (1 first, equal places shared): the game's standings (which break ties
    its scores leave, as Candle Quest's colours do), else the winners first and the rest by score."""
    if "ranks" in row:
        return list(row["ranks"])
    return [place + 1 for place in ranks(row)]


def wins(rows: list[dict[str, Any]], name: str) -> Rate:
    """The level's share of wins at the tables (a shared win: 1/k)."""
    total = 0.0
    for row in rows:
        names = [s["level"] for s in row["levels"]]
        winners = row["winners"]
        total += sum(1 / len(winners) for seat in winners if names[seat] == name)
    return wilson(total, len(rows))


def seconds_per_decision(rows: list[dict[str, Any]], name: str) -> float | None:
    cpu = decided = 0.0
    for row in rows:
        for seat, s in enumerate(row["levels"]):
            if s["level"] == name:
                cpu += row["cpu"][seat]
                decided += row["decisions"][seat]
    return cpu / decided if decided else None


def ratings_of(rows: list[dict[str, Any]]) -> tuple[str, list[Rating]] | None:
    """The levels rated over every game played, the tables and the 2-player games alike (None
    without a rating package).

    At a table of four, a game whose standings rank only the winner (16 Candies' losers share a
    place) cannot tell apart two levels that never win there (Beginner and Easy rated exactly alike
    on the tables alone), while their games against each other can. Each level plays as many
    2-player games as it has neighbours (100 each by default), so no level's rating is moved by far
    more games than another's."""
    return rate([{**r, "bots": _names(r)} for r in rows], finish)


def report(path: Path, games: list[str], markdown: bool) -> bool:
    """Print each game's table; True when every game's levels are strictly increasing."""
    everything = load(path)
    increasing = True
    for game in games:
        rows = current(everything, game)
        info = candlebox.game_info(game)
        names = [level.name for level in info.levels]
        tables = [r for r in rows if r["kind"] == "table"]
        pairs = [r for r in rows if r["kind"] == "pair"]
        rated = ratings_of(rows)
        ratings = {r.bot: r for r in rated[1]} if rated else {}
        players = tables[0]["players"] if tables else table_players(game, len(names))
        print(
            f"\n{info.title}: {len(tables)} tables of {players}, "
            f"{len(pairs)} 2-player games; {rated[0] if rated else 'no rating package'}"
        )
        head = (
            "| level | bot | rating mu | sigma | ordinal | wins at the tables "
            "| ahead of the level below, tables | ahead of it, 2 players | CPU s/decision |"
        )
        print(head if markdown else head.replace("|", " ").strip())
        if markdown:
            print("|" + "---|" * 9)
        ok = True
        previous: str | None = None
        for level in info.levels:
            found = ratings.get(level.name)
            tabled = ahead(tables, level.name, previous) if previous else None
            paired = (
                ahead([r for r in pairs if level.name in _names(r)], level.name, previous)
                if previous
                else None
            )
            spent = seconds_per_decision(rows, level.name)
            bot = ":".join([level.bot, *(f"{k}={v}" for k, v in level.params.items())])
            cells = [
                level.name,
                f"`{bot}`" if markdown else bot,
                f"{found.mu:.2f}" if found else "—",
                f"{found.sigma:.2f}" if found else "—",
                f"{found.ordinal:.2f}" if found else "—",
                f"{_text(wins(tables, level.name))}",
                _text(tabled) if tabled else "—",
                _text(paired) if paired else "—",
                f"{spent:.3f}" if spent is not None else "—",
            ]
            print("| " + " | ".join(cells) + " |" if markdown else "  ".join(cells))
            if previous is not None:
                below = ratings.get(previous)
                tied = found is not None and below is not None and abs(found.mu - below.mu) < 1e-9
                if found is None or below is None or (found.mu < below.mu and not tied):
                    ok = False
                if tied and (paired is None or not paired.games or paired.low <= 0.5):
                    ok = False  # a tie at the tables, not separated by 2-player games
                # the 2-player games when there are some (a 4-player table's losers often tie)
                shown = paired if paired is not None and paired.games else tabled
                if shown is None or not shown.games or shown.low <= 0.5:
                    ok = False
            previous = level.name
        print(f"strictly increasing: {'yes' if ok else 'NO'}")
        increasing = increasing and ok
    return increasing


def _names(row: dict[str, Any]) -> list[str]:
    return [s["level"] for s in row["levels"]]


def _text(found: Rate) -> str:
    if not found.games:
        return "—"
    return f"{found.rate:.1%} [{found.low:.1%}, {found.high:.1%}] of {found.games}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", default=",".join(candlebox.game_ids()), help="game ids, a,b")
    parser.add_argument("--n", type=int, default=100, help="tables of every level per game")
    parser.add_argument("--pairs", type=int, default=100, help="2-player games per adjacent pair")
    parser.add_argument("--seed", type=int, default=50_000)
    parser.add_argument("--jobs", type=int, default=2, help="processes")
    parser.add_argument("--out", type=Path, default=OUT, help="the results file (JSON lines)")
    parser.add_argument("--report", action="store_true", help="only print the report")
    parser.add_argument("--markdown", action="store_true", help="the report as Markdown tables")
    args = parser.parse_args()
    games = args.games.split(",")
    if not args.report:
        print(f"load average before: {os.getloadavg()}", file=sys.stderr)
        jobs = ordered([jobs_for(game, args.n, args.pairs, args.seed) for game in games])
        run(jobs, args.out, args.jobs)
        print(f"load average after: {os.getloadavg()}", file=sys.stderr)
    report(args.out, games, args.markdown)


if __name__ == "__main__":
    main()
