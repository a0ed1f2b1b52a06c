"""Candelabria's RL observations kept as digests: a guard for changes meant to leave the encoding alone.

For every configuration in ``CONFIGS`` and each seed in ``SEEDS``, a random game (``random.Random(seed)``
choosing among the legal actions of the first seat to act) is followed for up to ``STEPS`` steps; at
every ``EVERY``-th step, and at the end, each seat's observation (``Spec.observe``, float32 bytes) and
action mask (int8 bytes) go into a sha256 digest of that checkpoint. Any change to what the encoder
writes, or to the numbering, moves a digest.

A change that is meant to change the encoding regenerates the file, and its diff is reviewed:

    python -m tests.rl.candelabria_digests --write
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from candlebox.rl import Spec

DATA = Path(__file__).with_name("candelabria_digests.json")
GAME = "candelabria"
SEEDS = (1, 2)
STEPS = 3000  # past the end of every random game: each is followed to its end
EVERY = 3
# variant, players, options: every board side, the two-player variant, each option that changes the
# observation (missions, decay, the optional spare), and a turn limit that ends the game early.
CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("standard", 3, {}),
    ("standard", 4, {}),
    ("standard", 5, {}),
    ("two-player", 2, {}),
    ("standard", 4, {"missions": True}),
    ("two-player", 2, {"missions": True}),
    ("standard", 3, {"decay": True}),
    ("standard", 5, {"decay": True, "missions": True}),
    ("standard", 4, {"castle_entry": "optional", "warrior_push": "optional"}),
    ("standard", 3, {"max_turns": 4}),
    ("two-player", 2, {"max_turns": 3, "missions": True}),
]


def key(variant: str, players: int, options: dict[str, Any], seed: int) -> str:
    opts = ",".join(f"{k}={v}" for k, v in sorted(options.items()))
    return f"{variant}/{players}p/{opts or '-'}/seed={seed}"


def _checkpoint(spec: Spec, state: Any) -> str:
    digest = hashlib.sha256()
    for seat in range(state.num_players):
        digest.update(spec.observe(state, seat).tobytes())
        digest.update(spec.actions.mask(state, seat).tobytes())
    return digest.hexdigest()


def digests(variant: str, players: int, options: dict[str, Any], seed: int) -> list[str]:
    """The checkpoint digests of one random game (the last one: where it ended or stopped)."""
    spec = Spec.make(GAME, players, variant, **options)
    state = spec.config.new_game(seed)
    rng = random.Random(seed)
    found: list[str] = []
    step = 0
    while True:
        if step % EVERY == 0:
            found.append(_checkpoint(spec, state))
        if state.is_over or step >= STEPS:
            break
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        step += 1
    if step % EVERY != 0:
        found.append(_checkpoint(spec, state))
    found.append(f"steps={step} over={state.is_over}")
    return found


def compute() -> dict[str, list[str]]:
    return {
        key(variant, players, options, seed): digests(variant, players, options, seed)
        for variant, players, options in CONFIGS
        for seed in SEEDS
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"write {DATA.name}")
    args = parser.parse_args(argv)
    data = compute()
    if args.write:
        DATA.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        print(f"wrote {sum(len(v) for v in data.values())} digests to {DATA}")
        return 0
    kept = json.loads(DATA.read_text())
    bad = [name for name in sorted(set(kept) | set(data)) if kept.get(name) != data.get(name)]
    for name in bad:
        print(f"differs: {name}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
