"""The PettingZoo AEC environment passes PettingZoo's own api_test and seed_test, unmodified."""

from __future__ import annotations

import pytest

from tests.rl.deps import require_rl

require_rl()

import warnings  # noqa: E402

import numpy as np  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import candlebox  # noqa: E402
import candlebox.rl  # noqa: E402
from candlebox.rl import covered_games  # noqa: E402

CONFIGS = [
    (game, variant.name, players)
    for game in covered_games()
    for variant in candlebox.variants(game)
    for players in sorted({variant.min_players, variant.max_players})
]


def _quiet(fn, *args, **kwargs):
    """PettingZoo's tests warn that a dict observation is not a Box (as for its own classic games)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*(NumPy array|probably should be).*")
        return fn(*args, **kwargs)


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "{}-{}-{}p".format(*c))
def test_api_and_seed_tests_pass(config: tuple[str, str, int]) -> None:
    game, variant, players = config

    def make() -> candlebox.rl.pettingzoo_aec.CandleboxAECEnv:
        return candlebox.rl.pettingzoo_env(game, players=players, variant=variant, max_turns=30)

    _quiet(api_test, make(), num_cycles=200)
    _quiet(seed_test, make, num_cycles=200)


def test_candelabria_with_its_options_passes_too() -> None:
    def make() -> candlebox.rl.pettingzoo_aec.CandleboxAECEnv:
        return candlebox.rl.pettingzoo_env(
            "candelabria", players=4, missions=True, decay=True, max_turns=30
        )

    _quiet(api_test, make(), num_cycles=200)
    _quiet(seed_test, make, num_cycles=200)


def test_candelabria_secret_choices_are_asked_in_turn_seeing_nothing_of_the_earlier() -> None:
    """The real game's battle: every participant is asked in the order of ``to_act`` (turn order),
    and a later chooser observes the same whatever an earlier one chose."""
    env = candlebox.rl.pettingzoo_env("candelabria", players=3)
    env.reset(seed=6)
    rng = np.random.default_rng(1)
    while not (env.game.pending()["decision"] == "secret" and len(env.game.to_act) >= 2):
        obs, *_ = env.last()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    first, second = env.game.to_act[:2]
    assert env.agent_selection == f"player_{first}"
    legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
    seen = []
    for choice in (legal[0], legal[-1]):
        twin = candlebox.rl.pettingzoo_env("candelabria", players=3)
        twin.reset(seed=6)
        for seat, text in env.game.history:
            assert twin.agent_selection == f"player_{seat}"
            twin.step(twin.action_id(text))
        twin.step(int(choice))
        assert twin.agent_selection == f"player_{second}"
        obs = twin.observe(f"player_{second}")
        seen.append((obs["observation"].copy(), obs["action_mask"].copy()))
    assert np.array_equal(seen[0][0], seen[1][0]) and np.array_equal(seen[0][1], seen[1][1])


def test_the_secret_choices_game_passes_too(secret_numbers: str) -> None:
    _quiet(api_test, candlebox.rl.pettingzoo_env(secret_numbers, players=3), num_cycles=100)
    _quiet(seed_test, lambda: candlebox.rl.pettingzoo_env(secret_numbers, players=3))


def test_simultaneous_seats_are_asked_in_turn_seeing_nothing_of_the_earlier_choices(
    secret_numbers: str,
) -> None:
    seen = []
    for first in ("pick 1", "pick 3"):
        env = candlebox.rl.pettingzoo_env(secret_numbers, players=3)
        env.reset(seed=4)
        assert env.agent_selection == "player_0"
        env.step(env.action_id(first))
        assert env.agent_selection == "player_1"
        obs = env.observe("player_1")
        seen.append((obs["observation"].copy(), obs["action_mask"].copy()))
    assert np.array_equal(seen[0][0], seen[1][0]) and np.array_equal(seen[0][1], seen[1][1])


def test_a_whole_game_rewards_the_winners_and_reports_truncation() -> None:
    env = candlebox.rl.pettingzoo_env("candle-quest", players=3, max_turns=5)
    env.reset(seed=11)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    ended = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            ended[agent] = (terminated, truncated, info)
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert set(ended) == set(env.possible_agents) and env.agents == []
    assert all(trunc and not term for term, trunc, _ in ended.values())  # max_turns: truncation
    winners = ended["player_0"][2]["winners"]
    assert winners
    assert sum(totals.values()) == pytest.approx(1.0)
    for agent, total in totals.items():
        assert total == pytest.approx(1 / len(winners) if agent in winners else 0.0)


def test_illegal_actions_are_refused_and_render_is_text() -> None:
    env = candlebox.rl.pettingzoo_env("candle-quest", players=2, render_mode="ansi")
    env.reset(seed=3)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="illegal"):
        env.step(illegal)
    with pytest.raises(ValueError, match="out of range"):
        env.step(10**6)
    text = env.render()
    assert isinstance(text, str) and "Candle Quest" in text
    assert env.action_text(env.action_id("flip")) == "flip"
    env.close()


def test_unknown_configuration_is_refused_clearly() -> None:
    with pytest.raises(ValueError, match="not 9"):
        candlebox.rl.pettingzoo_env("candle-quest", players=9)
    with pytest.raises(ValueError, match="unknown option"):
        candlebox.rl.pettingzoo_env("candle-quest", colour="blue")


def test_one_encoding_per_step_handed_out_as_copies() -> None:
    """``last`` and ``observe`` share one encoding per step (the encoder runs once), every step
    encodes anew, and an observation kept by the caller is never overwritten by a later one."""
    env = candlebox.rl.pettingzoo_env("sixteen-candies", players=3)
    encoder = env.game_spec.encoder
    calls = []
    fill = encoder.fill_state

    def counted(state: candlebox.State, seat: int, out: np.ndarray) -> None:
        calls.append(seat)
        fill(state, seat, out)

    encoder.fill_state = counted  # type: ignore[method-assign]
    env.reset(seed=5)
    rng = np.random.default_rng(2)
    kept = []
    for _ in range(40):
        agent = env.agent_selection
        obs, *_ = env.last()
        again = env.observe(agent)
        assert len(calls) == 1
        assert np.array_equal(again["observation"], obs["observation"])
        seat = env.possible_agents.index(agent)
        fresh = env.game_spec.observe_view(env.game, seat)
        assert np.array_equal(obs["observation"], fresh)
        assert np.array_equal(obs["action_mask"], env.game_spec.actions.mask(env.game, seat))
        kept.append((obs, obs["observation"].copy(), obs["action_mask"].copy()))
        calls.clear()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    for obs, observation, mask in kept:
        assert np.array_equal(obs["observation"], observation)
        assert np.array_equal(obs["action_mask"], mask)
