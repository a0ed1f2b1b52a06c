"""Train a small masked policy on Candle Quest against the random bot, and plot its learning curve.

    pip install 'torch>=2.13,<2.15' --index-url https://download.pytorch.org/whl/cpu  # first: CPU
    pip install -e '.[rl,train,sim]'     # sim: matplotlib for the plot
    python examples/train_candle_quest.py                 # about 3 minutes on 2 CPUs
    python examples/train_candle_quest.py --timesteps 20000 --out /tmp/curve.png   # a quick look

Seat 0 learns with sb3-contrib's MaskablePPO (an MLP over the encoded view; illegal actions are masked
out with ``env.action_masks()``, so it never plays one); seat 1 is Candlebox's random bot. The game is
the basic variant for 2 players, cut at ``--max-turns`` turns (60 by default: a real game takes 30–120),
where the player with the most Menorah colours wins (rulings CQ-17). Reward: 1 for a win (½ each for a
tie), 0 otherwise, at the end of the game. Every ``--eval-every`` timesteps the greedy policy plays
``--eval-games`` fresh games against the random bot; the plot shows that win rate against the number of
training timesteps, with the random bot against itself and the heuristic bot against the random bot as
references (measured on the same games). Results: the PNG and a JSON file beside it.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

import candlebox
import candlebox.rl
from candlebox import bots

HERE = Path(__file__).resolve().parent
GAME = "candle-quest"


class ViewOnly(gym.ObservationWrapper):
    """The encoded view alone as the observation (the mask goes to MaskablePPO separately)."""

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]

    def observation(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        return observation["observation"]

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()


def make_env(max_turns: int, seed: int) -> gym.Env:
    env = candlebox.rl.gymnasium_env(
        GAME, seat=0, opponents="random", players=2, max_turns=max_turns
    )
    env.reset(seed=seed)
    return ViewOnly(env)


def play_reference(player: str, games: int, max_turns: int, seed: int) -> float:
    """Seat 0's average reward when it is a Candlebox bot (``player``) against the random bot."""
    total = 0.0
    for game in range(games):
        state = candlebox.new_game(GAME, players=2, seed=seed + game, max_turns=max_turns)
        seats = [bots.make(player, seed=seed + game), bots.make("random", seed=10_000 + game)]
        while not state.is_over:
            seat = state.to_act[0]
            state.apply(seat, seats[seat].choose(state, seat))
        total += candlebox.rl.rewards(state)[0]
    return total / games


def evaluate(model: Any, games: int, max_turns: int, seed: int) -> tuple[float, float]:
    """The greedy policy against the random bot over ``games`` games: (average reward, share of the
    games that seat 0 won by completing its Menorah before the turn limit)."""
    env = make_env(max_turns, seed)
    total = completed = 0.0
    for game in range(games):
        obs, _ = env.reset(seed=seed + game)
        done = False
        while not done:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, reward, terminated, truncated, _ = env.step(int(action))
            total += float(reward)
            done = terminated or truncated
        completed += float(terminated and reward > 0)
    return total / games, completed / games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timesteps", type=int, default=120_000)
    parser.add_argument("--eval-every", type=int, default=8_192)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--max-turns", type=int, default=60)
    parser.add_argument("--envs", type=int, default=4, help="environments stepped together")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=HERE / "train_candle_quest.png")
    args = parser.parse_args(argv)

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(1)
    started = time.perf_counter()
    eval_seed = 1_000_000  # evaluation games are never training games
    vec = DummyVecEnv(
        [lambda i=i: make_env(args.max_turns, args.seed * 100 + i) for i in range(args.envs)]
    )
    model = MaskablePPO(
        "MlpPolicy",
        vec,
        n_steps=512,
        batch_size=256,
        n_epochs=4,
        learning_rate=3e-4,
        gamma=0.995,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [128, 128]},
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    steps: list[int] = []
    rates: list[float] = []
    menorahs: list[float] = []
    while True:
        rate, menorah = evaluate(model, args.eval_games, args.max_turns, eval_seed)
        steps.append(int(model.num_timesteps))
        rates.append(rate)
        menorahs.append(menorah)
        elapsed = time.perf_counter() - started
        print(
            f"{steps[-1]:>8} timesteps: win rate {rate:.3f}, won by a Menorah {menorah:.3f}"
            f"  ({elapsed:.0f} s)",
            flush=True,
        )
        if steps[-1] >= args.timesteps:
            break
        model.learn(args.eval_every, reset_num_timesteps=False)
    random_ref = play_reference("random", args.eval_games, args.max_turns, eval_seed)
    heuristic_ref = play_reference("heuristic", args.eval_games, args.max_turns, eval_seed)
    elapsed = time.perf_counter() - started

    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=120)
    ax.plot(steps, rates, marker="o", label="MaskablePPO (seat 0, greedy) vs random: wins")
    ax.plot(
        steps,
        menorahs,
        marker="s",
        color="tab:orange",
        label="... of which by completing the Menorah",
    )
    ax.axhline(
        random_ref, color="grey", linestyle="--", label=f"random vs random ({random_ref:.2f})"
    )
    ax.axhline(
        heuristic_ref,
        color="green",
        linestyle=":",
        label=f"heuristic vs random ({heuristic_ref:.2f})",
    )
    ax.set_xlabel("training timesteps (decisions of seat 0)")
    ax.set_ylabel(f"win rate over {args.eval_games} games")
    ax.set_ylim(0, 1)
    ax.set_title(f"Candle Quest, basic, 2 players, {args.max_turns} turns: learning curve")
    ax.grid(alpha=0.3)
    ax.legend(loc="center right", fontsize=8)
    fig.tight_layout()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out)
    summary = {
        "game": GAME,
        "variant": "basic",
        "players": 2,
        "max_turns": args.max_turns,
        "timesteps": steps,
        "win_rate": rates,
        "won_by_menorah": menorahs,
        "random_vs_random": random_ref,
        "heuristic_vs_random": heuristic_ref,
        "eval_games": args.eval_games,
        "seconds": round(elapsed, 1),
        "seed": args.seed,
    }
    args.out.with_suffix(".json").write_text(json.dumps(summary, indent=2) + "\n")
    print(f"Saved {args.out} and {args.out.with_suffix('.json')} after {elapsed:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
