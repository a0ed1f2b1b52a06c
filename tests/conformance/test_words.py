"""Words for everything: along seeded random games of every game, variant, player count and the options
that add or change components (each game's ``Conformance.word_options``), every code a view, a log or
a legal action shows has a name and a text in ``candlebox.components`` for that configuration (issue
14). Codes are read with each game's notation (its ``Conformance.shown_codes``), not by pattern. The
checks are the conformance kit's (candlebox/testing/words.py)."""

from __future__ import annotations

from typing import Any

import pytest

import candlebox
from candlebox.engine import game_ids, game_info
from candlebox.testing import words
from tests.deep import first_of

CONFIGS = [
    (game, *config)
    for game in game_ids()
    if game_info(game).conformance().shown_codes is not None
    for config in words.word_configurations(game)
]


def _id(config: tuple[str, str, int, dict[str, Any]]) -> str:
    game, variant, players, options = config
    extra = ",".join(f"{k}={v}" for k, v in options.items())
    return f"{game}-{variant}-{players}p" + (f"-{extra}" if extra else "")


def test_every_bundled_game_reads_its_shown_codes() -> None:
    for game in candlebox.GAMES:
        assert game_info(game).conformance().shown_codes is not None, game


# each variant and option set at its fewest players by default; the other counts: -m deep (CI)
@pytest.mark.parametrize("config", first_of(CONFIGS, lambda c: (*c[:2], repr(c[3]))), ids=_id)
def test_every_shown_code_has_words(config: tuple[str, str, int, dict[str, Any]]) -> None:
    words.shown_words(*config)


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
