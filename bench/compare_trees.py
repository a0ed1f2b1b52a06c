"""Two Candlebox source trees side by side: random-playout steps/s and ISMCTS iterations/s per game.

    python bench/compare_trees.py /work/wt/base .                 # 5 rounds, 2 s per measurement
    python bench/compare_trees.py OLD NEW --rounds 3 --seconds 1 --games candle-quest

Each measurement is a fresh process whose ``PYTHONPATH`` is one tree (the script checks that
``candlebox`` is imported from there), so both trees run on the same machine under the same load.
The processes are interleaved — round by round, every (game, measure) for tree A then tree B, the
order of the two swapped every other round — and the table shows the median of the rounds and B's
change against A. A playout is the loop of bench/peers.py: a fresh game at the headline setup (the
default variant at 3 players), then "legal actions, a seeded random choice, apply" to the end; a
step is one applied action. ISMCTS is ``bots.make("ismcts", iterations=N)`` choosing from the
positions of one seeded random playout (every 4th decision, up to 12 of them); iterations/s is the
iterations over the time spent choosing, with as many
positions as fit in the measurement's seconds (one at least).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

MEASURES = ("playout", "ismcts")


# ----------------------------------------------------------------------------- in the child process
def _playout_rate(game_id: str, seconds: float) -> float:
    import random

    from peers import headline_setup  # bench/ is this script's folder, first on sys.path

    import candlebox

    variant, players = headline_setup(game_id)
    new_game = candlebox.new_game
    steps = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        rng = random.Random(seed)
        state = new_game(game_id, players=players, variant=variant, seed=seed)
        while not state.is_over:
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            steps += 1
        seed += 1
    return steps / (time.perf_counter() - start)


def _ismcts_rate(game_id: str, iterations: int, seconds: float) -> float:
    from peers import headline_setup, search_positions  # bench/: this script's folder, on sys.path

    from candlebox import bots

    variant, players = headline_setup(game_id)
    positions = search_positions(game_id, players, variant, seed=7)
    bot = bots.make("ismcts", seed=1, iterations=iterations)
    spent = 0.0
    done = 0
    for position, seat in positions:  # the positions in turn until the time is spent (one at least)
        start = time.perf_counter()
        bot.choose(position, seat)
        spent += time.perf_counter() - start
        done += 1
        if spent >= seconds:
            break
    return iterations * done / spent


def _child(tree: str, game_id: str, measure: str, seconds: float, iterations: int) -> None:
    import candlebox

    where = Path(candlebox.__file__).resolve()
    if not where.is_relative_to(Path(tree).resolve()):
        raise SystemExit(f"candlebox came from {where}, not from the tree {tree}")
    if measure == "playout":
        rate = _playout_rate(game_id, seconds)
    else:
        rate = _ismcts_rate(game_id, iterations, seconds)
    print(json.dumps({"rate": rate}))


# ----------------------------------------------------------------------------- the parent
def games_of(tree: Path) -> list[str]:
    """The games the tree registers, in its order."""
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--games"],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(tree)),
        cwd=tree,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{tree}: cannot list its games:\n{done.stderr}")
    return list(json.loads(done.stdout.strip().splitlines()[-1]))


def measure(tree: Path, game_id: str, what: str, seconds: float, iterations: int) -> float:
    env = dict(os.environ, PYTHONPATH=str(tree))
    args = [str(tree), game_id, what, str(seconds), str(iterations)]
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=tree,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{tree} {game_id} {what} failed:\n{done.stderr}")
    return float(json.loads(done.stdout.strip().splitlines()[-1])["rate"])


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--games"]:  # the games a tree knows, in a process of its own (see games_of)
        import candlebox

        print(json.dumps(list(candlebox.game_ids())))
        return 0
    if argv[:1] == ["--child"]:  # one measurement, in a process of its own (see measure)
        tree, game_id, what, seconds, iterations = argv[1:]
        _child(tree, game_id, what, float(seconds), int(iterations))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tree_a", type=Path, help="the reference tree (e.g. before)")
    parser.add_argument("tree_b", type=Path, help="the tree compared with it (e.g. after)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0, help="per playout measurement")
    parser.add_argument("--iterations", type=int, default=50, help="ISMCTS iterations a decision")
    parser.add_argument("--games", nargs="*", help="default: every game both trees know")
    parser.add_argument("--measures", nargs="*", choices=MEASURES, default=list(MEASURES))
    args = parser.parse_args(argv)
    trees = (args.tree_a.resolve(), args.tree_b.resolve())
    known = games_of(trees[1])
    games = args.games or [game for game in games_of(trees[0]) if game in known]
    jobs = [(game, what) for game in games for what in args.measures]
    rates: dict[tuple[str, str, int], list[float]] = {}
    for round_ in range(args.rounds):
        for game, what in jobs:
            order = (0, 1) if round_ % 2 == 0 else (1, 0)
            for side in order:
                rate = measure(trees[side], game, what, args.seconds, args.iterations)
                rates.setdefault((game, what, side), []).append(rate)
        print(f"round {round_ + 1}/{args.rounds} done", file=sys.stderr)
    unit = {"playout": "steps/s", "ismcts": f"iter/s ({args.iterations}/move)"}
    print(f"A = {trees[0]}\nB = {trees[1]}\nmedians of {args.rounds} interleaved rounds\n")
    print(f"{'game':<16} {'measure':<22} {'A':>10} {'B':>10} {'B vs A':>8}")
    for game, what in jobs:
        a = statistics.median(rates[(game, what, 0)])
        b = statistics.median(rates[(game, what, 1)])
        print(f"{game:<16} {unit[what]:<22} {a:>10,.0f} {b:>10,.0f} {(b / a - 1) * 100:>+7.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
