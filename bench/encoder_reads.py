"""An encoder's cost per observation read as a vector env makes its reads, for N games in play.

    python bench/encoder_reads.py                                  # Candelabria standard 3p, N = 1, 8, 64
    python bench/encoder_reads.py --game candle-quest --games 1,64 --steps 200 --repeats 5
    python bench/encoder_reads.py --games 64 --against main --repeats 24   # A/B against main's encoder

The workload is the vector env's without the env: N live games stepped in turn, each game's seat to
act playing a seeded random legal action (a game that ends replaced by a new one), and after each step
that game read once by the seat to act (``fill_state_items`` into a row's memoryview, as
``candlebox.rl.vector`` reads). The same seeded games are played with the encoder and without any read
(``none``), in alternating rounds of one process; an encoder's cost per read is the difference of the
two medians, per second of this process's CPU time (a busy machine's waiting is not counted).

``--against REV`` puts the encoder as it is at git revision REV in the same rounds (its files copied
from ``git show`` under another module name, so both run in one process, alternating): on this
shared machine two processes run minutes apart can differ by a tenth or more, while the ratio of
the two reads within each round holds much better; the median and quartiles of those per-round
ratios are printed.

Why N matters: an incremental encoder keeps each game's last observation and compares the state's data
with copies of it, so a read touches two copies of the state's data; with 64 games in turn they no
longer stay in the CPU's caches, and a read costs about twice what it costs with one game
(docs/rl.md, "Observations").
"""

from __future__ import annotations

import argparse
import atexit
import importlib
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
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


HERE = Path(__file__).resolve().parent.parent


def encoder_module_at(module: str, revision: str) -> Any:
    """The encoder module ``module`` (a module or a package) as it is at git ``revision``, imported
    under another name from a copy of its files, its imports of itself renamed to the copy's."""
    path = Path(*module.split("."))
    package = (HERE / path).is_dir()
    alias = "encoder_at_" + "".join(ch if ch.isalnum() else "_" for ch in revision)
    root = Path(tempfile.mkdtemp(prefix="encoder-reads-"))
    atexit.register(shutil.rmtree, root, True)

    def show(name: str) -> str:
        text = subprocess.run(
            ["git", "-C", str(HERE), "show", f"{revision}:{name}"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        return text.replace(f"{module}.", f"{alias}.").replace(f"from {module} ", f"from {alias} ")

    if package:
        (root / alias).mkdir()
        names = subprocess.run(
            ["git", "-C", str(HERE), "ls-tree", "--name-only", revision, f"{path}/"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.split()
        for name in names:
            if name.endswith(".py"):
                (root / alias / Path(name).name).write_text(show(name), encoding="utf-8")
    else:
        (root / f"{alias}.py").write_text(show(f"{path}.py"), encoding="utf-8")
    sys.path.insert(0, str(root))
    return importlib.import_module(alias)


def measure(
    game_id: str,
    players: int,
    variant: str | None,
    games: list[int],
    steps: int,
    repeats: int,
    against: str | None = None,
) -> list[dict[str, Any]]:
    """For each N: the median µs per step with the encoder's reads and without, and their difference
    (the encoder's µs per read); with ``against``, the same for the encoder at that git revision,
    in the same rounds, and the per-round ratios of its read to this one's."""
    spec = Spec.make(game_id, players, variant)
    other = None
    if against is not None:
        other = encoder_module_at(type(spec.encoder).__module__, against)
    rows = []
    for n in games:
        # New encoders for each N: what they keep of earlier games is not this N's.
        reads = {"encoder": _reads(Spec.make(game_id, players, variant)), "none": _no_read}
        if other is not None:
            theirs = Spec.make(game_id, players, variant)
            theirs.encoder = other.encoder(spec.config)
            reads["against"] = _reads(theirs)
        rounds = max(1, steps // n)
        timed: dict[str, list[float]] = {name: [] for name in reads}
        for repeat in range(repeats):
            order = list(reads.items())
            if repeat % 2:  # what runs first in a round is not always the same one
                order.reverse()
            for name, read in order:
                timed[name].append(steps_per_read(spec, read, n, rounds, repeat))
        with_reads = statistics.median(timed["encoder"])
        alone = statistics.median(timed["none"])
        row: dict[str, Any] = {
            "games": n,
            "steps": n * rounds,
            "step_with_read_us": with_reads,
            "step_alone_us": alone,
            "read_us": with_reads - alone,
        }
        if other is not None:
            row["against_read_us"] = statistics.median(timed["against"]) - alone
            ratios = sorted(
                (theirs - none) / (ours - none)
                for ours, theirs, none in zip(
                    timed["encoder"], timed["against"], timed["none"], strict=True
                )
                if ours > none  # a round too short to time a read tells nothing
            )
            if ratios:
                quarter = len(ratios) // 4
                row["ratio"] = (statistics.median(ratios), ratios[quarter], ratios[-1 - quarter])
            else:
                row["ratio"] = (float("nan"),) * 3
        rows.append(row)
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
    parser.add_argument(
        "--against",
        default=None,
        metavar="REV",
        help="also the encoder at this git revision, in the same rounds (e.g. main)",
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
        args.game,
        args.players,
        args.variant,
        args.game_counts,
        args.steps,
        args.repeats,
        args.against,
    )
    print(f"{args.game}, {args.players} players: CPU µs per step (median of {args.repeats})")
    if args.against is None:
        print("| games in play | step with its read | step alone | the read |")
        print("| --- | --- | --- | --- |")
    else:
        print(
            f"| games in play | step with its read | step alone | the read | {args.against}'s read "
            f"| {args.against}'s read / this one, per round: median (quartiles) |"
        )
        print("| --- | --- | --- | --- | --- | --- |")
    for row in rows:
        line = (
            f"| {row['games']} | {row['step_with_read_us']:.1f} | {row['step_alone_us']:.1f} "
            f"| **{row['read_us']:.1f}** |"
        )
        if "ratio" in row:
            middle, low, high = row["ratio"]
            line += f" {row['against_read_us']:.1f} | **{middle:.2f}** ({low:.2f}–{high:.2f}) |"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
