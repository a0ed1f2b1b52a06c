"""Move-generation counts kept as data, after python-chess's perft tests.

``perft(state, d)`` counts the action sequences of length ``d`` from a position (every seat in
``to_act`` may move, so a simultaneous decision branches on each of its seats; a finished game counts
one). Chance is inside the state, so from a seeded position these counts are exact numbers: any change
in what ``legal_actions`` offers, or in what an action leads to, moves them.

The positions: for every game, variant and the fewest and most players (and the default variant with
each set of ``OPTIONS``), two seeds, each after 0, 10, 25 and 80 random steps (and ``LATER_STEPS``) (``random.Random(seed)`` choosing among the legal actions of the first seat to
act). Depths grow until a count would pass ``LEAF_BUDGET``, so the file stays fast to check.

A rules change that is meant to change the counts regenerates the file, and its diff is reviewed:

    python -m tests.conformance.perft --write
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

import candlebox

DATA = Path(__file__).with_name("perft.json")
SEEDS = (1, 2)
STEPS = (0, 10, 25, 80)
# Candelabria's war (and with it Decay and most Missions) comes after a few hundred steps.
LATER_STEPS = {"candelabria": (200, 350)}
MAX_DEPTH = 5
LEAF_BUDGET = 4_000  # the deepest count recorded stays under about this many leaves
# Options that change what is legal (Candle Quest's change only the scoring), each checked at the default variant's fewest and most players.
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "sixteen-candies": [{"draw": "optional", "rediscard": False, "instant_win": "held"}],
    "candelabria": [
        {"missions": True},
        {"decay": True},
        {"decay": True, "decay_draw": "every", "battle_shift": "none"},
        {"castle_entry": "optional", "warrior_push": "optional"},
    ],
}


def perft(state: candlebox.State, depth: int) -> int:
    """The number of action sequences of length ``depth`` from ``state``."""
    if depth == 0 or state.is_over:
        return 1
    total = 0
    for seat in state.to_act:
        for action in state.legal_actions(seat):
            child = state.clone()
            child.apply(seat, action)
            total += perft(child, depth - 1)
    return total


def configs() -> list[tuple[str, str, int, dict[str, Any]]]:
    """Every registered game and variant at its fewest and most players, then the option sets."""
    found = []
    for game in candlebox.GAMES:
        for variant in candlebox.variants(game):
            for players in sorted({variant.min_players, variant.max_players}):
                found.append((game, variant.name, players, {}))
        for options in OPTIONS.get(game, []):
            variant = candlebox.variants(game)[0]
            for players in sorted({variant.min_players, variant.max_players}):
                found.append((game, variant.name, players, options))
    return found


def position(
    game: str, variant: str, players: int, options: dict[str, Any], seed: int, steps: int
) -> candlebox.State:
    """The game after ``steps`` random steps (fewer if it ends first)."""
    state = candlebox.new_game(game, players=players, variant=variant, seed=seed, **options)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def counts(state: candlebox.State) -> list[int]:
    """perft at depths 1, 2, ... while the last stays under LEAF_BUDGET (at least depth 1)."""
    found = [perft(state, 1)]
    while len(found) < MAX_DEPTH and found[-1] * found[0] <= LEAF_BUDGET:
        found.append(perft(state, len(found) + 1))
    return found


def entry_key(entry: dict[str, Any]) -> str:
    options = ",".join(f"{k}={v}" for k, v in sorted(entry["options"].items())) or "defaults"
    return f"{entry['game']}/{entry['variant']}/{entry['players']}p/{options}/seed{entry['seed']}/step{entry['steps']}"


def compute() -> list[dict[str, Any]]:
    entries = []
    for game, variant, players, options in configs():
        for seed in SEEDS:
            for steps in STEPS + LATER_STEPS.get(game, ()):
                state = position(game, variant, players, options, seed, steps)
                entries.append(
                    {
                        "game": game,
                        "variant": variant,
                        "players": players,
                        "options": options,
                        "seed": seed,
                        "steps": steps,
                        "counts": counts(state),
                    }
                )
    return entries


def load() -> list[dict[str, Any]]:
    return json.loads(DATA.read_text())["positions"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help=f"rewrite {DATA.name}")
    args = parser.parse_args(argv)
    entries = compute()
    if args.write:
        note = "perft counts; regenerate with: python -m tests.conformance.perft --write"
        DATA.write_text(json.dumps({"about": note, "positions": entries}, indent=1) + "\n")
        print(f"wrote {len(entries)} positions to {DATA}")
        return 0
    stored = {entry_key(e): e["counts"] for e in load()}
    bad = [entry_key(e) for e in entries if stored.get(entry_key(e)) != e["counts"]]
    print(f"{len(entries) - len(bad)} of {len(entries)} positions match", *bad, sep="\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
