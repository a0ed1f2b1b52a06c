"""Candelabria's state reader keeps each state's last observation and writes again only what changed
(candlebox/games/candelabria/encoder/state_reader.py, ``_canvas``).
Whatever order states are read in — several
games at once, clones that go their own way, an older state read again, the seats taking turns, a
caller that scribbles over what it was given — every observation must be the encoding of the seat's
view."""

from __future__ import annotations

import pytest

from tests.rl.deps import require_rl

require_rl()

import copy  # noqa: E402
import pickle  # noqa: E402
import random  # noqa: E402

import numpy as np  # noqa: E402

from candlebox.engine import State  # noqa: E402
from candlebox.rl import Spec  # noqa: E402

GAME = "candelabria"
CONFIGS = [
    ("standard", 3, {}),
    ("two-player", 2, {"missions": True}),  # the house choice, then the missions
    ("standard", 5, {"decay": True, "missions": True, "max_turns": 30}),
]


def _same_as_view(spec: Spec, state: State, seat: int, out: np.ndarray) -> None:
    got = spec.observe(state, seat, out)
    expected = spec.observe_view(state, seat)
    if not np.array_equal(got, expected):
        wrong = [
            name
            for name, start, length in spec.encoder.fields()
            if not np.array_equal(got[start : start + length], expected[start : start + length])
        ]
        pytest.fail(f"seat {seat}: fields differ from the view's encoding: {wrong}")


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c[0]}-{c[1]}p-{sorted(c[2])}")
def test_interleaved_games_and_clones_read_as_their_views(config: tuple) -> None:
    variant, players, options = config
    spec = Spec.make(GAME, players, variant, **options)
    rng = random.Random(7)
    games: list[State] = [spec.config.new_game(seed) for seed in range(3)]
    kept: list[State] = []  # states left behind: read again later, unchanged
    out = np.full(spec.observation_size, 3.0, dtype=np.float32)
    for step in range(600):
        i = rng.randrange(len(games))
        state = games[i]
        if state.is_over:
            games[i] = spec.config.new_game(100 + step)
            continue
        # a seat that may or may not be the one to act
        _same_as_view(spec, state, rng.randrange(players), out)
        if step % 25 == 0:  # a clone goes its own way; the original is kept as it is
            kept.append(state)
            games[i] = state = state.clone()
        if kept and step % 7 == 0:
            old = rng.choice(kept)
            _same_as_view(spec, old, rng.randrange(players), out)
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        _same_as_view(spec, state, seat, out)


def test_a_caller_writing_over_its_observation_changes_nothing() -> None:
    spec = Spec.make(GAME, 3)
    state = spec.config.new_game(3)
    rng = random.Random(3)
    for _ in range(120):
        seat = state.to_act[0]
        given = spec.observe(state, seat)
        given[:] = 0.5  # the caller's array, not the reader's
        row = np.zeros(spec.observation_size, dtype=np.float32)
        spec.observe(state, seat, row)
        row[::2] = 1.0
        _same_as_view(spec, state, seat, np.zeros(spec.observation_size, dtype=np.float32))
        state.apply(seat, rng.choice(state.legal_actions(seat)))


def test_fill_state_writes_the_whole_observation() -> None:
    """``fill_state`` into an array that holds anything writes every number (the contract is a
    zeroed array; the reader does not rely on it)."""
    spec = Spec.make(GAME, 4)
    state = spec.config.new_game(5)
    rng = random.Random(5)
    for _ in range(60):
        seat = state.to_act[0]
        out = np.full(spec.observation_size, 9.0, dtype=np.float32)
        spec.encoder.fill_state(state, seat, out)
        assert np.array_equal(out, spec.observe_view(state, seat))
        state.apply(seat, rng.choice(state.legal_actions(seat)))


def test_an_encoder_that_has_read_states_pickles_and_copies() -> None:
    """An environment is copied or pickled with its spec (``copy.deepcopy``, a process pool): the
    reader's caches hold memoryviews, which do not pickle, and are left behind."""
    spec = Spec.make(GAME, 3)
    state = spec.config.new_game(4)
    rng = random.Random(4)
    for _ in range(40):
        seat = state.to_act[0]
        spec.observe(state, seat)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    for other in (pickle.loads(pickle.dumps(spec)), copy.deepcopy(spec)):
        for seat in range(3):
            assert np.array_equal(other.observe(state, seat), spec.observe_view(state, seat))
