"""A Gymnasium single-agent environment: one seat learns, the other seats are Candlebox bots.

``step(action)`` applies the learner's action (an id of the configuration's action numbering), then lets
the bots play until the learner must decide again or the game is over. Observations are dicts like the
PettingZoo environment's (``observation``, ``action_mask``); ``action_masks()`` returns the mask too, as
sb3-contrib's MaskablePPO expects. Reward: at the end, 1 split evenly among the winners (the learner's
share), 0 before. ``terminated`` when the game ends by its rules, ``truncated`` when it reached
``max_turns``. An illegal action ends the episode with ``illegal_reward`` (default -1) and
``info["illegal_action"]`` set, unless ``illegal_action="raise"``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from candlebox import bots
from candlebox.engine import State
from candlebox.rl import flat as flat_option
from candlebox.rl.core import Spec, covered_games, rewards
from candlebox.rl.game_env import RENDER_MODES, GameInPlay, check_arguments

Opponents = str | bots.Bot | Sequence[str | bots.Bot]
RESET_ATTEMPTS = 100  # games the bots end before the learner's first decision are dealt again


class CandleboxEnv(GameInPlay, gym.Env):
    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4}

    def __init__(
        self,
        spec: Spec,
        seat: int = 0,
        opponents: Opponents = "random",
        render_mode: str | None = None,
        illegal_action: str = "lose",
        illegal_reward: float = -1.0,
        flat: bool = False,
    ) -> None:
        config = spec.config
        check_arguments(render_mode, flat)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < config.players:
            raise ValueError(f"seat must be one of 0–{config.players - 1}, got {seat!r}")
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action is 'lose' or 'raise', got {illegal_action!r}")
        self.game_spec = spec
        self.seat = seat
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self._opponents = self._opponent_list(opponents, config.players)
        self.action_space = spaces.Discrete(spec.num_distinct_actions)
        self.observation_space: spaces.Space = spaces.Dict(
            {
                "observation": spaces.Box(
                    0.0, 1.0, shape=(spec.observation_size,), dtype=np.float32
                ),
                "action_mask": spaces.Box(0, 1, shape=(spec.num_distinct_actions,), dtype=np.int8),
            }
        )
        self.flat = flat  # one Box (view, then mask) instead of the Dict: candlebox/rl/flat.py
        if flat:
            self.observation_space = flat_option.flat_space(spec)
        self.game: State | None = None  # the Candlebox game in play (hidden information included)
        self._bots: dict[int, bots.Bot] = {}

    def _opponent_list(self, opponents: Opponents, players: int) -> list[str | bots.Bot]:
        others = players - 1
        chosen: list[str | bots.Bot] = []
        if isinstance(opponents, str) or hasattr(opponents, "choose"):
            chosen = [cast("str | bots.Bot", opponents)] * others
        else:
            chosen = list(cast("Sequence[str | bots.Bot]", opponents))
        if len(chosen) != others:
            raise ValueError(
                f"opponents: {others} bots are needed (one per other seat), got {len(chosen)}"
            )
        for bot in chosen:
            if isinstance(bot, str):
                bots.make(bot, seed=0)  # a clear error now for an unknown name
        return chosen

    # ------------------------------------------------------------------ episode
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        for _ in range(RESET_ATTEMPTS):
            game_seed = int(self.np_random.integers(0, 2**63 - 1))
            self._bots = {}
            others = (s for s in range(self.game_spec.config.players) if s != self.seat)
            for other, bot in zip(others, self._opponents, strict=True):
                if isinstance(bot, str):
                    self._bots[other] = bots.make(
                        bot, seed=int(self.np_random.integers(0, 2**63 - 1))
                    )
                else:
                    self._bots[other] = bot
            self.game = self.game_spec.config.new_game(game_seed)
            self._play_bots()
            if not self.game.is_over:
                break
        else:  # pragma: no cover - needs a configuration where bots nearly always end the game
            raise RuntimeError(
                f"the bots ended {RESET_ATTEMPTS} games before seat {self.seat} had a decision"
            )
        if self.render_mode == "human":
            self.render()
        return self._observe(), {}

    def _play_bots(self) -> None:
        state = self._state()
        while not state.is_over:
            seat = state.to_act[0]
            if seat == self.seat:
                return
            state.apply(seat, self._bots[seat].choose(state, seat))

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        state = self._state()
        if state.is_over:
            raise RuntimeError("the episode is over: call reset()")
        numbering = self.game_spec.actions
        try:
            text = numbering.to_text(action)
        except ValueError:
            text = None
        legal = state.legal_actions(self.seat)
        if text is None or text not in legal:
            if self.illegal_action == "raise":
                raise ValueError(
                    f"action {action!r} ({text!r}) is not legal for seat {self.seat} now; "
                    f"legal ids: {numbering.ids(legal)}"
                )
            refused = {"illegal_action": True, "action": text}
            return self._observe(), self.illegal_reward, True, False, refused
        state.apply_unchecked(self.seat, text)
        self._play_bots()
        info: dict[str, Any] = {}
        reward = 0.0
        terminated = truncated = False
        if state.is_over:
            reward = rewards(state)[self.seat]
            truncated = state.truncated
            terminated = not truncated
            info = {"winners": list(state.winners), "scores": list(state.scores)}
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, terminated, truncated, info

    def _observe(self) -> Any:
        state = self._state()
        observation = self.game_spec.observe(state, self.seat)
        mask = self.game_spec.actions.mask(state, self.seat)
        if self.flat:
            return flat_option.join(observation, mask)
        return {"observation": observation, "action_mask": mask}

    def action_masks(self) -> np.ndarray:
        """The legal actions of the learner now, as booleans (for sb3-contrib's MaskablePPO)."""
        return self.game_spec.actions.mask(self._state(), self.seat).astype(bool)

    def render(self) -> str | None:
        """The table as the learner sees it (its own view), as text."""
        return self._render(self.seat)


def gymnasium_env(
    game_id: str,
    seat: int = 0,
    opponents: Opponents = "random",
    players: int = 2,
    variant: str | None = None,
    render_mode: str | None = None,
    illegal_action: str = "lose",
    illegal_reward: float = -1.0,
    flat: bool = False,
    **options: Any,
) -> CandleboxEnv:
    return CandleboxEnv(
        Spec.make(game_id, players, variant, **options),
        seat=seat,
        opponents=opponents,
        render_mode=render_mode,
        illegal_action=illegal_action,
        illegal_reward=illegal_reward,
        flat=flat,
    )


def gymnasium_id(game_id: str) -> str:
    """The id under which ``gymnasium.make`` knows a game: ``candlebox/<game id>-v0``."""
    return f"candlebox/{game_id}-v0"


def register_gymnasium() -> list[str]:
    """Register every covered game with Gymnasium (idempotent), so that
    ``gymnasium.make("candlebox/candle-quest-v0", players=3, ...)`` works; the ids registered."""
    ids = []
    for game_id in covered_games():
        env_id = gymnasium_id(game_id)
        if env_id not in gym.registry:
            gym.register(
                id=env_id,
                entry_point="candlebox.rl.gymnasium_single:gymnasium_env",
                kwargs={"game_id": game_id},
            )
        ids.append(env_id)
    return ids
