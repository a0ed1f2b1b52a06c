"""candlebox.rl.jax, what every game with JAX rules (its ``jax`` capability) does alike: the spaces
are the PettingZoo env's, an illegal action raises eagerly and changes nothing under jit, ``check``
finds a rule changed on purpose, and a player count the game does not allow is refused. Each game's
own rules and corners are in its file (tests/rl/test_jax.py for 16 Candies,
tests/rl/test_jax_candle_quest.py)."""

from __future__ import annotations

import pytest

from tests.rl.deps import require_rl

require_rl()
pytest.importorskip("jax", reason="jax is not installed: pip install 'candlebox[jax]'")

import jax  # noqa: E402
import numpy as np  # noqa: E402

import candlebox  # noqa: E402
import candlebox.rl  # noqa: E402
import candlebox.rl.jax as rljax  # noqa: E402
from tests.deep import split  # noqa: E402

GAMES = rljax.covered_games()


def fewest(game: str) -> int:
    """The fewest players of the game's first variant."""
    return min(candlebox.variants(game)[0].players)


def _configurations(game: str) -> int:
    return sum(len(variant.players) for variant in candlebox.variants(game))


# Every configuration compiles anew (Candle Quest's step for about half a minute on 2 cores): the
# README's run keeps the game with the fewest configurations (16 Candies: one variant), CI's second
# step (-m deep) every other.
QUICK = min(GAMES, key=_configurations)


def _quick(game: str) -> bool:
    return game == QUICK


def configs() -> list[tuple[str, str, int]]:
    """Every variant of every game with JAX rules at every player count it allows."""
    return [
        (game, variant.name, players)
        for game in GAMES
        for variant in candlebox.variants(game)
        for players in variant.players
    ]


@pytest.mark.parametrize(
    ("game", "variant", "players"),
    split(configs(), lambda config: _quick(config[0]), unpack=True),
)
def test_spaces_match_the_pettingzoo_env(game: str, variant: str, players: int) -> None:
    spec = candlebox.rl.spec(game, players, variant=variant)
    env = rljax.make(game, players, variant)
    state = jax.jit(env.init)(jax.random.key(0))
    assert state.observation.shape == (spec.observation_size,)
    assert state.legal_action_mask.shape == (spec.num_distinct_actions,)
    assert state.rewards.shape == (players,)
    assert env.observe(state, players - 1).shape == (spec.observation_size,)


@pytest.mark.parametrize("game", split(GAMES, _quick))
def test_an_illegal_action_raises_eagerly_and_changes_nothing_under_jit(game: str) -> None:
    env = rljax.make(game, fewest(game))
    state = jax.jit(env.init)(jax.random.key(5))
    illegal = int(np.flatnonzero(~np.asarray(state.legal_action_mask))[0])
    with pytest.raises(ValueError, match=f"action {illegal} is not legal for seat"):
        env.step(state, illegal, jax.random.key(1))
    with pytest.raises(ValueError, match="out of range"):
        env.step(state, 10**6, jax.random.key(1))
    after = jax.jit(env.step)(state, illegal, jax.random.key(1))
    for before, now in zip(
        jax.tree_util.tree_leaves(state), jax.tree_util.tree_leaves(after), strict=True
    ):
        assert np.array_equal(np.asarray(before), np.asarray(now))


@pytest.mark.parametrize("game", split(GAMES, _quick))
def test_check_reports_a_difference(game: str) -> None:
    """A JAX rule changed on purpose (the observation's first field read wrongly): check finds it
    and names the field."""
    spec = candlebox.rl.spec(game, fewest(game))
    env = rljax._env(spec.config)
    original = env._observe
    name, start, _ = spec.encoder.fields()[0]

    def wrong(state, seat):  # type: ignore[no-untyped-def]
        return original(state, seat).at[start].add(0.25)

    env._observe = wrong  # this env object only
    engine = spec.config.new_game(1)
    found = rljax._differences(
        spec,
        engine,
        jax.jit(env.init_dealt)(env.engine_pile(engine)),
        jax.jit(env.observe_all),
        False,
    )
    assert any(f"observation of seat 0: {name}" in problem for problem in found), found


@pytest.mark.parametrize("game", GAMES)
def test_a_player_count_the_game_does_not_allow_is_refused(game: str) -> None:
    most = max(max(variant.players) for variant in candlebox.variants(game))
    with pytest.raises(ValueError, match="players"):
        rljax.make(game, most + 1)
