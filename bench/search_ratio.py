"""ISMCTS speed relative to the engine's own speed, per game, in one run (issue 16).

    python bench/search_ratio.py                          # every game, this checkout
    python bench/search_ratio.py --games candelabria      # one game (3 and 2 players)
    python bench/search_ratio.py --tree /work/main        # this checkout and another, interleaved

For each configuration it prints random-playout steps per CPU-second, ISMCTS iterations per
CPU-second (default bot, heuristic rollouts, from a fixed set of mid-game positions) and their ratio.
The machine's load slows both alike, so the ratio is what compares two checkouts or two runs. With
``--tree`` each checkout is timed in its own process (``PYTHONPATH`` set to it); the processes run
one after another, ``--repeats`` times, interleaved, and the medians are reported.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

# game id -> the player counts measured
CONFIGS: dict[str, tuple[int, ...]] = {
    "candle-quest": (2, 4),
    "sixteen-candies": (2, 4),
    "candelabria": (3, 2),
}


def _cpu() -> float:
    return time.process_time()


def playout_rate(game_id: str, players: int, seconds: float) -> float:
    """Random-playout steps per CPU-second: fresh games played to the end with random actions."""
    import candlebox

    rng = random.Random(1)
    steps = 0
    seed = 0
    start = _cpu()
    while _cpu() - start < seconds:
        state = candlebox.new_game(game_id, players=players, seed=seed)
        seed += 1
        while not state.is_over:
            seat = state.to_act[0]
            actions = state.legal_actions(seat)
            state.apply(seat, actions[rng.randrange(len(actions))])
            steps += 1
    return steps / (_cpu() - start)


def positions(game_id: str, players: int, count: int) -> list[tuple[Any, int]]:
    """Fixed mid-game positions (random play from fixed seeds) where the seat to act has a choice."""
    import candlebox

    found: list[tuple[Any, int]] = []
    seed = 100
    while len(found) < count:
        rng = random.Random(seed)
        state = candlebox.new_game(game_id, players=players, seed=seed)
        seed += 1
        for _ in range(rng.randrange(5, 60)):
            if state.is_over:
                break
            seat = state.to_act[0]
            actions = state.legal_actions(seat)
            state.apply(seat, actions[rng.randrange(len(actions))])
        if state.is_over:
            continue
        seat = state.to_act[0]
        if len(state.legal_actions(seat)) > 1:
            found.append((state, seat))
    return found


def search_rate(game_id: str, players: int, seconds: float, iterations: int) -> float:
    """ISMCTS iterations per CPU-second (default settings), over fixed positions, for ``seconds``."""
    from candlebox.bots.ismcts import ISMCTSBot

    spots = positions(game_id, players, 8)
    done = 0
    start = _cpu()
    i = 0
    while _cpu() - start < seconds:
        state, seat = spots[i % len(spots)]
        bot = ISMCTSBot(seed=i, iterations=iterations)
        bot.choose(state.clone(), seat)
        done += int(bot.last["iterations"])
        i += 1
    return done / (_cpu() - start)


def measure(games: list[str], seconds: float, iterations: int) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for game_id in games:
        for players in CONFIGS[game_id]:
            steps = playout_rate(game_id, players, seconds)
            its = search_rate(game_id, players, seconds, iterations)
            out[f"{game_id}/{players}p"] = {
                "steps": steps,
                "iterations": its,
                "ratio": its / steps,
            }
    return out


def child(tree: str, args: argparse.Namespace) -> dict[str, dict[str, float]]:
    """One measurement of the checkout at ``tree`` in its own process."""
    env = dict(os.environ, PYTHONPATH=tree)
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--child",
        "--games",
        *args.games,
        "--seconds",
        str(args.seconds),
        "--iterations",
        str(args.iterations),
    ]
    done = subprocess.run(command, env=env, cwd=tree, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"measuring {tree} failed:\n{done.stderr}")
    result: dict[str, dict[str, float]] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=list(CONFIGS), choices=list(CONFIGS))
    parser.add_argument("--tree", action="append", default=[], help="another checkout to time")
    parser.add_argument("--seconds", type=float, default=4.0, help="CPU seconds per measurement")
    parser.add_argument("--iterations", type=int, default=50, help="ISMCTS iterations per decision")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(measure(args.games, args.seconds, args.iterations)))
        return 0
    here = str(Path(__file__).resolve().parent.parent)
    trees = [here, *[str(Path(t).resolve()) for t in args.tree]]
    runs: dict[str, list[dict[str, dict[str, float]]]] = {t: [] for t in trees}
    for _ in range(args.repeats):
        for tree in trees:
            runs[tree].append(child(tree, args))
    base = runs[trees[-1]] if len(trees) > 1 else None
    print(f"{'tree':<28} {'config':<22} {'playout steps/s':>16} {'ISMCTS it/s':>12} {'ratio':>10}")
    medians: dict[str, dict[str, dict[str, float]]] = {}
    for tree in trees:
        medians[tree] = {}
        for config in runs[tree][0]:
            row = {
                key: statistics.median(r[config][key] for r in runs[tree])
                for key in ("steps", "iterations", "ratio")
            }
            medians[tree][config] = row
            print(
                f"{tree[-28:]:<28} {config:<22} {row['steps']:>16,.0f} "
                f"{row['iterations']:>12,.1f} {row['ratio']:>10.2e}"
            )
    if base is not None:
        print("\nratio of ratios (this checkout ÷ the last --tree):")
        for config, row in medians[here].items():
            print(f"  {config:<22} {row['ratio'] / medians[trees[-1]][config]['ratio']:.2f}×")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
