"""The policy bot plays every seat from that seat's own observation, at every table with a shipped
file for more than 2 players (those files were trained on the decisions of whichever seat the
heuristic held, so a bot that read seat 0's observation for every seat would play blind elsewhere).

The logits the bot computes are compared with the network run by hand on the reference observation
(``spec.observe_view``: the seat's view, encoded) of the seat asked, bit for bit, and shown to differ
from those of another seat's observation, so the check cannot pass by accident (exactly: a weakly
trained network's logits can move by less than 1e-4 from one seat's observation to another's). Candelabria's battles, where several
seats choose at once and the engine asks them in turn order, are part of the games played. numpy
only (no torch)."""

from __future__ import annotations

import random

import pytest

import candlebox
from candlebox import bots

np = pytest.importorskip("numpy", reason="the policy bot needs numpy: pip install -e '.[rl]'")

import candlebox.rl  # noqa: E402
from candlebox.bots import policy  # noqa: E402
from candlebox.bots.network import Network  # noqa: E402

TABLES = [
    (game, players)
    for game in candlebox.rl.covered_games()
    for players in (3, 4, 5)
    if policy.shipped_path(game, players).is_file()
]


def by_hand(network: Network, observation: np.ndarray, legal: list[int]) -> np.ndarray:
    """The network's logits of the ``legal`` ids for an observation (network.py's arithmetic)."""
    hidden = observation.astype(np.float32)
    for weights, bias in network.layers:
        hidden = np.tanh(hidden @ weights + bias)
    scores = np.append(hidden @ network.head_w + network.head_b, np.float32(0.0))
    return scores[network.index[legal]].sum(axis=1)


@pytest.mark.parametrize("game,players", TABLES, ids=lambda x: str(x))
def test_each_seat_is_scored_from_its_own_observation(game: str, players: int) -> None:
    spec = candlebox.rl.spec(game, players)
    state = candlebox.new_game(game, players=players, seed=31)
    network = bots.make("policy", seed=1).network(state)  # type: ignore[attr-defined]
    rng = random.Random(8)
    checked: dict[int, int] = dict.fromkeys(range(players), 0)
    together = 0  # decisions taken while another seat also had to choose
    for _ in range(4000):
        if state.is_over or (min(checked.values()) >= 3 and (together or game != "candelabria")):
            break
        seat = state.to_act[0]
        actions = state.legal_actions(seat)
        if len(actions) > 1:
            legal = spec.actions.legal_ids(state, seat)
            played = network.logits(state, seat, legal)
            own = by_hand(network, spec.observe_view(state, seat), legal)
            np.testing.assert_array_equal(played, own)  # the same arithmetic, the same bits
            other = (seat + 1) % players
            elsewhere = by_hand(network, spec.observe_view(state, other), legal)
            assert not np.array_equal(played, elsewhere), (seat, other)
            checked[seat] += 1
            together += len(state.to_act) > 1
        state.apply(seat, actions[rng.randrange(len(actions))])
    assert min(checked.values()) >= 3, checked
    if game == "candelabria":
        assert together, "no battle's secret choice was checked"
