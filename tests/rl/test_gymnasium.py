"""The single-agent Gymnasium environment passes gymnasium's check_env."""

from __future__ import annotations

import pytest

from tests.rl.deps import require_rl

require_rl()

import re  # noqa: E402
import warnings  # noqa: E402

import gymnasium as gym  # noqa: E402
import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

import candlebox.rl  # noqa: E402
from candlebox import bots  # noqa: E402
from candlebox.rl import covered_games  # noqa: E402
from candlebox.rl.gymnasium_single import gymnasium_id  # noqa: E402


@pytest.mark.parametrize("game", covered_games())
def test_check_env_passes(game: str) -> None:
    assert gymnasium_id(game) in candlebox.rl.register_gymnasium()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning either
        for seat in (0, 2):
            env = gym.make(gymnasium_id(game), seat=seat, players=3, max_turns=30).unwrapped
            check_env(env)
        env = gym.make(gymnasium_id(game), seat=1, opponents="heuristic", players=2).unwrapped
        check_env(env)


def test_an_episode_against_bots() -> None:
    env = candlebox.rl.gymnasium_env(
        "candle-quest",
        seat=1,
        opponents=["random", bots.make("heuristic", seed=1)],
        players=3,
        max_turns=6,
    )
    obs, info = env.reset(seed=2)
    assert env.observation_space.contains(obs) and info == {}
    assert env.game is not None and env.game.to_act == (1,)
    rng = np.random.default_rng(0)
    total, done = 0.0, False
    while not done:
        assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        done = terminated or truncated
    assert truncated and not terminated  # six turns: the max_turns bound
    share = 1 / len(info["winners"]) if 1 in info["winners"] else 0.0
    assert total == pytest.approx(share)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_illegal_actions_lose_or_raise() -> None:
    env = candlebox.rl.gymnasium_env("candle-quest", seat=0, players=2)
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    strict = candlebox.rl.gymnasium_env("candle-quest", players=2, illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(ValueError, match="not legal"):
        strict.step(illegal)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="seat"):
        candlebox.rl.gymnasium_env("candle-quest", seat=3, players=3)
    with pytest.raises(ValueError, match="2 bots"):
        candlebox.rl.gymnasium_env("candle-quest", players=3, opponents=["random"])
    with pytest.raises(ValueError, match="unknown bot"):
        candlebox.rl.gymnasium_env("candle-quest", opponents="genius")


def test_render_shows_the_learners_view_and_close_ends_the_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from candlebox.rl.render import render_text

    env = candlebox.rl.gymnasium_env("candle-quest", seat=1, players=2, render_mode="ansi")
    with pytest.raises(RuntimeError, match="call reset"):
        env.render()
    env.reset(seed=3)
    assert env.game is not None
    assert env.render() == render_text(env.game, 1)  # the learner's view: its hand, not seat 0's
    assert render_text(env.game, 1) != render_text(env.game, 0)
    assert env.action_text(env.action_id("flip")) == "flip"
    env.close()
    assert env.game is None
    shown = candlebox.rl.gymnasium_env("candle-quest", seat=0, players=2, render_mode="human")
    shown.reset(seed=3)
    capsys.readouterr()  # what the human mode showed of the reset
    assert shown.render() is None
    assert capsys.readouterr().out == render_text(shown.game, 0)
    assert candlebox.rl.gymnasium_env("candle-quest").render() is None  # no render_mode


@pytest.mark.parametrize(
    ("argument", "words"),
    [
        ({"render_mode": "rgb_array"}, "render_mode 'rgb_array' is not one of ['human', 'ansi']"),
        ({"flat": 1}, "flat is True or False, got 1"),
    ],
)
def test_a_bad_render_mode_or_flat_is_named(argument: dict[str, object], words: str) -> None:
    for make in (candlebox.rl.gymnasium_env, candlebox.rl.pettingzoo_env):
        with pytest.raises(ValueError, match=re.escape(words)):
            make("candle-quest", **argument)  # type: ignore[operator]
