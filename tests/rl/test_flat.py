"""The flat observation option: the view and the action mask in one Box, so that standard
wrappers (SuperSuit's flatten_v0 and dtype_v0, Gymnasium's FlattenObservation) take the envs."""

from __future__ import annotations

import warnings

import pytest

from tests.rl.deps import require_rl

require_rl()

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from gymnasium.wrappers import FlattenObservation  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

import candlebox.rl  # noqa: E402
from candlebox.rl import covered_games  # noqa: E402
from candlebox.rl.flat import split  # noqa: E402

SHORT = {"max_turns": 20}


@pytest.mark.parametrize("game", covered_games())
def test_the_flat_pettingzoo_observation_is_the_view_then_the_mask(game: str) -> None:
    plain = candlebox.rl.pettingzoo_env(game, players=3, **SHORT)
    flat = candlebox.rl.pettingzoo_env(game, players=3, flat=True, **SHORT)
    space = flat.observation_space("player_0")
    spec = flat.game_spec
    assert space.shape == (spec.observation_size + spec.num_distinct_actions,)
    assert space.dtype == np.float32
    plain.reset(seed=4)
    flat.reset(seed=4)
    rng = np.random.default_rng(1)
    for _ in range(15):
        agent = flat.agent_selection
        if flat.terminations[agent] or flat.truncations[agent]:
            break
        whole = flat.observe(agent)
        parts = plain.observe(agent)
        assert space.contains(whole)
        view, mask = split(spec, whole)
        np.testing.assert_array_equal(view, parts["observation"])
        np.testing.assert_array_equal(mask, parts["action_mask"])
        np.testing.assert_array_equal(flat.infos[agent]["action_mask"], mask)
        action = int(rng.choice(np.flatnonzero(mask)))
        flat.step(action)
        plain.step(action)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(candlebox.rl.pettingzoo_env(game, players=2, flat=True, **SHORT), num_cycles=60)


def test_supersuit_flatten_and_dtype_take_the_flat_env() -> None:
    supersuit = pytest.importorskip("supersuit", reason="supersuit is not installed (test extra)")
    env = candlebox.rl.pettingzoo_env("candle-quest", players=2, flat=True, **SHORT)
    wrapped = supersuit.dtype_v0(supersuit.flatten_v0(env), np.float64)
    spec = env.game_spec
    wrapped.reset(seed=2)
    moves = 0
    for agent in wrapped.agent_iter(max_iter=400):
        observation, _reward, terminated, truncated, _info = wrapped.last()
        assert observation.dtype == np.float64
        assert wrapped.observation_space(agent).contains(observation)
        if terminated or truncated:
            wrapped.step(None)
            continue
        _view, mask = split(spec, observation)
        wrapped.step(int(np.flatnonzero(mask)[0]))
        moves += 1
    assert moves > 10


@pytest.mark.parametrize("game", covered_games())
def test_the_flat_gymnasium_env_passes_check_env_and_flattens(game: str) -> None:
    env = candlebox.rl.gymnasium_env(game, players=2, flat=True, **SHORT)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)
    plain = candlebox.rl.gymnasium_env(game, players=2, **SHORT)
    whole, _ = env.reset(seed=9)
    parts, _ = plain.reset(seed=9)
    view, mask = split(env.game_spec, whole)
    np.testing.assert_array_equal(view, parts["observation"])
    np.testing.assert_array_equal(mask, env.action_masks().astype(np.int8))
    flattened = FlattenObservation(env)
    again, _ = flattened.reset(seed=9)
    np.testing.assert_array_equal(again, whole)  # already flat: the wrapper changes nothing
    step, *_ = flattened.step(int(np.flatnonzero(mask)[0]))
    assert flattened.observation_space.contains(step)


def test_a_flat_option_that_is_not_a_bool_and_a_wrong_length_are_refused() -> None:
    with pytest.raises(ValueError, match="flat is True or False"):
        candlebox.rl.pettingzoo_env("candle-quest", flat="yes")
    with pytest.raises(ValueError, match="flat is True or False"):
        candlebox.rl.gymnasium_env("candle-quest", flat=1)
    spec = candlebox.rl.Spec.make("candle-quest")
    with pytest.raises(ValueError, match="has 700 values, got 3"):
        split(spec, np.zeros(3, np.float32))
