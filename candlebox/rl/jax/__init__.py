"""The card games as JAX functions: thousands of games stepped at once, on a CPU or an accelerator.

Install the optional group first: ``pip install 'candlebox[jax]'`` (``jax[cpu]``; the same code runs
on a GPU where JAX has one). The engine's import path never imports JAX.

``make(game_id, players, variant=None, **options)`` returns the game's environment, whose API is
pgx's: ``init(key)`` → state, ``step(state, action, key)`` → state, ``observe(state, player)``; the
state carries ``current_player``, ``observation``, ``legal_action_mask``, ``rewards``, ``terminated``
and ``truncated``, and every function is jit- and vmap-able. Observations and action ids are the
PettingZoo env's (``candlebox.rl.spec``), so a policy trained on one plays the other.

The JAX rules are a second implementation of the engine's; ``check(game_id, players, games=N)`` plays
N games through both on the same deals and the same (random legal) actions and compares the legal
masks, every seat's observation, the rewards and the ends at every step. See docs/rl.md, "JAX".
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

try:
    import jax
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "candlebox.rl.jax needs the optional 'jax' dependencies: pip install 'candlebox[jax]'"
    ) from exc
import numpy as np

from candlebox.engine.encoding import Config
from candlebox.engine.registry import game_ids, game_info
from candlebox.engine.state import State
from candlebox.rl.core import Spec, rewards

__all__ = ["Policy", "Report", "check", "covered_games", "make"]

# What ``check`` plays: given the engine's state, the seat to act, its legal ids (ascending) and the
# game's random generator, an action id (by default a random legal one).
Policy = Callable[[State, int, list[int], random.Random], int]


def covered_games() -> list[str]:
    """The registered games whose rules exist as JAX functions (in registration order)."""
    return [game for game in game_ids() if game_info(game).capabilities.jax is not None]


def make(game_id: str, players: int = 2, variant: str | None = None, **options: Any) -> Any:
    """The environment of one configuration (options checked by the engine's registry)."""
    return _env(Config.make(game_id, players, variant, **options))


def _env(config: Config) -> Any:
    rules = game_info(config.game_id).jax_rules()
    if rules is None:
        known = ", ".join(covered_games())
        raise ValueError(
            f"game {config.game_id!r} has no JAX rules yet; covered: {known} (docs/rl.md, 'JAX')"
        )
    return rules.make(config)


@dataclass
class Report:
    """What ``check`` found: ``mismatches`` (steps where the two implementations differ), the games
    and steps compared, and the first differences, each naming the game, the step and the field."""

    games: int = 0
    steps: int = 0
    mismatches: int = 0
    truncated: int = 0  # games the max_turns option ended (the other ends are terminations)
    first: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "mismatches": self.mismatches,
            "games": self.games,
            "steps": self.steps,
            "truncated": self.truncated,
            "first": list(self.first),
        }

    def note(self, where: str, problems: list[str]) -> None:
        if problems:
            self.mismatches += 1
            if len(self.first) < 10:
                self.first.append(f"{where}: " + "; ".join(problems))


def check(
    game_id: str,
    players: int = 2,
    games: int = 10,
    variant: str | None = None,
    seed: int = 0,
    policy: Policy | None = None,
    **options: Any,
) -> dict[str, Any]:
    """Play ``games`` games through the engine and the JAX rules on the same deals (the engine's,
    seeds ``seed``, ``seed + 1``, …) and the same actions (random legal ones, or ``policy``'s),
    comparing at every step the seat to act, its legal mask, every seat's observation, the rewards
    and the end. Returns ``{"mismatches": 0, "games": …, "steps": …, "truncated": …, "first":
    [...]}`` when they agree."""
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games!r}")
    config = Config.make(game_id, players, variant, **options)
    spec = Spec(config)
    env = _env(config)
    init = jax.jit(env.init_dealt)
    step = jax.jit(env.step_dealt)
    observe_all = jax.jit(env.observe_all)
    report = Report(games=games)
    for game in range(games):
        choose = random.Random(seed + game)
        engine = config.new_game(seed + game)
        state = init(env.engine_pile(engine))
        report.note(f"game {game} start", _differences(spec, engine, state, observe_all, False))
        moves = 0
        while not engine.is_over:
            seat = engine.to_act[0]
            legal = spec.actions.legal_ids(engine, seat)
            action = choose.choice(legal) if policy is None else policy(engine, seat, legal, choose)
            if action not in legal:
                raise ValueError(f"the policy chose {action!r}, not one of the legal ids {legal}")
            marks = env.engine_marks(engine)
            engine.apply(seat, spec.actions.to_text(action))
            box, reshuffled = env.engine_deals(marks, engine, seat)
            state = step(state, action, box, reshuffled)
            moves += 1
            problems = _differences(spec, engine, state, observe_all, engine.is_over)
            report.note(f"game {game} step {moves}", problems)
        report.steps += moves
        report.truncated += engine.truncated
    return report.as_dict()


def _differences(spec: Spec, engine: State, state: Any, observe_all: Any, ended: bool) -> list[str]:
    """What differs between the engine's state and the JAX one, field by field."""
    problems: list[str] = []
    seat = engine.to_act[0] if engine.to_act else -1
    if int(state.current_player) != seat:
        problems.append(f"current_player {int(state.current_player)} != engine's {seat}")
    expected_mask = (
        spec.actions.mask(engine, seat).astype(bool)
        if seat >= 0
        else np.zeros(spec.num_distinct_actions, bool)
    )
    mask = np.asarray(state.legal_action_mask)
    if not np.array_equal(mask, expected_mask):
        extra = [spec.actions.to_text(i) for i in np.flatnonzero(mask & ~expected_mask)[:3]]
        missing = [spec.actions.to_text(i) for i in np.flatnonzero(expected_mask & ~mask)[:3]]
        problems.append(f"legal_action_mask: extra {extra}, missing {missing}")
    seen = np.asarray(observe_all(state))
    if seat >= 0 and not np.array_equal(np.asarray(state.observation), seen[seat]):
        problems.append("observation is not observe(state, current_player)")
    for viewer in range(engine.num_players):
        expected = spec.observe(engine, viewer)
        if not np.array_equal(seen[viewer], expected):
            wrong = sorted(
                {
                    name
                    for name, start, size in spec.encoder.fields()
                    if not np.array_equal(
                        seen[viewer][start : start + size], expected[start : start + size]
                    )
                }
            )
            problems.append(f"observation of seat {viewer}: {', '.join(wrong)}")
    expected_rewards = np.asarray(rewards(engine) if ended else [0.0] * engine.num_players)
    if not np.allclose(np.asarray(state.rewards), expected_rewards, atol=1e-6):
        problems.append(f"rewards {np.asarray(state.rewards).tolist()} != {expected_rewards}")
    truncated = engine.is_over and engine.truncated
    ends = (bool(state.terminated), bool(state.truncated))
    if ends != (engine.is_over and not truncated, truncated):
        problems.append(f"(terminated, truncated) {ends} != engine's")
    return problems
