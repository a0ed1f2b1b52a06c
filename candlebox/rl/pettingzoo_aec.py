"""A PettingZoo AEC environment for any covered game configuration.

Agents are ``player_0`` … ``player_{n-1}`` (agent ``player_s`` is seat ``s``). The agent to act is the
first seat of ``state.to_act``; when several seats decide at once (secret simultaneous choices), they are
asked one after another in seat order, and each observation is the seat's own view, which shows nothing
of the choices already made until the engine reveals them. Observations are dicts: ``observation``, the
view encoded as float32 in [0, 1], and ``action_mask``, int8, built from ``legal_actions``. Rewards: at
the end of the game 1 split evenly among the winners, 0 to the others; nothing before. A game ended by its
``max_turns`` option is reported as truncation (rewards still follow the engine's winners, rulings
'Ending early'), any other ending as termination.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from candlebox.engine import IllegalAction, State
from candlebox.rl import flat as flat_option
from candlebox.rl.core import Spec, rewards
from candlebox.rl.game_env import RENDER_MODES, GameInPlay, check_arguments


class CandleboxAECEnv(GameInPlay, AECEnv):
    metadata = {"render_modes": list(RENDER_MODES), "is_parallelizable": False, "render_fps": 4}

    def __init__(self, spec: Spec, render_mode: str | None = None, flat: bool = False) -> None:
        super().__init__()
        check_arguments(render_mode, flat)
        self.flat = flat  # one Box (view, then mask) instead of the Dict: candlebox/rl/flat.py
        self.game_spec = spec
        config = spec.config
        name = config.game_id.replace("-", "_")
        self.metadata = {**self.metadata, "name": f"candlebox_{name}_v0"}
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(config.players)]
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        n_actions = spec.num_distinct_actions
        self.observation_spaces: dict[str, spaces.Space] = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(
                        0.0, 1.0, shape=(spec.observation_size,), dtype=np.float32
                    ),
                    "action_mask": spaces.Box(0, 1, shape=(n_actions,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        if flat:
            self.observation_spaces = {
                agent: flat_option.flat_space(spec) for agent in self.possible_agents
            }
        self.action_spaces = {agent: spaces.Discrete(n_actions) for agent in self.possible_agents}
        self._seed_rng = np.random.default_rng()
        # One observation per step, made on first demand (``last`` and ``observe`` share it), in
        # new arrays: the caller may keep them, nothing here writes over them later.
        self._n_actions = n_actions
        self._moves = 0  # actions applied in this env's life: what a kept observation is valid for
        self._seen: tuple[int, int] = (-1, -1)  # (seat, moves) of the kept observation
        self._kept: dict[str, np.ndarray] = {}
        self.game: State | None = None  # the Candlebox game in play (hidden information included)
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. ``seed`` fixes this game and the seeds of the games after it."""
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
        game_seed = int(self._seed_rng.integers(0, 2**63 - 1))
        self.game = self.game_spec.config.new_game(game_seed)
        self._moves += 1
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self._select()
        if self.render_mode == "human":
            self.render()

    def _select(self) -> None:
        state = self.game
        assert state is not None
        if state.is_over:
            self._finish()
            return
        self.agent_selection = self.possible_agents[state.to_act[0]]
        if self.flat:  # where PettingZoo's tools look for a mask when the observation is a Box
            seat = state.to_act[0]
            mask = self.game_spec.actions.mask(state, seat)
            self.infos[self.agent_selection] = {
                **self.infos[self.agent_selection],
                "action_mask": mask,
            }

    def _finish(self) -> None:
        state = self.game
        assert state is not None
        shares = rewards(state)
        truncated = state.truncated
        for agent in self.agents:
            seat = self._seat_of[agent]
            self.rewards[agent] = shares[seat]
            self.terminations[agent] = not truncated
            self.truncations[agent] = truncated
            self.infos[agent] = {
                "winners": [self.possible_agents[w] for w in state.winners],
                "scores": list(state.scores),
            }
        if self.agents and getattr(self, "agent_selection", None) not in self.agents:
            self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> Any:
        kept = self._observe_dict(agent)
        if self.flat:
            return flat_option.join(kept["observation"], kept["action_mask"])
        return kept

    def _observe_dict(self, agent: str) -> dict[str, np.ndarray]:
        state = self._state()
        seat = self._seat_of[agent]
        if self._seen == (seat, self._moves):
            return self._kept  # asked again before any move (``last`` then ``observe``)
        spec = self.game_spec
        mask = np.zeros(self._n_actions, dtype=np.int8)
        spec.actions.fill_mask(state, seat, mask)
        self._seen = (seat, self._moves)
        self._kept = {"observation": spec.observe(state, seat), "action_mask": mask}
        return self._kept

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._state()
        seat = self._seat_of[agent]
        if action is None:
            raise ValueError(f"{agent} is to act: None is only for agents whose game is over")
        text = self.game_spec.actions.to_text(action)
        try:
            state.apply(seat, text)
        except IllegalAction as exc:
            raise ValueError(
                f"{agent}: action {int(action)} ({text!r}) is illegal: {exc}"
            ) from None
        self._moves += 1
        if state.is_over:
            self._cumulative_rewards[agent] = 0.0
            self._clear_rewards()
            self._finish()
            self._accumulate_rewards()
        else:
            # Nobody is paid before the end: the reward dicts stay all zeros, nothing to rebuild.
            self._select()
        if self.render_mode == "human":
            self.render()

    # ------------------------------------------------------------------ output
    def render(self) -> str | None:
        """The table as a spectator sees it, plus the pending decision (text)."""
        return self._render(None)


def pettingzoo_env(
    game_id: str,
    players: int = 2,
    variant: str | None = None,
    render_mode: str | None = None,
    flat: bool = False,
    **options: Any,
) -> CandleboxAECEnv:
    return CandleboxAECEnv(Spec.make(game_id, players, variant, **options), render_mode, flat)
