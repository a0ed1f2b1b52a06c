"""Move-generation counts kept as data, after python-chess's perft tests.

``perft(state, d)`` counts the action sequences of length ``d`` from a position (every seat in
``to_act`` may move, so a simultaneous decision branches on each of its seats; a finished game counts
one). Chance is inside the state, so from a seeded position these counts are exact numbers: any change
in what ``legal_actions`` offers, or in what an action leads to, moves them.

The positions: for every variant of a game at its fewest and most players (and the first variant with
each of the game's ``Conformance.perft_options``), two seeds, each after 0, 10, 25 and 80 random steps
(and the game's ``perft_later_steps``) (``random.Random(seed)`` choosing among the legal actions of
the first seat to act). Depths grow until a count would pass ``LEAF_BUDGET``, so the file stays fast
to check. A game keeps its counts in the file its ``Conformance.perft_counts`` names.

A rules change that is meant to change the counts regenerates the file, and its diff is reviewed:

    python -m candlebox.testing.perft GAME --write
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

import candlebox
from candlebox.engine import State, game_info

SEEDS = (1, 2)
STEPS = (0, 10, 25, 80)
MAX_DEPTH = 5
LEAF_BUDGET = 4_000  # the deepest count recorded stays under about this many leaves
NOTE = "perft counts; regenerate with: python -m candlebox.testing.perft {game} --write"

Entry = dict[str, Any]


def perft(state: State, depth: int) -> int:
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


def configs(game: str) -> list[tuple[str, int, dict[str, Any]]]:
    """Every variant at its fewest and most players, then the option sets at the first variant."""
    info = game_info(game)
    found: list[tuple[str, int, dict[str, Any]]] = []
    for variant in info.variants:
        for players in sorted({variant.min_players, variant.max_players}):
            found.append((variant.name, players, {}))
    first = info.variants[0]
    for options in info.conformance().perft_options:
        for players in sorted({first.min_players, first.max_players}):
            found.append((first.name, players, dict(options)))
    return found


def steps(game: str) -> tuple[int, ...]:
    return STEPS + game_info(game).conformance().perft_later_steps


def position(
    game: str, variant: str, players: int, options: dict[str, Any], seed: int, steps: int
) -> State:
    """The game after ``steps`` random steps (fewer if it ends first)."""
    state = candlebox.new_game(game, players=players, variant=variant, seed=seed, **options)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def counts(state: State) -> list[int]:
    """perft at depths 1, 2, ... while the last stays under LEAF_BUDGET (at least depth 1)."""
    found = [perft(state, 1)]
    while len(found) < MAX_DEPTH and found[-1] * found[0] <= LEAF_BUDGET:
        found.append(perft(state, len(found) + 1))
    return found


def entry_key(entry: Entry) -> str:
    options = ",".join(f"{k}={v}" for k, v in sorted(entry["options"].items())) or "defaults"
    return (
        f"{entry['game']}/{entry['variant']}/{entry['players']}p/{options}"
        f"/seed{entry['seed']}/step{entry['steps']}"
    )


def wanted(game: str) -> list[Entry]:
    """Every position the game's counts must cover (without counts)."""
    return [
        {
            "game": game,
            "variant": variant,
            "players": players,
            "options": options,
            "seed": seed,
            "steps": count,
        }
        for variant, players, options in configs(game)
        for seed in SEEDS
        for count in steps(game)
    ]


def compute(game: str) -> list[Entry]:
    return [{**entry, "counts": counts(position(*_where(entry)))} for entry in wanted(game)]


def _where(entry: Entry) -> tuple[str, str, int, dict[str, Any], int, int]:
    return (
        entry["game"],
        entry["variant"],
        entry["players"],
        entry["options"],
        entry["seed"],
        entry["steps"],
    )


def counts_file(game: str) -> Path | None:
    return game_info(game).conformance().perft_counts


def load(game: str) -> list[Entry]:
    """The game's stored counts ([] when it keeps none)."""
    path = counts_file(game)
    if path is None:
        return []
    positions: list[Entry] = json.loads(path.read_text(encoding="utf-8"))["positions"]
    return positions


def check_entry(entry: Entry) -> None:
    """The stored counts of one position are what the game generates now."""
    state = position(*_where(entry))
    found = [perft(state, depth) for depth in range(1, len(entry["counts"]) + 1)]
    assert found == entry["counts"], (
        f"{entry_key(entry)}: move generation changed ({found}, stored {entry['counts']}); if the "
        f"rules change is intended, regenerate with "
        f"python -m candlebox.testing.perft {entry['game']} --write and review the diff"
    )


def check_coverage(game: str) -> None:
    """A new variant or option set gets its perft data (regenerate the file)."""
    stored = {entry_key(e) for e in load(game)}
    missing = sorted({entry_key(e) for e in wanted(game)} - stored)
    assert not missing, f"no perft counts for {missing[:5]} (regenerate the file)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", help="the game id")
    parser.add_argument("--write", action="store_true", help="rewrite the game's counts file")
    args = parser.parse_args(argv)
    path = counts_file(args.game)
    if path is None:
        print(f"{args.game} names no perft counts file (Conformance.perft_counts)")
        return 2
    entries = compute(args.game)
    if args.write:
        about = NOTE.format(game=args.game)
        path.write_text(json.dumps({"about": about, "positions": entries}, indent=1) + "\n")
        print(f"wrote {len(entries)} positions to {path}")
        return 0
    stored = {entry_key(e): e["counts"] for e in load(args.game)}
    bad = [entry_key(e) for e in entries if stored.get(entry_key(e)) != e["counts"]]
    print(f"{len(entries) - len(bad)} of {len(entries)} positions match", *bad, sep="\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
