"""Candelabria's typed view: its plain form is the plain view as it has always been built (compared with
a frozen copy of the old builder along random games of every configuration), and it has the
documented keys."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from candlebox.engine import game_info
from candlebox.games import candelabria
from candlebox.games.candelabria.views import CandelabriaView, FinishedView
from tests.candelabria import legacy_view
from tests.deep import split

CONFIGS: list[tuple[int, dict[str, Any]]] = [
    (3, {}),
    (4, {"missions": True}),
    (5, {"decay": True}),
    (4, {"decay": True, "decay_draw": "every", "missions": True}),
    (3, {"warrior_push": "optional", "castle_entry": "optional", "upgrade_pile": 4}),
    (4, {"battle_shift": "none", "max_turns": 25}),
    (2, {}),
    (2, {"missions": True}),
    (2, {"warrior_push": "optional", "battle_shift": "none"}),
]


@pytest.mark.parametrize(
    ("players", "options", "seed"),  # the second seed's games: -m deep (CI's second step)
    split([(*config, seed) for config in CONFIGS for seed in range(2)], lambda c: c[2] == 0, True),
)
def test_typed_view_is_the_old_plain_view_along_random_games(
    players: int, options: dict[str, Any], seed: int
) -> None:
    state = candelabria.new_game(players=players, seed=seed, **options)
    rng = random.Random(seed)
    step = 0
    while True:
        if step % 5 == 0 or state.is_over:
            for seat in (None, *range(players)):
                typed = state.typed_view(seat)
                assert isinstance(typed, CandelabriaView)
                assert isinstance(typed, FinishedView) == state.is_over
                old = legacy_view.view(state, seat)
                assert msgspec.to_builtins(typed) == old
                assert state.view(seat) == old
                assert list(state.view(seat)) == list(old), "keys keep their order"
                assert state.pending() == legacy_view.pending(state, None)
        if state.is_over:
            break
        seat = state.to_act[0]
        actions = state.legal_actions(seat)
        state.apply(seat, actions[rng.randrange(len(actions))])
        step += 1


TOP_KEYS = {
    "game", "variant", "players", "seat", "side", "year", "season", "turn", "max_turns", "order",
    "active", "pending", "regions", "territories", "curses", "curse_models", "battles_left",
    "battle", "curse_deck", "tactics_board", "tactics_deck", "upgrade_piles", "temples_left",
    "advanced_deck", "reserve", "seats", "over",
}  # fmt: skip
SEAT_KEYS = {
    "seat", "house", "name", "vp", "gold", "wax", "land_flames", "candle_flames", "castle",
    "candles", "deployed", "maneuvered", "upgrades", "tactics", "tactics_used", "hand_size",
    "territories",
}  # fmt: skip


def test_plain_view_has_the_documented_keys() -> None:
    state = candelabria.new_game(players=4, seed=3, missions=True, decay=True)
    view = state.view(1)
    assert set(view) == TOP_KEYS | {"missions", "decay_deck"}
    assert set(view["seats"][1]) == SEAT_KEYS | {"decay", "hand"}
    assert set(view["seats"][0]) == SEAT_KEYS | {"decay", "known_hand"}
    assert set(view["territories"][0]) <= {
        "territory", "region", "icon", "land_flames", "castle", "candles",
    }  # fmt: skip
    assert set(view["pending"]) >= {"decision", "seats"}
    plain = candelabria.new_game(players=3, seed=3)
    assert set(plain.view(None)) == TOP_KEYS
    rng = random.Random(0)
    while not plain.is_over:
        seat = plain.to_act[0]
        actions = plain.legal_actions(seat)
        plain.apply(seat, actions[rng.randrange(len(actions))])
    assert set(plain.view(None)) == TOP_KEYS | {"winners", "scores", "end_reason", "truncated"}


def test_the_plug_in_declares_the_typed_view() -> None:
    info = game_info("candelabria")
    assert info.view_type() is CandelabriaView
    state = candelabria.new_game(players=3, seed=1)
    assert isinstance(info.viewer()(state, 0), CandelabriaView)
