"""Typed views (issue 13): a game that declares a view type builds its view as that typed structure,
and ``view(seat)`` is exactly its plain form, for every seat and the spectator, all along a game."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

import candlebox
from candlebox import bots
from candlebox.engine import Rng, game_info

TYPED = [game for game in candlebox.GAMES if game_info(game).view_type() is not None]
CONFIGS = [
    (game, variant.name, players)
    for game in TYPED
    for variant in game_info(game).variants
    for players in variant.players
]
STEPS = 400  # enough for several rounds and, with the bots, the end of most games


def _id(config: tuple[str, str, int]) -> str:
    return "-".join(map(str, config))


def check_views(state: candlebox.State) -> None:
    view_type = game_info(state.game_id).view_type()
    assert view_type is not None
    for seat in [None, *range(state.num_players)]:
        typed = state.typed_view(seat)
        assert isinstance(typed, view_type)
        plain = state.view(seat)
        assert msgspec.to_builtins(typed) == plain
        # The same keys in the same order, so the JSON a page receives is unchanged too.
        assert json.dumps(msgspec.to_builtins(typed)) == json.dumps(plain)


def test_every_game_has_a_typed_view() -> None:
    assert {"candle-quest", "sixteen-candies", "candelabria"} <= set(TYPED)


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_typed_view_is_the_view(config: tuple[str, str, int]) -> None:
    game, variant, players = config
    for seed, mix in ((1, 0), (2, 3)):  # bots only; one move in three at random
        state = candlebox.new_game(game, players=players, variant=variant, seed=seed)
        robots = [bots.make("heuristic", seed=seed + seat) for seat in range(players)]
        rng = Rng(seed)
        for _ in range(STEPS):
            check_views(state)
            if state.is_over:
                break
            seat = state.to_act[0]
            actions = state.legal_actions(seat)
            if mix and rng.below(mix) == 0:
                action = actions[rng.below(len(actions))]
            else:
                action = robots[seat].choose(state, seat)
            state.apply(seat, action)


@pytest.mark.parametrize("game", TYPED)
def test_finished_games_have_typed_views(game: str) -> None:
    state = candlebox.new_game(game, players=2, seed=5)
    robot = bots.make("heuristic", seed=5)
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, robot.choose(state, seat))
    check_views(state)
    assert state.typed_view(None).winners == list(state.winners)


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
