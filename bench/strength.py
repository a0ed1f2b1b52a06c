"""Bot strength, measured: win rates with 95% intervals, and the ISMCTS bot's decisions per second.

For every game in ``candlebox.GAMES`` (or ``--games``), 2 players (or the fewest the game allows:
the first bot against that many copies of the second), default variant, two match-ups: ISMCTS against
the heuristic bot and the heuristic bot against random. The line-up rotates from game to game
(``--rotate``), so no bot keeps the first seat. An even share is 1/players. Games are seeded (game ``i``:
seed ``--seed + i``) and run on ``--jobs`` processes; results do not depend on ``--jobs``.

    python bench/strength.py                                  # 200 games a match-up, 200 iterations
    python bench/strength.py --n 100 --seconds 1              # the issue's 1 s per decision
    python bench/strength.py --games candle-quest --ismcts "iterations=400,c=0.5"

The time per decision depends on the machine and its load: the script prints the load average and the
measured seconds per decision (mean over the ISMCTS bot's decisions that had more than one legal action).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import candlebox
from candlebox import bots, sim
from candlebox.cli.config import number_or_text


@dataclass
class Timed:
    row: dict[str, Any]
    decisions: int  # ISMCTS decisions with a real choice
    seconds: float  # spent in those decisions
    iterations: int


def play_timed(plan: sim.Plan, seed: int) -> Timed:
    """One game as ``candlebox.sim.play`` plays it, timing the ISMCTS bot's decisions."""
    state = sim.game.new_state(plan, seed)
    lineup = plan.lineup(seed)
    robots = [
        bots.make(spec.name, seed=sim.bot_seed(seed, seat), **spec.params)
        for seat, spec in enumerate(lineup)
    ]
    decisions = iterations = 0
    seconds = 0.0
    while not state.is_over:
        choices = []
        for seat in sorted(state.to_act):
            robot = robots[seat]
            choices.append((seat, robot.choose(state, seat)))
            last = getattr(robot, "last", None)
            if last and last.get("iterations"):
                decisions += 1
                seconds += last["seconds"]
                iterations += int(last["iterations"])
        for seat, action in choices:
            if seat in state.to_act:
                state.apply(seat, action)
    return Timed(sim.game.row(lineup, seed, state), decisions, seconds, iterations)


def play_many(plan: sim.Plan, seeds: list[int]) -> list[Timed]:
    return [play_timed(plan, seed) for seed in seeds]


def parse_params(text: str) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for pair in filter(None, (p.strip() for p in text.split(","))):
        key, _, value = pair.partition("=")
        params[key.strip()] = number_or_text(value.strip())
    return params


def label(name: str, params: dict[str, Any]) -> str:
    return ":".join([name, *(f"{k}={v}" for k, v in params.items())])


def seats_for(game: str) -> int:
    """2 players, or the fewest the game's default variant allows (Candelabria: 3)."""
    info = candlebox.game_info(game)
    return next(p for p in range(2, 9) if p in info.variant(info.default_variant(p)).players)


def measure(
    game: str, first: sim.Seat, second: sim.Seat, n: int, seed: int, jobs: int
) -> dict[str, Any]:
    """``first`` in one seat against ``second`` in every other seat, the line-up rotated."""
    players = seats_for(game)
    plan = sim.Plan(game, players, None, {}, (first,) + (second,) * (players - 1), n, seed, True)
    start = time.perf_counter()
    timed: list[Timed] = []
    parts = sim.run.chunks(plan.seeds, jobs, per_worker=4)
    if jobs <= 1:
        for part in parts:
            timed.extend(play_many(plan, part))
            print(f"  {len(timed)}/{n}", end="\r", file=sys.stderr, flush=True)
    else:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn")) as pool:
            for done in pool.map(play_many, [plan] * len(parts), parts):
                timed.extend(done)
                print(f"  {len(timed)}/{n}", end="\r", file=sys.stderr, flush=True)
    wall = time.perf_counter() - start
    rows = [t.row for t in timed]
    rates = sim.stats.by_bot(rows)
    rate = rates[first.shown]
    if players > 2:  # the first bot's rate per game (it sits in one seat of each)
        rate = sim.stats.wilson(rate.wins, n)
    decisions = sum(t.decisions for t in timed)
    seconds = sum(t.seconds for t in timed)
    iterations = sum(t.iterations for t in timed)
    result = {
        "game": game,
        "variant": rows[0]["variant"],
        "bot": first.shown,
        "against": second.shown,
        "players": players,
        "even_share": 1 / players,
        "games": n,
        "wins": rate.wins,
        "win_rate": rate.rate,
        "low95": rate.low,
        "high95": rate.high,
        "first_player_win_rate": sim.stats.first_player_rate(rows).rate,
        "mean_steps": sum(r["steps"] for r in rows) / n,
        "truncated": sum(r["truncated"] for r in rows),
        "wall_seconds": wall,
    }
    if decisions:
        result.update(
            decisions=decisions,
            seconds_per_decision=seconds / decisions,
            decisions_per_second=decisions / seconds,
            iterations_per_second=iterations / seconds,
            iterations_per_decision=iterations / decisions,
        )
    return result


def show(result: dict[str, Any]) -> None:
    line = (
        f"{result['game']:<16} {result['players']}p {result['bot']:<42} vs {result['against']:<10} "
        f"{result['win_rate']:6.1%}  [{result['low95']:.1%}, {result['high95']:.1%}]  "
        f"n={result['games']}"
    )
    if "decisions" in result:
        line += (
            f"  {result['seconds_per_decision']:.3f} s/decision "
            f"({result['decisions_per_second']:.1f} decisions/s, "
            f"{result['iterations_per_second']:.0f} iterations/s)"
        )
    print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--games", default=",".join(candlebox.GAMES), help="game ids, comma-separated"
    )
    parser.add_argument("--n", type=int, default=200, help="games per match-up")
    parser.add_argument("--seed", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--iterations", type=int, default=200, help="ISMCTS iterations per decision"
    )
    parser.add_argument("--seconds", type=float, help="ISMCTS seconds per decision (instead)")
    parser.add_argument("--ismcts", default="", help="more ISMCTS parameters: key=value,...")
    parser.add_argument(
        "--matchups",
        default="ismcts-heuristic,heuristic-random",
        help="which match-ups: ismcts-heuristic, heuristic-random, ismcts-random",
    )
    parser.add_argument("--json", type=Path, help="append the results as JSON lines here")
    args = parser.parse_args()

    params = {"seconds": args.seconds} if args.seconds else {"iterations": args.iterations}
    params.update(parse_params(args.ismcts))
    ismcts = sim.Seat("ismcts", params, label("ismcts", params))
    named = {"ismcts": ismcts, "heuristic": sim.Seat("heuristic"), "random": sim.Seat("random")}
    print(f"load average before: {os.getloadavg()}", flush=True)
    for game in args.games.split(","):
        for matchup in args.matchups.split(","):
            first, second = matchup.split("-")
            result = measure(game, named[first], named[second], args.n, args.seed, args.jobs)
            show(result)
            if args.json:
                with args.json.open("a") as handle:
                    handle.write(json.dumps(result) + "\n")
    print(f"load average after: {os.getloadavg()}", flush=True)


if __name__ == "__main__":
    main()
