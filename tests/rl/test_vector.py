"""The batched environment: game by game the same observations, masks, players and rewards as the
PettingZoo environment reset with the same seed, auto-reset included; bad actions change nothing."""

from __future__ import annotations

import pytest

from tests.rl.deps import require_rl

require_rl()

import random  # noqa: E402

import numpy as np  # noqa: E402

import candlebox  # noqa: E402
import candlebox.rl  # noqa: E402
import candlebox.rl.vector_processes  # noqa: E402
from candlebox.rl import covered_games  # noqa: E402

SMALL = {"max_turns": 12}  # short games: several auto-resets within the steps compared


def configs() -> list[tuple[str, str, int]]:
    out = []
    for game in covered_games():
        for variant in candlebox.variants(game):
            out.append((game, variant.name, min(variant.players)))
    return out


@pytest.mark.parametrize("config", configs(), ids=lambda c: "{}-{}-{}p".format(*c))
def test_vector_env_matches_the_single_env_game_by_game(config: tuple[str, str, int]) -> None:
    game, variant, players = config
    n = 3
    seeds = [40, 41, 42]
    vec = candlebox.rl.vector_env(game, n, players=players, variant=variant, **SMALL)
    singles = [
        candlebox.rl.pettingzoo_env(game, players=players, variant=variant, **SMALL)
        for _ in range(n)
    ]
    obs, info = vec.reset(seed=seeds)
    for env, seed in zip(singles, seeds, strict=True):
        env.reset(seed=seed)
    assert obs.shape == (n, vec.game_spec.observation_size) and obs.dtype == np.float32
    assert info["action_mask"].shape == (n, vec.game_spec.num_distinct_actions)
    rng = random.Random(7)
    endings = 0
    for _ in range(150):
        actions = np.zeros(n, dtype=np.int64)
        for i, env in enumerate(singles):
            agent = env.agent_selection
            seen = env.observe(agent)
            assert info["current_player"][i] == env.possible_agents.index(agent)
            assert np.array_equal(obs[i], seen["observation"]), (i, env.game.history[-3:])
            assert np.array_equal(info["action_mask"][i], seen["action_mask"])
            assert sorted(vec.legal_ids()[i]) == np.flatnonzero(seen["action_mask"]).tolist()
            actions[i] = rng.choice(np.flatnonzero(seen["action_mask"]).tolist())
        obs, rewards, terminated, truncated, info = vec.step(actions)
        assert rewards.shape == (n, players)
        for i, env in enumerate(singles):
            agent = env.agent_selection
            env.step(int(actions[i]))
            if env.game.is_over:
                endings += 1
                assert info["_final_obs"][i]
                assert terminated[i] == (not env.game.truncated)
                assert truncated[i] == env.game.truncated
                expected = [env.rewards[a] for a in env.possible_agents]
                assert rewards[i].tolist() == pytest.approx(expected)
                assert np.array_equal(info["final_obs"][i], env.observe(agent)["observation"])
                env.reset()  # the single env's next game: the vector env auto-reset to it
            else:
                assert not terminated[i] and not truncated[i] and not rewards[i].any()
    assert endings > 0


def test_an_illegal_action_is_refused_and_changes_no_game() -> None:
    vec = candlebox.rl.vector_env("candle-quest", 2, players=3)
    _obs, info = vec.reset(seed=1)
    histories = [list(g.history) for g in vec.games]
    legal = int(np.flatnonzero(info["action_mask"][0])[0])
    illegal = int(np.flatnonzero(info["action_mask"][1] == 0)[0])
    with pytest.raises(ValueError, match=r"game 1: action .* is illegal"):
        vec.step(np.array([legal, illegal]))
    with pytest.raises(ValueError, match="out of range"):
        vec.step(np.array([legal, 10**6]))
    with pytest.raises(ValueError, match="2 integer action ids"):
        vec.step(np.array([legal]))
    assert [list(g.history) for g in vec.games] == histories


def test_int_seed_seeds_game_i_with_seed_plus_i() -> None:
    a = candlebox.rl.vector_env("sixteen-candies", 2, players=3)
    b = candlebox.rl.vector_env("sixteen-candies", 2, players=3)
    obs_a, _ = a.reset(seed=5)
    obs_b, _ = b.reset(seed=[5, 6])
    assert np.array_equal(obs_a, obs_b)


@pytest.mark.parametrize("game", covered_games())
def test_process_vector_env_equals_the_single_process_one(game: str) -> None:
    """K worker processes writing shared memory give, game by game, the single-process env's
    observations, masks, players, rewards, endings and legal ids, auto-resets included."""
    n = 5
    single = candlebox.rl.vector_env(game, n, players=3, **SMALL)
    multi = candlebox.rl.vector_env(game, n, players=3, processes=2, **SMALL)
    try:
        assert isinstance(multi, candlebox.rl.vector_processes.CandleboxProcessVectorEnv)
        got = [single.reset(seed=11), multi.reset(seed=11)]
        rng = np.random.default_rng(3)
        endings = 0
        for _ in range(60):
            a, b = got
            assert np.array_equal(a[0], b[0])
            assert a[1].keys() == b[1].keys()
            for key in a[1]:
                assert np.array_equal(a[1][key], b[1][key]), key
            assert single.legal_ids() == multi.legal_ids()
            actions = np.array([rng.choice(ids) for ids in single.legal_ids()])
            got = [single.step(actions), multi.step(actions)]
            a, b = got
            for x, y in zip(a[:4], b[:4], strict=True):
                assert np.array_equal(x, y)
            endings += int(a[2].sum() + a[3].sum())
            got = [(a[0], a[4]), (b[0], b[4])]
        assert endings > 0
    finally:
        multi.close()


def test_process_vector_env_refuses_an_illegal_action_and_stops_its_workers() -> None:
    multi = candlebox.rl.vector_env("candle-quest", 4, players=3, processes=2)
    single = candlebox.rl.vector_env("candle-quest", 4, players=3)
    _obs, info = multi.reset(seed=1)
    single.reset(seed=1)
    workers = list(multi._workers)
    assert all(w.is_alive() for w in workers)
    before = info["action_mask"].copy()
    legal = [int(np.flatnonzero(row)[0]) for row in before]
    bad = list(legal)
    bad[3] = int(np.flatnonzero(before[3] == 0)[0])
    with pytest.raises(ValueError, match=r"game 3: action .* is illegal"):
        multi.step(np.array(bad))
    obs, _r, _te, _tr, info = multi.step(np.array(legal))  # no game had moved
    expected, _r, _te, _tr, expected_info = single.step(np.array(legal))
    assert np.array_equal(obs, expected)
    assert np.array_equal(info["action_mask"], expected_info["action_mask"])
    multi.close()
    assert not any(w.is_alive() for w in workers)
    with pytest.raises(ValueError, match="processes must be"):
        candlebox.rl.vector_env("candle-quest", 2, players=3, processes=3)
