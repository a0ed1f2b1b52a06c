"""The numpy trainer (candlebox.rl.imitation): its gradient is the loss's, training on a few hundred
of the heuristic's decisions lowers the loss, a seed gives the same file, and the policy bot plays
that file. numpy only (no torch)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

import candlebox
from candlebox import bots
from candlebox.rl import imitation
from candlebox.rl.core import Spec

# A few actions of each kind the factored layer has: a verb alone, a verb with few actions (a token
# each), and a verb with more than FACTOR_ABOVE actions would be scored word by word (too many for a
# tiny test), so that part is covered by the real games below.
TEXTS = ["pass", "bid 1", "bid 2", "bid 3", "take A", "take B"]


def _tiny() -> tuple[imitation.Net, imitation.Decisions]:
    rng = np.random.default_rng(4)
    net = imitation.new_net(5, TEXTS, seed=2, hidden=(4, 3), dtype=np.float64)
    # larger token scores than the initial ones, so that the softmax is far from uniform
    net.head_w[...] = rng.normal(0.0, 1.0, net.head_w.shape)
    net.head_b[...] = rng.normal(0.0, 1.0, net.head_b.shape)
    data = imitation.Decisions()
    for _ in range(7):
        legal = sorted(rng.choice(len(TEXTS), size=int(rng.integers(2, 5)), replace=False).tolist())
        data.observations.append(rng.normal(0.0, 1.0, 5))
        data.legal.append(legal)
        data.chosen.append(int(rng.choice(legal)))
    return net, data


def test_the_gradient_is_the_losss_finite_difference() -> None:
    net, data = _tiny()
    batch = imitation.Batch.of(data, list(range(len(data))), dtype=np.float64)
    value, grads = imitation.loss_and_gradients(net, batch)
    assert value == pytest.approx(imitation.loss(net, batch))
    step = 1e-6
    for parameter, grad in zip(net.parameters(), grads, strict=True):
        assert grad.shape == parameter.shape
        numeric = np.zeros_like(parameter)
        for cell in np.ndindex(parameter.shape):
            kept = parameter[cell]
            parameter[cell] = kept + step
            up = imitation.loss(net, batch)
            parameter[cell] = kept - step
            down = imitation.loss(net, batch)
            parameter[cell] = kept
            numeric[cell] = (up - down) / (2 * step)
        np.testing.assert_allclose(grad, numeric, rtol=1e-5, atol=1e-8)
    assert np.abs(grads[0]).max() > 1e-4  # the first layer learns too (not a vacuous check)


@pytest.mark.parametrize("game", ["candle-quest", "sixteen-candies"])
def test_training_on_a_few_hundred_decisions_lowers_the_loss(game: str) -> None:
    spec = Spec.make(game, 3)
    data, games = imitation.collect(spec, 300, seed=1)
    assert len(data) == 300 and games >= 1
    assert all(data.chosen[i] in data.legal[i] and len(data.legal[i]) > 1 for i in range(300))
    net = imitation.new_net(spec.observation_size, spec.actions.texts, seed=1)
    everything = list(range(len(data)))
    before = imitation.loss(net, imitation.Batch.of(data, everything))
    losses = imitation.fit(net, data, everything, epochs=25, seed=1)
    after = imitation.loss(net, imitation.Batch.of(data, everything))
    assert losses[-1] < losses[0] and after < 0.7 * before, (before, losses, after)
    assert imitation.agreement(net, data, everything) > 0.6


def test_a_seed_gives_the_same_file_and_the_bot_plays_it(tmp_path: Path) -> None:
    budget = imitation.Budget(decisions=200, epochs=2)
    runs = []
    for name in ("a", "b"):
        out, log = tmp_path / f"{name}.npz", tmp_path / f"{name}.jsonl"
        summary = imitation.train("candle-quest", 3, seed=5, budget=budget, out=out, log=log)
        assert summary["bytes"] == out.stat().st_size and summary["decisions"] == 200
        lines = [json.loads(line) for line in log.read_text().splitlines()]
        assert lines[0]["players"] == 3 and lines[-1]["epochs"] == 2
        runs.append(hashlib.sha256(out.read_bytes()).hexdigest())
    assert runs[0] == runs[1]
    other = tmp_path / "other.npz"
    imitation.train("candle-quest", 3, seed=6, budget=budget, out=other)
    assert hashlib.sha256(other.read_bytes()).hexdigest() != runs[0]
    players = [bots.make("policy", path=str(tmp_path / "a.npz"))] + [
        bots.make("random", seed=s) for s in (1, 2)
    ]
    state = candlebox.new_game("candle-quest", players=3, seed=4, max_turns=20)
    while not state.is_over:
        seat = state.to_act[0]
        action = players[seat].choose(state, seat)
        assert action in state.legal_actions(seat)
        state.apply(seat, action)


def test_the_command_refuses_bad_budgets(capsys: pytest.CaptureFixture[str]) -> None:
    for args, says in (
        (["candle-quest", "--epochs", "0"], "--epochs must be 1 or more, not 0"),
        (["candle-quest", "--minutes", "-1"], "--minutes must be above 0, not -1.0"),
        (["candle-quest", "--memory-mb", "0"], "--memory-mb must be 1 or more, not 0"),
        (["sixteen-candies", "--players", "5"], "is for 2–4 players, not 5"),
    ):
        with pytest.raises(SystemExit) as exit_:
            imitation.main(args)
        assert exit_.value.code == 2
        assert says in capsys.readouterr().err


def test_observations_are_kept_in_half_precision_within_the_memory_bound() -> None:
    """float16 rows halve the memory a collection needs (Candelabria's 200 MB of float32 rows held
    12,600 decisions, too few), and a number in [0, 1] loses under 0.1% of itself."""
    spec = Spec.make("candelabria", 3)
    budget = imitation.Budget(decisions=10**9, memory=100_000_000)
    assert budget.most_decisions(spec) == 100_000_000 // (2 * spec.observation_size)
    assert imitation.Budget(decisions=50).most_decisions(spec) == 50
    data, _ = imitation.collect(spec, 40, seed=3)
    assert {row.dtype for row in data.observations} == {np.dtype(np.float16)}
    batch = imitation.Batch.of(data, list(range(len(data))))
    assert batch.observations.dtype == np.float32  # trained in single precision
    assert batch.observations.min() >= 0.0 and batch.observations.max() <= 1.0


def test_a_time_bound_stops_the_training_between_batches() -> None:
    """A bound is checked after every batch, not only after an epoch (an epoch of 150,000
    Candelabria decisions on a busy machine would overrun it); the part done is reported."""
    spec = Spec.make("candle-quest", 3)
    data, _ = imitation.collect(spec, 1000, seed=2)
    net = imitation.new_net(spec.observation_size, spec.actions.texts, seed=1)
    reports: list[tuple[float, float]] = []
    picks = list(range(len(data)))
    losses = imitation.fit(
        net, data, picks, epochs=5, seed=1, wall_seconds=0.0, report=lambda *r: reports.append(r)
    )
    assert len(losses) == 1 and len(reports) == 1
    assert reports[0][0] == pytest.approx(imitation.BATCH / len(picks)), reports


def test_collection_reports_its_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(imitation, "PROGRESS_SECONDS", 0.0)
    said: list[tuple[int, int]] = []
    data, games = imitation.collect(
        Spec.make("candle-quest", 3), 300, seed=1, progress=lambda *p: said.append(p)
    )
    assert said[0] == (0, 0) and len(said) == games
    assert [n for n, _ in said] == sorted(n for n, _ in said) and said[-1][0] < len(data)


def test_a_learner_plays_the_heuristic_seat_while_the_heuristic_is_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """DAgger: with ``learner``, that policy's moves are played at the rotating heuristic seat and
    the heuristic's choices in those positions are the labels (not the learner's)."""
    from candlebox.bots.heuristic import HeuristicBot
    from candlebox.bots.policy import PolicyBot

    spec = Spec.make("candle-quest", 3)
    first = tmp_path / "first.npz"
    imitation.train("candle-quest", 3, seed=5, budget=imitation.Budget(200, 1), out=first)
    # (bot, seat, moves played so far, legal actions, its choice); the heuristic's noisy seats apart
    calls: list[tuple[str, int, int, int, str]] = []
    for cls, name in ((HeuristicBot, "heuristic"), (PolicyBot, "learner")):
        original = cls.choose

        def recorded(self, state, seat, original=original, name=name):  # type: ignore[no-untyped-def]
            action = original(self, state, seat)
            kind = "noisy" if getattr(self, "epsilon", 0.0) else name
            calls.append((kind, seat, len(state.history), len(state.legal_actions(seat)), action))
            return action

        monkeypatch.setattr(cls, "choose", recorded)
    data, _ = imitation.collect(spec, 400, seed=2, learner=first, learner_share=1.0)
    learned = {(seat, at): action for who, seat, at, _, action in calls if who == "learner"}
    taught = {(seat, at): action for who, seat, at, _, action in calls if who == "heuristic"}
    assert learned and set(learned) <= set(taught)  # the heuristic answers where the learner plays
    assert any(learned[key] != taught[key] for key in learned), "the learner never disagreed"
    labels = [who == "heuristic" and n > 1 for who, _, _, n, _ in calls]
    recorded_texts = [spec.actions.to_text(i) for i in data.chosen]
    expected = [call[4] for call, label in zip(calls, labels, strict=True) if label]
    assert recorded_texts == expected[: len(recorded_texts)]  # the heuristic's, every one
    with pytest.raises(ValueError, match="--learner-share must be above 0"):
        imitation.train("candle-quest", 3, learner=first, learner_share=0.0, out=tmp_path / "x.npz")
    with pytest.raises(ValueError, match="plays Candle Quest \\(basic\\) with 3 players only"):
        imitation.train("candle-quest", 4, learner=first, out=tmp_path / "y.npz")
