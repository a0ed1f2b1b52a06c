"""Words for everything: along seeded random games of every game, variant, player count and the options
that add or change components, every code a view, a log or a legal action shows has a name and a text in
``candlebox.components`` for that configuration (issue 14). Codes are read with each game's notation
(``tests/<game>/test_words.py``), not by pattern."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

import candlebox
from tests.candelabria.test_words import shown_codes as candelabria_codes
from tests.candle_quest.test_words import shown_codes as candle_quest_codes
from tests.sixteen_candies.test_words import shown_codes as sixteen_candies_codes

SHOWN: dict[str, Callable[[candlebox.State], set[str]]] = {
    "candle-quest": candle_quest_codes,
    "sixteen-candies": sixteen_candies_codes,
    "candelabria": candelabria_codes,
}
# Options that add or change the components a game can show, by game and variant.
OPTION_SETS: dict[tuple[str, str], list[dict[str, Any]]] = {
    ("candle-quest", "advanced"): [{}, {"dancing": "all"}],
    ("sixteen-candies", "standard"): [{}, {"instant_win": "held", "draw": "optional"}],
    ("candelabria", "standard"): [{}, {"missions": True, "decay": True, "decay_draw": "every"}],
    ("candelabria", "two-player"): [{}, {"missions": True}],
}
CONFIGS = [
    (game, variant.name, players, options)
    for game in candlebox.GAMES
    for variant in candlebox.variants(game)
    for players in variant.players
    for options in OPTION_SETS.get((game, variant.name), [{}])
]
STEPS = 600  # actions per game (Candle Quest and 16 Candies finish sooner; Candelabria reaches War)
VIEW_EVERY = 9  # views are read every few steps; logs keep everything and are read at the end


def _id(config: tuple[str, str, int, dict[str, Any]]) -> str:
    game, variant, players, options = config
    extra = ",".join(f"{k}={v}" for k, v in options.items())
    return f"{game}-{variant}-{players}p" + (f"-{extra}" if extra else "")


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_every_shown_code_has_words(config: tuple[str, str, int, dict[str, Any]]) -> None:
    game, variant, players, options = config
    words = candlebox.components(game, variant, players=players, **options)
    assert all(set(entry) == {"name", "text"} for entry in words.values())
    assert all(entry["name"].strip() and entry["text"].strip() for entry in words.values())
    shown = SHOWN[game]
    for seed in (1, 2):
        state = candlebox.new_game(game, players=players, variant=variant, seed=seed, **options)
        rng = random.Random(seed)
        found: set[str] = set()
        for step in range(STEPS):
            if state.is_over:
                break
            if step % VIEW_EVERY == 0:
                found |= shown(state)
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        found |= shown(state)
        missing = sorted(found - set(words))
        assert not missing, f"{_id(config)} seed {seed}: no words for {missing}"


def test_an_unknown_game_or_variant_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        candlebox.components("chess")
    with pytest.raises(ValueError, match="has no variant 'expert'"):
        candlebox.components("candle-quest", "expert")


def test_without_players_every_player_count_of_the_variant_is_covered() -> None:
    for game in candlebox.GAMES:
        for variant in candlebox.variants(game):
            every = candlebox.components(game, variant.name)
            for players in variant.players:
                assert set(candlebox.components(game, variant.name, players=players)) <= set(every)
