"""A game's RL encoding (its ``encoding`` capability), checked along seeded games: the action
numbering is fixed per configuration and round-trips, masks are the legal actions, observations are
float32 vectors of the declared size in [0, 1], games end within the declared length, rewards share
one win among the winners, and worlds a seat cannot tell apart (the engine's ``resample``) encode
identically for that seat. Needs the ``rl`` extra (numpy, gymnasium)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np

import candlebox
from candlebox.engine import game_info
from candlebox.rl import Spec, rewards
from candlebox.testing import contract

SHORT = 25  # turns: short games (the numbering does not depend on the length)
TWIN_STEPS = 60


def configurations(game: str) -> list[tuple[str, int]]:
    """Every variant at every player count (none for a game without an encoding)."""
    info = game_info(game)
    if info.capabilities.encoding is None:
        return []
    return [(variant.name, players) for variant in info.variants for players in variant.players]


def numbering_masks_and_observations(
    game: str,
    variant: str,
    players: int,
    options: dict[str, Any] | None = None,
    seeds: range = range(3),
) -> None:
    options = contract.bounded(game, variant, SHORT) if options is None else options
    spec = Spec.make(game, players, variant, **options)
    numbering = spec.actions
    n = numbering.num_distinct_actions
    assert len(set(numbering.texts)) == n
    for number in (0, n // 2, n - 1):
        assert numbering.to_id(numbering.to_text(number)) == number
    assert numbering.to_text(np.int64(0)) == numbering.texts[0]  # type: ignore[arg-type]
    # the numbering is fixed for the configuration: the same texts, whatever the game in play
    assert Spec.make(game, players, variant, **options).actions.texts == numbering.texts
    for seed in seeds:
        rng = random.Random(seed)
        state = candlebox.new_game(game, players=players, variant=variant, seed=seed, **options)
        steps = 0
        while not state.is_over:
            for seat in range(players):
                mask = numbering.mask(state, seat)
                legal = state.legal_actions(seat)
                assert mask.dtype == np.int8 and mask.shape == (n,)
                assert int(mask.sum()) == len(legal)
                assert sorted(numbering.texts[i] for i in np.flatnonzero(mask)) == sorted(legal)
                obs = spec.observe(state, seat)
                assert obs.dtype == np.float32 and obs.shape == (spec.observation_size,)
                assert obs.min() >= 0.0 and obs.max() <= 1.0
            seat = state.to_act[0]
            action = numbering.to_text(rng.choice(numbering.legal_ids(state, seat)))
            state.apply(seat, action)
            steps += 1
        assert steps <= spec.max_game_length
        shares = rewards(state)
        assert abs(sum(shares) - (1.0 if state.winners else 0.0)) < 1e-9
        assert all(abs(shares[w] - 1 / len(state.winners)) < 1e-9 for w in state.winners)


def observation_depends_on_the_view_alone(game: str, variant: str, players: int) -> None:
    """Worlds a seat cannot tell apart (the engine's resample) encode identically for that seat."""
    short = contract.bounded(game, variant, SHORT)
    spec = Spec.make(game, players, variant, **short)
    rng = random.Random(5)
    state = candlebox.new_game(game, players=players, variant=variant, seed=5, **short)
    checked = 0
    while not state.is_over and checked < TWIN_STEPS:
        for seat in range(players):
            twin = state.resample(seat, rng.getrandbits(32))
            assert twin.view(seat) == state.view(seat)
            assert np.array_equal(spec.observe(twin, seat), spec.observe(state, seat))
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        checked += 1
