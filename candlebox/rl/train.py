"""Train a game's baseline policy with masked PPO and export it for the ``policy`` bot.

    pip install -e '.[rl,train]'
    python -m candlebox.rl.train GAME                     # 40 CPU minutes, seed 0, the shipped file
    python -m candlebox.rl.train GAME --minutes 2 --out /tmp/mine.npz --log /tmp/mine.jsonl
    python -m candlebox.rl.train GAME --steps 200000      # a fixed budget: the same network again

One seat of a 2-player game (the game's default variant and options) is warmed up on the heuristic
bot's decisions, then learns with sb3-contrib's MaskablePPO: a small MLP (two tanh layers of 128) over the seat's encoded observation, illegal actions
masked out. The learner's seat alternates from game to game; its rival in each game is drawn from a
mix of bots (:data:`OPPONENTS`: random, and the heuristic bot with and without noise). Reward: the
learner's share of the win at the end of the game (docs/rl.md). Everything is seeded (``--seed``) and
runs on one CPU thread; with ``--steps`` the run is reproducible step for step, with ``--minutes``
(the default) it stops at the first chunk of training past that much CPU time of its own process (so a
busy machine slows it down but does not shorten it; ``--wall-minutes`` caps the time on the clock too),
and how far it gets depends on the machine.

The output layer is factored (candlebox/bots/policy.py: an action's logit is the sum of its tokens'
scores), so 16 Candies' 15,666 actions need a few hundred output rows. Progress (steps, episodes, mean
reward, win rate against each opponent over the last games) goes to ``--log`` as JSON lines after
every rollout. After the warm start and after every chunk of training the network is exported
(float16 ``.npz``, numpy only to read) and judged by games against the heuristic bot; ``--out`` holds
the best one so far (:class:`Selection`), so an interrupted run leaves its best network behind.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import sys
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from candlebox import bots
from candlebox.bots.network import FORMAT, action_tokens, token_vocabulary
from candlebox.bots.policy import shipped_path
from candlebox.engine import State
from candlebox.rl.budget import Clock
from candlebox.rl.core import Spec, covered_games, rewards

try:
    import sb3_contrib
    import torch
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv
    from torch import nn
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "candlebox.rl.train needs the optional 'train' group (torch, sb3-contrib): "
        "pip install -e '.[rl,train]'"
    ) from exc

PLAYERS = 2
HIDDEN = (128, 128)
# The warm start: this many of the heuristic bot's decisions, collected within this share of the
# CPU budget. 30,000 decisions left Candelabria's policy no better than random (its cross-entropy
# 0.90); 150,000 gave a policy that won 91% of 100 games against random and 25% of 60 against the
# heuristic (2026-12-04), so the default is larger still.
IMITATION = 300_000
IMITATION_SHARE = 0.4
IMITATION_EPOCHS = 8
# PPO's step size: sb3's default from scratch, a third of it after the warm start.
COLD_LEARNING_RATE = 3e-4
WARM_LEARNING_RATE = 1e-4
SELECTION_GAMES = 60  # per candidate network (Selection)
MINUTES = 40.0  # the CPU budget of a run: the shipped files had it


@dataclass(frozen=True)
class Opponent:
    """A rival the learner meets, by bot name and parameters, with its share of the games."""

    label: str
    bot: str
    params: tuple[tuple[str, Any], ...]
    weight: float

    def make(self, seed: int) -> bots.Bot:
        return bots.make(self.bot, seed=seed, **dict(self.params))


# Games against the random bot are drawn least: while the learner is weak they last longest (a
# Candle Quest game between weak players runs to the turn limit) and teach the least.
OPPONENTS = (
    Opponent("random", "random", (), 0.25),
    Opponent("heuristic(epsilon=0.3)", "heuristic", (("epsilon", 0.3),), 0.35),
    Opponent("heuristic", "heuristic", (), 0.4),
)


class MixedOpponentsEnv(gym.Env):
    """One seat learns against a bot drawn from ``opponents`` each game; the seat alternates.

    The observation is the encoded view alone (a Box); ``action_masks()`` gives the legal actions as
    MaskablePPO asks. At a game's end ``info`` says which opponent it was and the learner's reward.
    """

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self, spec: Spec, opponents: Sequence[Opponent], seed: int) -> None:
        self.game_spec = spec
        self.opponents = tuple(opponents)
        weights = np.array([o.weight for o in self.opponents], dtype=np.float64)
        self.weights = weights / weights.sum()
        self.observation_space = spaces.Box(
            0.0, 1.0, shape=(spec.observation_size,), dtype=np.float32
        )
        self.action_space = spaces.Discrete(spec.num_distinct_actions)
        self.rng = np.random.default_rng(seed)
        self.games = 0
        self.seat = 0
        self.opponent = self.opponents[0]
        self.rival: bots.Bot | None = None
        self.game: State | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        while True:
            self.seat = self.games % PLAYERS
            self.games += 1
            self.opponent = self.opponents[
                int(self.rng.choice(len(self.opponents), p=self.weights))
            ]
            self.rival = self.opponent.make(int(self.rng.integers(2**62)))
            self.game = self.game_spec.config.new_game(int(self.rng.integers(2**62)))
            self._play_rival()
            if not self.game.is_over:
                return self._observe(), {}

    def _state(self) -> State:
        if self.game is None:
            raise RuntimeError("call reset() first")
        return self.game

    def _play_rival(self) -> None:
        state = self._state()
        assert self.rival is not None
        while not state.is_over and state.to_act[0] != self.seat:
            seat = state.to_act[0]
            state.apply(seat, self.rival.choose(state, seat))

    def _observe(self) -> np.ndarray:
        return self.game_spec.observe(self._state(), self.seat)

    def action_masks(self) -> np.ndarray:
        return self.game_spec.actions.mask(self._state(), self.seat).astype(bool)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        state = self._state()
        state.apply(self.seat, self.game_spec.actions.to_text(int(action)))
        self._play_rival()
        if not state.is_over:
            return self._observe(), 0.0, False, False, {}
        reward = rewards(state)[self.seat]
        info = {"opponent": self.opponent.label, "reward": reward}
        return self._observe(), reward, not state.truncated, state.truncated, info


class FactoredHead(nn.Module):
    """Scores tokens, then adds up each action's tokens (a fixed sparse [actions, tokens] matrix)."""

    def __init__(self, hidden: int, texts: Sequence[str]) -> None:
        super().__init__()
        vocabulary = token_vocabulary(texts)
        place = {token: number for number, token in enumerate(vocabulary)}
        rows, cols = [], []
        for action, tokens in enumerate(action_tokens(texts)):
            for token in tokens:
                rows.append(action)
                cols.append(place[token])
        self.vocabulary = vocabulary
        self.linear = nn.Linear(hidden, len(vocabulary))
        nn.init.orthogonal_(self.linear.weight, gain=0.01)
        nn.init.zeros_(self.linear.bias)
        self.combine = torch.sparse_coo_tensor(
            torch.tensor([rows, cols]), torch.ones(len(rows)), (len(texts), len(vocabulary))
        ).coalesce()

    def forward(self, latent: torch.Tensor) -> torch.Tensor:
        scores = self.linear(latent)  # [batch, tokens]
        return torch.sparse.mm(self.combine, scores.T).T  # [batch, actions]


class FactoredPolicy(MaskableActorCriticPolicy):
    """MaskablePPO's MLP policy with the factored output layer (``action_texts`` from the spec)."""

    def __init__(self, *args: Any, action_texts: Sequence[str] = (), **kwargs: Any) -> None:
        self.action_texts = tuple(action_texts)
        super().__init__(*args, **kwargs)

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        self.action_net = FactoredHead(self.mlp_extractor.latent_dim_pi, self.action_texts)
        # The optimizer built above holds the replaced layer's parameters: build it again.
        optimizer_class: Any = self.optimizer_class  # a class given by name (Adam by default)
        self.optimizer = optimizer_class(
            self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs
        )


class Progress(BaseCallback):
    """After every rollout: a JSON line of steps, episodes, mean reward and win rates to the log."""

    def __init__(self, log: Path | None, clock: Clock, window: int = 300) -> None:
        super().__init__()
        self.log = log
        self.clock = clock
        self.recent: deque[tuple[str, float]] = deque(maxlen=window)
        self.episodes = 0

    def _on_step(self) -> bool:
        for info in self.locals["infos"]:
            if "opponent" in info:
                self.recent.append((info["opponent"], float(info["reward"])))
                self.episodes += 1
        return True

    def _on_rollout_end(self) -> None:
        rates: dict[str, Any] = {}
        for label in dict.fromkeys(label for label, _ in self.recent):
            rewards_seen = [r for name, r in self.recent if name == label]
            rates[label] = {"games": len(rewards_seen), "win_rate": float(np.mean(rewards_seen))}
        self.write(
            {
                "steps": int(self.num_timesteps),
                "episodes": self.episodes,
                "mean_reward": float(np.mean([r for _, r in self.recent])) if self.recent else None,
                "win_rate": rates,
            }
        )

    def write(self, line: dict[str, Any]) -> None:
        text = json.dumps({**self.clock.stamp(), **line})
        print(text, flush=True)
        if self.log is not None:
            with self.log.open("a") as handle:
                handle.write(text + "\n")


# The selection games: the candidate (greedy, as the policy bot plays) against the heuristic bot, seats
# alternating, from seeds no table of bench/baselines.py uses (its games start at 50,000).
SELECTION_SEED = 900_000


class Selection:
    """Keeps the best network of a run: each candidate (after the warm start, after every chunk of
    PPO) is exported beside ``out``, played greedily against the heuristic bot over ``games`` seeded
    games, and moved to ``out`` only when it wins at least as much as the best before it. A run whose
    PPO unlearns what the warm start taught (seen in Candelabria: 25% of the games against the
    heuristic after the warm start, 4% after 49k steps) so ships its best network, not its last."""

    def __init__(self, spec: Spec, out: Path, games: int, progress: Progress) -> None:
        self.spec = spec
        self.out = out
        self.games = games
        self.progress = progress
        self.best: float | None = None
        self.candidate = out.with_name(out.name + ".candidate.npz")

    def consider(self, model: Any, meta: dict[str, Any]) -> int:
        """Export ``model`` as a candidate and keep it if it is the best so far; the kept file's
        size in bytes."""
        size = export(model, self.spec, self.candidate, meta)
        if self.games <= 0:
            os.replace(self.candidate, self.out)
            return size
        score = self.score(self.candidate)
        kept = self.best is None or score >= self.best
        if kept:
            self.best = score
            os.replace(self.candidate, self.out)
        else:
            self.candidate.unlink()
        self.progress.write(
            {
                "selection": {
                    "steps": meta.get("steps", 0),
                    "games": self.games,
                    "against": "heuristic",
                    "win_rate": round(score, 4),
                    "kept": kept,
                }
            }
        )
        return self.out.stat().st_size

    def score(self, path: Path) -> float:
        """The share of the ``games`` the network at ``path`` wins against the heuristic bot."""
        config = self.spec.config
        learner = bots.make("policy", path=str(path))  # greedy: the seed draws nothing
        won = 0.0
        for i in range(self.games):
            seat = i % PLAYERS
            players = [bots.make("heuristic", seed=SELECTION_SEED + i)] * PLAYERS
            players[seat] = learner
            state = config.new_game(SELECTION_SEED + i)
            while not state.is_over:
                mover = state.to_act[0]
                state.apply(mover, players[mover].choose(state, mover))
            if seat in state.winners:
                won += 1 / len(state.winners)
        return won / self.games


def imitate(
    model: Any,
    spec: Spec,
    decisions: int,
    seconds: float,
    wall_seconds: float | None,
    seed: int,
    progress: Progress,
    epochs: int = IMITATION_EPOCHS,
) -> None:
    """Warm start: fit the policy to the heuristic bot's choices (and the value to how those games
    ended) over ``decisions`` of the learner's seat, collected within ``seconds`` of CPU time (and
    ``wall_seconds`` on the clock), before PPO."""
    env = MixedOpponentsEnv(spec, OPPONENTS, seed + 1_000_003)
    teacher = bots.make("heuristic", seed=seed)
    observations: list[np.ndarray] = []
    legal: list[list[int]] = []
    chosen: list[int] = []
    outcome: list[float] = []
    episode_start = 0
    clock = Clock()
    obs, _ = env.reset()
    while (
        len(chosen) < decisions
        and clock.cpu_seconds() < seconds
        and (wall_seconds is None or clock.wall_seconds() < wall_seconds)
    ):
        state = env._state()
        action = spec.actions.to_id(teacher.choose(state, env.seat))
        observations.append(obs)
        legal.append(spec.actions.legal_ids(state, env.seat))
        chosen.append(action)
        obs, reward, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            outcome.extend([float(reward)] * (len(chosen) - episode_start))
            episode_start = len(chosen)
            obs, _ = env.reset()
    count = episode_start  # decisions of finished games only: their outcome is known
    if count == 0:
        progress.write({"imitation": {"decisions": 0, "games": env.games}})
        return
    policy = model.policy
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)
    obs_t = torch.as_tensor(np.array(observations[:count]))
    act_t = torch.as_tensor(chosen[:count])
    ret_t = torch.as_tensor(outcome[:count], dtype=torch.float32)
    generator = torch.Generator().manual_seed(seed)
    loss_sum = 0.0
    for _ in range(epochs):
        order = torch.randperm(count, generator=generator)
        loss_sum = 0.0
        for start in range(0, count, 256):
            batch = order[start : start + 256]
            masks = torch.zeros((len(batch), spec.num_distinct_actions), dtype=torch.bool)
            for row, index in enumerate(batch.tolist()):
                masks[row, legal[index]] = True
            values, log_prob, _ = policy.evaluate_actions(obs_t[batch], act_t[batch], masks)
            loss = -log_prob.mean() + 0.5 * ((values.flatten() - ret_t[batch]) ** 2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            loss_sum += float(loss) * len(batch)
    progress.write(
        {
            "imitation": {
                "decisions": count,
                "games": env.games,
                **clock.stamp(),
                "last_epoch_loss": round(loss_sum / count, 4),
            }
        }
    )


def export(model: Any, spec: Spec, path: Path, meta: dict[str, Any]) -> int:
    """Write the policy half of ``model`` as float16 arrays for candlebox.bots.policy; the bytes."""
    policy = model.policy
    linears = [m for m in policy.mlp_extractor.policy_net if isinstance(m, nn.Linear)]
    head: FactoredHead = policy.action_net
    arrays: dict[str, np.ndarray] = {}
    for i, layer in enumerate(linears):
        arrays[f"w{i}"] = layer.weight.detach().numpy().T.astype(np.float16)
        arrays[f"b{i}"] = layer.bias.detach().numpy().astype(np.float16)
    arrays["head_w"] = head.linear.weight.detach().numpy().T.astype(np.float16)
    arrays["head_b"] = head.linear.bias.detach().numpy().astype(np.float16)
    arrays["tokens"] = np.array(head.vocabulary)
    config = spec.config
    info = {
        "format": FORMAT,
        "game": config.game_id,
        "variant": config.variant,
        "players": config.players,
        "options": config.given,
        "layers": len(linears),
        "observation": spec.observation_size,
        "actions": spec.num_distinct_actions,
        **meta,
    }
    arrays["meta"] = np.array(json.dumps(info, sort_keys=True))
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(path.name + ".part.npz")
    np.savez_compressed(part, **arrays)  # type: ignore[arg-type]
    os.replace(part, path)
    return path.stat().st_size


def make_model(spec: Spec, seed: int, envs: int, learning_rate: float = COLD_LEARNING_RATE) -> Any:
    """MaskablePPO with the factored policy over ``envs`` games against the mixed opponents."""
    vec = DummyVecEnv(
        [partial(MixedOpponentsEnv, spec, OPPONENTS, seed * 1000 + i) for i in range(envs)]
    )
    vec.seed(seed)
    return MaskablePPO(
        FactoredPolicy,
        vec,
        n_steps=256,
        batch_size=256,
        n_epochs=4,
        learning_rate=learning_rate,
        gamma=0.997,
        gae_lambda=0.95,
        ent_coef=0.01,
        policy_kwargs={
            "net_arch": {"pi": list(HIDDEN), "vf": list(HIDDEN)},
            "action_texts": spec.actions.texts,
        },
        seed=seed,
        device="cpu",
        verbose=0,
    )


def train(
    game_id: str,
    minutes: float = MINUTES,
    wall_minutes: float | None = None,
    seed: int = 0,
    steps: int | None = None,
    out: Path | None = None,
    log: Path | None = None,
    envs: int = 8,
    chunk: int = 8_192,
    imitation: int = IMITATION,
    learning_rate: float | None = None,
    select: int = SELECTION_GAMES,
) -> dict[str, Any]:
    """Train and export the best network seen (``Selection``); a summary (steps, seconds, size)."""
    if game_id not in covered_games():
        raise ValueError(f"unknown game {game_id!r}; games: {', '.join(covered_games())}")
    torch.set_num_threads(1)
    clock = Clock()
    spec = Spec.make(game_id, PLAYERS)
    out = out or shipped_path(game_id)
    if (
        learning_rate is None
    ):  # a warm-started policy is fine-tuned: large steps undo the warm start
        learning_rate = WARM_LEARNING_RATE if imitation else COLD_LEARNING_RATE
    model = make_model(spec, seed, envs, learning_rate)
    progress = Progress(log, clock)
    selection = Selection(spec, out, select, progress)
    chunk = max(chunk, model.n_steps * envs)
    if log is not None:
        log.parent.mkdir(parents=True, exist_ok=True)
        head = {
            "game": game_id,
            "players": PLAYERS,
            "variant": spec.config.variant,
            "seed": seed,
            "opponents": [o.label for o in OPPONENTS],
            "load_average": os.getloadavg(),
            "learning_rate": learning_rate,
            "selection_games": select,
            "started": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        }
        with log.open("a") as handle:
            handle.write(json.dumps(head) + "\n")
    common = {
        "seed": seed,
        "opponents": [o.label for o in OPPONENTS],
        "imitation": imitation,
        "learning_rate": learning_rate,
        "trained": datetime.date.today().isoformat(),
        "torch": torch.__version__,
        "sb3_contrib": sb3_contrib.__version__,
        "machine": platform.machine(),
    }
    if imitation:
        wall = None if wall_minutes is None else wall_minutes * 60 * IMITATION_SHARE
        imitate(model, spec, imitation, minutes * 60 * IMITATION_SHARE, wall, seed, progress)
        selection.consider(model, {"steps": 0, **clock.stamp(), **common})
    size = 0
    while True:
        budget = chunk if steps is None else min(chunk, steps - model.num_timesteps)
        model.learn(budget, reset_num_timesteps=False, callback=progress)
        meta = {"steps": int(model.num_timesteps), **clock.stamp(), **common}
        size = selection.consider(model, meta)
        if steps is not None:
            done = model.num_timesteps >= steps
        else:
            done = clock.cpu_seconds() >= minutes * 60
        if wall_minutes is not None and clock.wall_seconds() >= wall_minutes * 60:
            done = True
        if done:
            break
    summary = {
        "game": game_id,
        "out": str(out),
        "bytes": size,
        "selected_win_rate": selection.best,
        **meta,
    }
    print(json.dumps(summary), flush=True)
    if log is not None:
        with log.open("a") as handle:
            handle.write(json.dumps(summary) + "\n")
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m candlebox.rl.train",
        description="Train a game's baseline policy with masked PPO (docs/rl.md).",
    )
    parser.add_argument("game", choices=covered_games())
    parser.add_argument(
        "--minutes",
        type=float,
        default=MINUTES,
        help=f"CPU time budget of the run (default {MINUTES:g})",
    )
    parser.add_argument("--wall-minutes", type=float, help="and at most this long on the clock")
    parser.add_argument("--steps", type=int, help="a step budget instead (reproducible)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, help="the .npz to write (default: the shipped file)")
    parser.add_argument("--log", type=Path, help="progress as JSON lines")
    parser.add_argument("--envs", type=int, default=8, help="games stepped together")
    parser.add_argument(
        "--imitate",
        type=int,
        default=IMITATION,
        help=f"warm start on this many of the heuristic bot's decisions (0: none; default {IMITATION:,})",
    )
    parser.add_argument(
        "--learning-rate",
        type=float,
        help=f"PPO's step size (default {WARM_LEARNING_RATE} after a warm start, else {COLD_LEARNING_RATE})",
    )
    parser.add_argument(
        "--select",
        type=int,
        default=SELECTION_GAMES,
        help="games against the heuristic bot that judge each candidate network; the best is "
        f"kept (0: keep the last; default {SELECTION_GAMES})",
    )
    args = parser.parse_args(argv)
    if args.learning_rate is not None and not args.learning_rate > 0:
        parser.error(f"--learning-rate must be above 0, not {args.learning_rate}")
    if args.select < 0:
        parser.error(f"--select must be 0 or more, not {args.select}")
    train(
        args.game,
        args.minutes,
        args.wall_minutes,
        args.seed,
        args.steps,
        args.out,
        args.log,
        args.envs,
        imitation=args.imitate,
        learning_rate=args.learning_rate,
        select=args.select,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
