"""ISMCTS iterations/s divided by random-playout steps/s, per game, for one or more source trees.

    python bench/search_ratio.py                                  # this tree, every game
    python bench/search_ratio.py --tree /work/main --tree .       # main against this tree
    python bench/search_ratio.py --games candle-quest,sixteen-candies --rounds 5 --seconds 2

Both rates are per CPU-second of the measuring process (``time.process_time``: waiting for a busy
machine's cores is not counted), and their ratio cancels what is left of the machine's load (both are
measured in alternating slices of the same process), so trees measured at different moments, or on a busy machine, compare fairly: issue 16's
targets are ratios (e.g. 16 Candies x 1.5 today's). Each measurement is a fresh process whose
``PYTHONPATH`` is one tree (checked: ``candlebox`` must be imported from there). Rounds interleave
the trees (every game for tree A then tree B, the order swapped every other round); the table shows
medians over rounds and, with several trees, each ratio against the first tree's.

A playout: a fresh game at the given player count (default 3; the game's default variant), then
"legal actions, a seeded random choice, apply" to the end; a step is one applied action. ISMCTS:
``bots.make("ismcts", seed=1, iterations=N)`` choosing at fixed positions of one seeded random game
(every 4th decision with a choice, up to 12), as many as fit in the measurement's time.
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


# ----------------------------------------------------------------------------- in the child process
def _variant(candlebox: object, game_id: str, players: int) -> str:
    info = candlebox.game_info(game_id)  # type: ignore[attr-defined]
    return str(info.default_variant(players))


def _measure(game_id: str, players: int, seconds: float, iterations: int) -> dict[str, float]:
    import random

    from peers import search_positions  # bench/: this script's folder, on sys.path

    import candlebox
    from candlebox import bots

    variant = _variant(candlebox, game_id, players)
    new_game = candlebox.new_game
    # Fixed positions of one seeded random game, for the ISMCTS decisions.
    positions = search_positions(game_id, players, variant, seed=0)
    # The two rates are measured in alternating slices, so a change of load hits both alike.
    steps = iterations_done = 0
    playout_time = search_time = 0.0
    seed = index = 0
    slices = 6
    for _ in range(slices):
        start = time.process_time()
        while time.process_time() - start < seconds / slices:
            rng = random.Random(seed)
            state = new_game(game_id, players=players, variant=variant, seed=seed)
            while not state.is_over:
                seat = state.to_act[0]
                actions = state.legal_actions(seat)
                state.apply(seat, actions[rng.randrange(len(actions))])
                steps += 1
            seed += 1
        playout_time += time.process_time() - start
        spent = 0.0
        while spent < seconds / slices or spent == 0.0:
            position, seat = positions[index % len(positions)]
            bot = bots.make("ismcts", seed=1, iterations=iterations)
            begin = time.process_time()
            bot.choose(position, seat)
            spent += time.process_time() - begin
            iterations_done += iterations
            index += 1
        search_time += spent
    playout = steps / playout_time
    ismcts = iterations_done / search_time
    return {"playout": playout, "ismcts": ismcts, "ratio": ismcts / playout}


def _child(args: argparse.Namespace) -> None:
    import candlebox

    where = Path(candlebox.__file__).resolve().parents[1]
    if where != Path(args.child_tree).resolve():
        sys.exit(f"candlebox was imported from {where}, not {args.child_tree}")
    result = _measure(args.child_game, int(args.players), args.seconds, args.iterations)
    print(json.dumps(result))


# ----------------------------------------------------------------------------- the parent
def _run(tree: Path, game: str, players: int, args: argparse.Namespace) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--child-tree",
        str(tree),
        "--child-game",
        game,
        "--players",
        str(players),
        "--seconds",
        str(args.seconds),
        "--iterations",
        str(args.iterations),
    ]
    done = subprocess.run(command, env=env, capture_output=True, text=True, cwd=tree, check=False)
    if done.returncode != 0:
        sys.exit(f"measuring {game} in {tree} failed:\n{done.stderr.strip()}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _every_game(tree: Path) -> list[str]:
    """The games registered in ``tree`` (asked of the tree itself, so no list is kept here)."""
    code = "import candlebox; print(','.join(candlebox.game_ids()))"
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip().split(",")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", action="append", type=Path, help="a checkout (repeatable)")
    parser.add_argument(
        "--games", default="", help="comma-separated game ids (default: every game)"
    )
    parser.add_argument("--players", default="3", help="comma-separated player counts, e.g. 3,2")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2.0, help="per rate measured")
    parser.add_argument("--iterations", type=int, default=50, help="per ISMCTS decision")
    parser.add_argument("--child-tree", help=argparse.SUPPRESS)
    parser.add_argument("--child-game", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_tree:
        _child(args)
        return
    trees = [tree.resolve() for tree in (args.tree or [Path(__file__).resolve().parents[1]])]
    games = [game for game in args.games.split(",") if game] or _every_game(trees[0])
    counts = [int(n) for n in args.players.split(",") if n]
    configs = [(game, players) for game in games for players in counts]
    results: dict[tuple[Path, str], list[dict[str, float]]] = {}
    for round_ in range(args.rounds):
        order = trees if round_ % 2 == 0 else trees[::-1]
        for game, players in configs:
            for tree in order:
                results.setdefault((tree, f"{game}/{players}"), []).append(
                    _run(tree, game, players, args)
                )
        print(f"round {round_ + 1}/{args.rounds} done", file=sys.stderr)
    print(f"{'game':<19} {'tree':<28} {'steps/s':>9} {'iter/s':>8} {'ratio':>10} {'vs first':>8}")
    for game in (f"{game}/{players}" for game, players in configs):
        first = None
        for tree in trees:
            rows = results[tree, game]
            playout = statistics.median(r["playout"] for r in rows)
            ismcts = statistics.median(r["ismcts"] for r in rows)
            ratio = statistics.median(r["ratio"] for r in rows)
            first = ratio if first is None else first
            print(
                f"{game:<19} {str(tree)[-28:]:<28} {playout:>9.0f} {ismcts:>8.1f} "
                f"{ratio:>10.6f} {ratio / first:>7.2f}x"
            )


if __name__ == "__main__":
    main()
