"""An encoder's cost per observation read as a vector env makes its reads, for N games in play.

    python bench/encoder_reads.py                                  # Candelabria standard 3p, N = 1, 8, 64
    python bench/encoder_reads.py --game candle-quest --games 1,64 --steps 200 --repeats 5

The workload is the vector env's without the env: N live games stepped in turn, each game's seat to
act playing a seeded random legal action (a game that ends replaced by a new one), and after each step
that game read once by the seat to act (``fill_state_items`` into a row's memoryview, as
``candlebox.rl.vector`` reads). The same seeded games are played with the encoder and without any read
(``none``), in alternating rounds of one process; an encoder's cost per read is the difference of the
two medians, per second of this process's CPU time (a busy machine's waiting is not counted).

Why N matters: an incremental encoder keeps each game's last observation and compares the state's data
with copies of it, so a read touches two copies of the state's data; with 64 games in turn they no
longer stay in the CPU's caches, and a read costs about twice what it costs with one game
(docs/rl.md, "Observations").
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from candlebox.engine.encoding import items
from candlebox.rl import Spec

Read = Callable[[Any, int, Any], None]


def _no_read(state: Any, seat: int, row: Any) -> None:
    """The workload without a read: what the games cost alone."""


def _reads(spec: Spec) -> Read:
    """The encoder's read as the vector env makes it: into a row's memoryview where the encoder
    takes one, else into the row's array."""
    encoder = spec.encoder
    fill_items = getattr(encoder, "fill_state_items", None)
    if fill_items is not None:
        return fill_items

    def read(state: Any, seat: int, row: Any) -> None:
        encoder.fill_state(state, seat, np.asarray(row))

    return read


def steps_per_read(spec: Spec, read: Read, games: int, steps: int, seed: int) -> float:
    """Microseconds of CPU per step (a step of one game, then its read) over ``steps`` rounds of
    ``games`` games."""
    rng = random.Random(seed)
    rows = [items(row) for row in np.zeros((games, spec.observation_size), dtype=np.float32)]
    states = [spec.config.new_game(seed * 1000 + i) for i in range(games)]
    for i, state in enumerate(states):
        read(state, state.to_act[0], rows[i])
    start = time.process_time()
    for _ in range(steps):
        for i in range(games):
            state = states[i]
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            state.apply_unchecked(seat, legal[rng.randrange(len(legal))])
            if state.is_over:
                state = states[i] = spec.config.new_game(rng.randrange(1 << 30))
            read(state, state.to_act[0], rows[i])
    return (time.process_time() - start) / (games * steps) * 1e6


def measure(
    game_id: str, players: int, variant: str | None, games: list[int], steps: int, repeats: int
) -> list[dict[str, Any]]:
    """For each N: the median µs per step with the encoder's reads and without, and their difference
    (the encoder's µs per read)."""
    spec = Spec.make(game_id, players, variant)
    rows = []
    for n in games:
        # A new encoder for each N: what it keeps of earlier games is not this N's.
        read = _reads(Spec.make(game_id, players, variant))
        rounds = max(1, steps // n)
        timed: dict[str, list[float]] = {"encoder": [], "none": []}
        for repeat in range(repeats):
            timed["encoder"].append(steps_per_read(spec, read, n, rounds, repeat))
            timed["none"].append(steps_per_read(spec, _no_read, n, rounds, repeat))
        with_reads = statistics.median(timed["encoder"])
        alone = statistics.median(timed["none"])
        rows.append(
            {
                "games": n,
                "steps": n * rounds,
                "step_with_read_us": with_reads,
                "step_alone_us": alone,
                "read_us": with_reads - alone,
            }
        )
    return rows


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="An encoder's cost per observation read, for N games in play."
    )
    parser.add_argument("--game", default="candelabria", help="game id (default candelabria)")
    parser.add_argument("--players", type=int, default=3, help="players (default 3)")
    parser.add_argument("--variant", default=None, help="variant (default: the game's)")
    parser.add_argument(
        "--games", default="1,8,64", help="games in play at once, comma-separated (default 1,8,64)"
    )
    parser.add_argument(
        "--steps", type=int, default=6400, help="steps per measurement, all games (default 6400)"
    )
    parser.add_argument(
        "--repeats", type=int, default=5, help="rounds of each measurement (default 5)"
    )
    args = parser.parse_args(argv)
    try:
        args.game_counts = [int(n) for n in args.games.split(",") if n.strip()]
    except ValueError:
        parser.error(f"--games: whole numbers separated by commas, not {args.games!r}")
    if not args.game_counts or min(args.game_counts) < 1:
        parser.error(f"--games: at least one count, each at least 1, not {args.games!r}")
    if args.steps < 1 or args.repeats < 1:
        parser.error("--steps and --repeats must be at least 1")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    rows = measure(
        args.game, args.players, args.variant, args.game_counts, args.steps, args.repeats
    )
    print(f"{args.game}, {args.players} players: CPU µs per step (median of {args.repeats})")
    print("| games in play | step with its read | step alone | the read |")
    print("| --- | --- | --- | --- |")
    for row in rows:
        print(
            f"| {row['games']} | {row['step_with_read_us']:.1f} | {row['step_alone_us']:.1f} "
            f"| **{row['read_us']:.1f}** |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
