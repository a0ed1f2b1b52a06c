"""Perft: each game's move-generation counts (the file its ``Conformance.perft_counts`` names),
recomputed by the conformance kit (candlebox/testing/perft.py) for every registered game. The
README's test command recomputes what ``candlebox check --quick`` does (the first seed's positions
up to step 10); the rest are marked ``deep`` (CI's second step, tests/deep.py)."""

from __future__ import annotations

from typing import Any

import pytest

import candlebox
from candlebox.engine import game_ids
from candlebox.testing import perft
from tests.deep import split

STORED = split(
    [entry for game in game_ids() for entry in perft.load(game)],
    lambda entry: entry["seed"] == perft.SEEDS[0] and entry["steps"] <= 10,
)


@pytest.mark.parametrize("entry", STORED, ids=perft.entry_key)
def test_perft_counts_match_the_data(entry: dict[str, Any]) -> None:
    perft.check_entry(entry)


@pytest.mark.parametrize("game", game_ids())
def test_every_configuration_has_counts(game: str) -> None:
    """A new game, variant or option set gets its perft data (regenerate the file)."""
    if perft.counts_file(game) is None:
        pytest.skip(f"{game} keeps no perft counts")
    perft.check_coverage(game)


def test_every_bundled_game_keeps_counts() -> None:
    assert all(perft.counts_file(game) is not None for game in candlebox.GAMES)


def test_a_changed_count_is_named() -> None:
    entry = dict(perft.load("sixteen-candies")[0])
    entry["counts"] = [c + 1 for c in entry["counts"]]
    with pytest.raises(AssertionError, match="move generation changed"):
        perft.check_entry(entry)


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
