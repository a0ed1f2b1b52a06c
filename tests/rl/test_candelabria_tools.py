"""Every Candelabria configuration (each board side and player count, the two-player variant, each
option that changes the observation or the actions) passes the tools' own test suites with the state
reader in place: PettingZoo's ``api_test`` and ``seed_test``, Gymnasium's ``check_env`` and
OpenSpiel's ``random_sim_test``. The tests over every covered game take a few configurations each;
this takes them all, on games cut short (``max_turns``) to keep it quick."""

from __future__ import annotations

import warnings

import pytest

from tests.rl.deps import require_rl

require_rl()

import gymnasium as gym  # noqa: E402
import pyspiel  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import candlebox.rl  # noqa: E402
from candlebox.rl.gymnasium_single import gymnasium_id  # noqa: E402
from candlebox.rl.openspiel_game import short_name  # noqa: E402
from tests.rl.test_candelabria import CONFIGS, GAME  # noqa: E402

TURNS = 12  # Kindling turns: a year and the start of its War Season at 2–3 players

candlebox.rl.register_openspiel()
candlebox.rl.register_gymnasium()  # check_env wants an env made by gym.make (it has a spec)


def _ids(config: tuple) -> str:
    variant, players, options = config
    return f"{variant}-{players}p" + "".join(f"-{k}={v}" for k, v in sorted(options.items()))


@pytest.mark.parametrize("config", CONFIGS, ids=_ids)
def test_every_configuration_passes_the_tools_tests(config: tuple) -> None:
    variant, players, options = config
    opts = {**options, "max_turns": TURNS}

    def make() -> candlebox.rl.pettingzoo_aec.CandleboxAECEnv:
        return candlebox.rl.pettingzoo_env(GAME, players=players, variant=variant, **opts)

    with warnings.catch_warnings():
        # PettingZoo warns that a dict observation is not a Box (as for its own classic games).
        warnings.filterwarnings("ignore", message=".*(NumPy array|probably should be).*")
        api_test(make(), num_cycles=100)
        seed_test(make, num_cycles=100)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning either
        made = gym.make(gymnasium_id(GAME), seat=0, players=players, variant=variant, **opts)
        check_env(made.unwrapped)
    params = {"players": players, "variant": variant, **opts}
    pyspiel.random_sim_test(
        pyspiel.load_game(short_name(GAME), params), num_sims=1, serialize=True, verbose=False
    )
