"""Typed views (issue 13): a game that declares a view type builds its view as that typed structure,
and ``view(seat)`` is exactly its plain form, for every seat and the spectator, all along a game (the
conformance kit's check, candlebox/testing/views.py, on every registered game)."""

from __future__ import annotations

from typing import Any

import pytest

import candlebox
from candlebox.engine import game_ids, game_info
from candlebox.testing import contract, views
from tests.deep import first_of

TYPED = [game for game in game_ids() if game_info(game).view_type() is not None]
CONFIGS = [(game, *config) for game in TYPED for config in contract.configurations(game)]


def _id(config: tuple[str, str, int]) -> str:
    return "-".join(map(str, config))


def test_every_game_has_a_typed_view() -> None:
    assert {"candle-quest", "sixteen-candies", "candelabria"} <= set(TYPED)


# each variant at its fewest players by default; the other counts: -m deep (CI's second step)
@pytest.mark.parametrize("config", first_of(CONFIGS, lambda c: c[:2]), ids=_id)
def test_typed_view_is_the_view(config: tuple[str, str, int]) -> None:
    views.typed_view_is_the_view(*config)


@pytest.mark.parametrize("game", TYPED)
def test_finished_games_have_typed_views(game: str) -> None:
    views.finished_game_has_typed_views(game)


@pytest.mark.parametrize("game", TYPED)
def test_a_bad_seat_is_refused(game: str) -> None:
    state = candlebox.new_game(game, players=2, seed=1)
    for seat in (2, -1, True, "0"):
        with pytest.raises(ValueError, match="not a seat"):
            state.typed_view(seat)  # type: ignore[arg-type]


def test_a_game_without_a_view_type_reads_plain_views() -> None:
    plain: list[Any] = [game for game in candlebox.GAMES if game not in TYPED]
    for game in plain:
        state = candlebox.new_game(game, players=game_info(game).variants[0].min_players, seed=1)
        with pytest.raises(TypeError, match="no typed view"):
            state.typed_view(0)
        assert game_info(game).viewer()(state, 0) == state.view(0)
    for game in TYPED:
        state = candlebox.new_game(game, players=2, seed=1)
        assert game_info(game).viewer()(state, 1) == state.typed_view(1)
