"""The baselines to beat: each game's shipped policy bot against random, heuristic and ISMCTS-Easy.

For every game with a shipped policy (candlebox/bots/policies/, or ``--games``), 2 players, the
default variant and options: the ``policy`` bot (greedy, ``temperature=0``) against the random bot
(``--n-random``, 200 games), the heuristic bot (``--n-heuristic``, 200) and ISMCTS-Easy, the ISMCTS bot
at a small fixed budget (``--easy``, ``iterations=50`` by default; 100 games). Seats alternate from game
to game, games are seeded (game ``i``: seed ``--seed + i``); win rates have Wilson 95% intervals (a tie
pays each winner its share). Each match's result is appended to ``--json`` as one JSON line as soon as
the match ends; ``--minutes`` bounds each match (the games played by then are what is reported, and the
line says how many were planned). Run it under ``nice -n 19`` on a shared machine.

    nice -n 19 python bench/baselines.py --json bench-baselines.jsonl
    python bench/baselines.py --games candle-quest --n-random 20 --n-heuristic 20 --n-ismcts 10

Not measured here: the policy as the ISMCTS bot's prior (``ismcts:guide=policy``), which
``candlebox simulate`` measures against the heuristic's guide (docs/rl.md, "The policy as the
search's prior").
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import candlebox
from candlebox import sim
from candlebox.bots.policy import shipped_path
from candlebox.cli.config import parse_bot
from candlebox.cli.errors import CliError

PLAYERS = 2


def match(
    game: str, first: sim.Seat, second: sim.Seat, n: int, seed: int, minutes: float | None
) -> dict[str, Any]:
    """``first`` against ``second``, seats alternating, up to ``n`` games or ``minutes``."""
    plan = sim.Plan(game, PLAYERS, None, {}, (first, second), n, seed, True)
    start = time.perf_counter()
    rows: list[dict[str, Any]] = []
    for game_seed in plan.seeds:
        rows.append(sim.game.play(plan, game_seed))
        print(f"  {len(rows)}/{n}", end="\r", file=sys.stderr, flush=True)
        if minutes is not None and time.perf_counter() - start > minutes * 60:
            break
    wall = time.perf_counter() - start
    rate = sim.stats.by_bot(rows)[first.shown]
    played = len(rows)
    return {
        "game": game,
        "variant": rows[0]["variant"],
        "players": PLAYERS,
        "bot": first.shown,
        "against": second.shown,
        "games": played,
        "planned": n,
        "wins": rate.wins,
        "win_rate": rate.rate,
        "low95": rate.low,
        "high95": rate.high,
        "mean_steps": sum(r["steps"] for r in rows) / played,
        "truncated": sum(r["truncated"] for r in rows),
        "wall_seconds": round(wall, 1),
        "load_average": os.getloadavg(),
    }


def seat(bot: str, params: str) -> sim.Seat:
    """A bot with parameters written ``key=value,...``, checked as ``candlebox simulate --bots``
    checks them (an unknown bot or parameter stops the script before any game)."""
    pairs = [pair.strip() for pair in params.split(",") if pair.strip()]
    spec = parse_bot(":".join([bot, *pairs]))
    return sim.Seat(spec.name, spec.params, spec.label)


def show(result: dict[str, Any]) -> None:
    cut = "" if result["games"] == result["planned"] else f" (of {result['planned']} planned)"
    print(
        f"{result['game']:<16} {result['bot']} vs {result['against']:<22} "
        f"{result['win_rate']:6.1%}  [{result['low95']:.1%}, {result['high95']:.1%}]  "
        f"n={result['games']}{cut}  {result['wall_seconds']:.0f} s",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    shipped = [g for g in candlebox.game_ids() if shipped_path(g).is_file()]
    parser.add_argument("--games", default=",".join(shipped), help="game ids, comma-separated")
    parser.add_argument("--n-random", type=int, default=200)
    parser.add_argument("--n-heuristic", type=int, default=200)
    parser.add_argument("--n-ismcts", type=int, default=100)
    parser.add_argument("--easy", default="iterations=50", help="ISMCTS-Easy's parameters")
    parser.add_argument("--policy", default="", help="the policy bot's parameters: key=value,...")
    parser.add_argument("--seed", type=int, default=50_000)
    parser.add_argument("--minutes", type=float, help="stop each match after this long")
    parser.add_argument("--json", type=Path, help="append each match's result here (JSON lines)")
    args = parser.parse_args()

    try:
        policy = seat("policy", args.policy)
    except CliError as exc:
        parser.error(f"--policy: {str(exc).removeprefix('--bots: ')}")
    try:
        easy = seat("ismcts", args.easy)
    except CliError as exc:
        parser.error(f"--easy: {str(exc).removeprefix('--bots: ')}")
    rivals = [
        (sim.Seat("random"), args.n_random),
        (sim.Seat("heuristic"), args.n_heuristic),
        (easy, args.n_ismcts),
    ]
    print(f"load average before: {os.getloadavg()}", flush=True)
    for game in args.games.split(","):
        for rival, n in rivals:
            if n <= 0:
                continue
            result = match(game, policy, rival, n, args.seed, args.minutes)
            show(result)
            if args.json:
                with args.json.open("a") as handle:
                    handle.write(json.dumps(result) + "\n")
    print(f"load average after: {os.getloadavg()}", flush=True)


if __name__ == "__main__":
    main()
