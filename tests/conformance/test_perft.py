"""Perft: the move-generation counts in perft.json, recomputed (see tests/conformance/perft.py)."""

from __future__ import annotations

from typing import Any

import pytest

import candlebox
from tests.conformance import perft

STORED = perft.load()


@pytest.mark.parametrize("entry", STORED, ids=perft.entry_key)
def test_perft_counts_match_the_data(entry: dict[str, Any]) -> None:
    state = perft.position(
        entry["game"],
        entry["variant"],
        entry["players"],
        entry["options"],
        entry["seed"],
        entry["steps"],
    )
    found = [perft.perft(state, depth) for depth in range(1, len(entry["counts"]) + 1)]
    assert found == entry["counts"], (
        "move generation changed; if the rules change is intended, regenerate with "
        "python -m tests.conformance.perft --write and review the diff"
    )


def test_every_configuration_has_counts() -> None:
    """A new game, variant or option set gets its perft data (regenerate the file)."""
    stored = {perft.entry_key(e) for e in STORED}
    wanted = {
        perft.entry_key(
            {"game": g, "variant": v, "players": p, "options": o, "seed": seed, "steps": steps}
        )
        for g, v, p, o in perft.configs()
        for seed in perft.SEEDS
        for steps in perft.STEPS + perft.LATER_STEPS.get(g, ())
    }
    assert wanted <= stored, sorted(wanted - stored)[:5]


def test_perft_counts_sequences_and_branches_on_every_seat_to_act() -> None:
    """Depth 1 is the number of legal actions over every seat that acts; depth 2 sums depth 1 over
    the children (checked by hand on a 16 Candies deal and a Candelabria secret choice)."""
    state = candlebox.new_game("sixteen-candies", players=2, seed=3)
    seat = state.to_act[0]
    assert perft.perft(state, 1) == len(state.legal_actions(seat))
    total = 0
    for action in state.legal_actions(seat):
        child = state.clone()
        child.apply(seat, action)
        total += perft.perft(child, 1)
    assert perft.perft(state, 2) == total
    war = perft.position("candelabria", "standard", 3, {}, 2, 350)
    assert len(war.to_act) >= 1
    assert perft.perft(war, 1) == sum(len(war.legal_actions(s)) for s in war.to_act)
