"""The shared conformance test every game meets (after OpenSpiel's random_sim_test): the conformance
kit's contract part (candlebox/testing/contract.py) for every registered game, variant and player
count, with each game's own invariants and story from its plug-in (``Conformance``).

The registry is read when the tests are collected, so a game registered by a plug-in is checked too.
The README's test command runs what ``candlebox check --quick`` does (the first seed, at each
variant's fewest and most players); the other seeds and player counts are marked ``deep`` (CI's
second step, tests/deep.py).
"""

from __future__ import annotations

import random

import pytest

import candlebox
from candlebox.engine import game_ids, game_info
from candlebox.testing import contract
from tests.deep import ends, split

CONFIGS = [
    (game, variant, players)
    for game in game_ids()
    for variant, players in contract.configurations(game)
]
QUICK = ends(CONFIGS, lambda config: config[:2], lambda config: config[2])
CASES = split(
    [(config, seed) for config in CONFIGS for seed in contract.SEEDS],
    lambda case: case[0] in QUICK and case[1] == contract.SEEDS[0],
    unpack=True,
)


def _ids(value: tuple[str, str, int] | int) -> str:
    return "{}-{}-{}p".format(*value) if isinstance(value, tuple) else f"seed{value}"


@pytest.mark.parametrize(("config", "seed"), CASES, ids=_ids)
def test_random_games(config: tuple[str, str, int], seed: int) -> None:
    contract.random_games(*config, seeds=(seed,))


@pytest.mark.parametrize(("config", "seed"), CASES, ids=_ids)
def test_heuristic_games(config: tuple[str, str, int], seed: int) -> None:
    """Bots that finish games, so the natural ends are checked too."""
    if game_info(config[0]).policy() is None:
        pytest.skip(f"{config[0]} has no heuristic")
    contract.heuristic_games(*config, seeds=(seed,))


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=_ids)
def test_random_games_long(config: tuple[str, str, int]) -> None:
    contract.long_random_games(*config)


def test_round_trips_cost_time_in_proportion_to_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """A round trip replays the whole history (loading is a replay; resample copies it): run every
    23 steps, a long game's checks grew with the square of its length. At fixed points a quarter
    apart, the histories replayed sum to a few times the game's length."""
    replayed: list[int] = []
    real = contract.check_round_trips

    def counting(state: candlebox.State, rng: random.Random) -> None:
        replayed.append(len(state.history))
        real(state, rng)

    monkeypatch.setattr(contract, "check_round_trips", counting)
    state = contract.play_checked("sixteen-candies", "standard", 2, 1, "random", pool=200)
    length = len(state.history)
    assert length > 600, length
    assert sum(replayed) < 6 * length, (length, sum(replayed), len(replayed))


def test_registry_facts() -> None:
    assert "candle-quest" in candlebox.GAMES
    for game in game_ids():
        contract.registry_facts(game)
    for game in candlebox.GAMES:  # the bundled games all take a deck and a first player
        for variant in candlebox.variants(game):
            assert {"deck", "first_player", "max_turns"} <= {o.name for o in variant.options} or {
                "decks",
                "first_player",
                "max_turns",
            } <= {o.name for o in variant.options}


def test_new_game_validation() -> None:
    with pytest.raises(ValueError, match="unknown game"):
        candlebox.new_game("chess")
    with pytest.raises(ValueError, match="players"):
        candlebox.new_game("candle-quest", players=6)
    with pytest.raises(ValueError, match="unknown option"):
        candlebox.new_game("candle-quest", players=2, colour="blue")
    with pytest.raises(ValueError, match="max_turns"):
        candlebox.new_game("candle-quest", players=2, max_turns=0)
    with pytest.raises(ValueError, match="variant"):
        candlebox.new_game("candle-quest", players=2, variant="expert")
