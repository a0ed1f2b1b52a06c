"""Cold start: a fresh process's first random games against the same games played again, warm.

    python bench/cold_start.py [game_id] [--games 100] [--players 4]

Run in a fresh interpreter (that is the point): it imports candlebox, plays games with seeds
0 … games-1 (cold: every run-time cache empty), then plays the very same games again (warm), and prints
steps/s of both and their ratio. Playing the same games removes the games' own length from the
comparison; what is left is the cost of what the engine builds the first time it meets something
(issue 18: 16 Candies' per-hand rotation lists). tests/sixteen_candies/test_cold_start.py runs it.
"""

from __future__ import annotations

import argparse
import json
import random
import time

import candlebox


def play(game_id: str, players: int, seed: int) -> int:
    rng = random.Random(seed)
    state = candlebox.new_game(game_id, players=players, seed=seed)
    steps = 0
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        steps += 1
    return steps


def rate(game_id: str, players: int, games: int) -> float:
    """Steps per second of this process's CPU time (not wall time: on a shared machine the other
    processes' load would otherwise weigh on the cold and the warm run unequally)."""
    start = time.process_time()
    steps = sum(play(game_id, players, seed) for seed in range(games))
    return steps / (time.process_time() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game_id", nargs="?", default="sixteen-candies")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args(argv)
    # Imports the game (and builds what it builds at import) without playing: import time is not
    # the games' speed.
    candlebox.new_game(args.game_id, players=args.players, seed=0)
    cold = rate(args.game_id, args.players, args.games)
    warm = rate(args.game_id, args.players, args.games)
    result = {"game": args.game_id, "cold": cold, "warm": warm, "ratio": cold / warm}
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{args.game_id}, {args.players} players, {args.games} games: "
            f"cold {cold:,.0f} steps/s, warm {warm:,.0f} steps/s, cold/warm {cold / warm:.2f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
