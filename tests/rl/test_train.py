"""The training command (needs torch and sb3-contrib, the ``train`` group: skipped without them): a
few seconds of training write a file the numpy policy bot plays, and its logits are torch's."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import candlebox
from candlebox import bots
from tests.rl.deps import require_rl

require_rl()
torch = pytest.importorskip("torch", reason="training needs torch: pip install -e '.[rl,train]'")
pytest.importorskip(
    "sb3_contrib", reason="training needs sb3-contrib: pip install -e '.[rl,train]'"
)

from candlebox.bots.network import Network  # noqa: E402 - after the skips
from candlebox.rl import train  # noqa: E402
from candlebox.rl.core import Spec  # noqa: E402


@pytest.mark.parametrize("game", candlebox.game_ids())
def test_a_short_training_writes_a_policy_the_bot_plays(game: str, tmp_path: Path) -> None:
    out, log = tmp_path / "policy.npz", tmp_path / "log.jsonl"
    summary = train.train(
        game, seed=3, steps=256, out=out, log=log, envs=1, chunk=256, imitation=50, select=2
    )
    assert summary["steps"] >= 256
    assert out.is_file() and summary["bytes"] == out.stat().st_size
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert lines[0]["game"] == game
    assert any("imitation" in line for line in lines)
    assert any("win_rate" in line for line in lines)
    judged = [line["selection"] for line in lines if "selection" in line]
    assert judged[0]["kept"] and judged[0]["games"] == 2  # the warm start's network, then PPO's
    assert summary["selected_win_rate"] == max(j["win_rate"] for j in judged)
    players = [bots.make("policy", seed=1, path=str(out)), bots.make("random", seed=2)]
    state = candlebox.new_game(game, players=2, seed=4, max_turns=20)
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, players[seat].choose(state, seat))


@pytest.mark.parametrize("game", candlebox.game_ids())
def test_the_exported_network_scores_as_torch_does(game: str, tmp_path: Path) -> None:
    spec = Spec.make(game, 2)
    model = train.make_model(spec, seed=5, envs=1)
    head = model.policy.action_net
    torch.nn.init.normal_(head.linear.weight, std=0.5)  # scores far from 0, so a wrong sum shows
    torch.nn.init.normal_(head.linear.bias, std=0.5)
    train.export(model, spec, tmp_path / "p.npz", {})
    rng = candlebox.engine.Rng(6)
    state = candlebox.new_game(game, players=2, seed=6)
    network = Network.load(tmp_path / "p.npz", state)
    checked = 0
    while not state.is_over and checked < 30:
        seat = state.to_act[0]
        legal = spec.actions.legal_ids(state, seat)
        mine = network.logits(state, seat, legal)
        with torch.no_grad():
            obs = torch.as_tensor(spec.observe(state, seat))[None]
            latent = model.policy.mlp_extractor.forward_actor(obs)
            theirs = head(latent)[0, legal].numpy()
        assert mine == pytest.approx(theirs, abs=0.05, rel=0.02)  # weights stored as float16
        checked += 1
        actions = state.legal_actions(seat)
        state.apply(seat, actions[rng.below(len(actions))])


def test_the_run_keeps_its_best_network_not_its_last(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Candidates judged 0.5, 0.2, 0.7, 0.6: the file written is the third, and each worse one is
    dropped with its candidate file."""
    spec = Spec.make("candle-quest", 2)
    model = train.make_model(spec, seed=5, envs=1)
    out = tmp_path / "policy.npz"
    scores = iter([0.5, 0.2, 0.7, 0.6])
    monkeypatch.setattr(train.Selection, "score", lambda self, path: next(scores))
    selection = train.Selection(spec, out, 10, train.Progress(None, train.Clock()))
    kept = []
    for steps in range(4):
        torch.nn.init.normal_(
            model.policy.action_net.linear.bias, std=1.0
        )  # a new network each time
        selection.consider(model, {"steps": steps})
        kept.append(json.loads(str(np.load(out)["meta"]))["steps"])
        assert not selection.candidate.exists()
    assert kept == [0, 0, 2, 2]
    assert selection.best == 0.7


def test_a_candidate_is_scored_by_its_games_against_the_heuristic(tmp_path: Path) -> None:
    """The score is a share of real games: a network plays them (and ties split), in [0, 1]."""
    spec = Spec.make("sixteen-candies", 2)
    model = train.make_model(spec, seed=5, envs=1)
    path = tmp_path / "p.npz"
    train.export(model, spec, path, {})
    selection = train.Selection(spec, tmp_path / "out.npz", 4, train.Progress(None, train.Clock()))
    score = selection.score(path)
    assert 0.0 <= score <= 1.0
    assert score == selection.score(path)  # seeded: the same games again
