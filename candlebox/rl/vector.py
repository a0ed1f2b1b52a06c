"""A batched self-play environment: ``num_envs`` games of one configuration stepped at once.

The design of pgx (the JAX game library) without the accelerator, in Gymnasium's ``VectorEnv``
conventions where they fit. Every game is self-play: each step, the seat to act in game ``i``
(``info["current_player"][i]``, the first seat of ``state.to_act``) plays ``actions[i]``.

- ``reset(seed=...)`` → ``obs`` ``[N, D]`` float32 (game ``i`` as the seat to act sees it),
  ``info`` with ``action_mask`` ``[N, A]`` int8 and ``current_player`` ``[N]`` int64.
- ``step(actions)`` → ``obs``, ``rewards`` ``[N, players]`` float32 (at a game's end 1 split among its
  winners, as in the other adapters; 0 before), ``terminated`` ``[N]``, ``truncated`` ``[N]`` (a game
  ended by ``max_turns``), ``info``.
- Auto-reset in the same step (Gymnasium's ``AutoresetMode.SAME_STEP``): a game that ends is replaced
  at once by a new one, whose first observation is returned; the ended game's last observation (for
  the seat that acted) is in ``info["final_obs"]``, flagged by ``info["_final_obs"]``.

Seeds: ``reset(seed=s)`` seeds game ``i`` with ``s + i`` (a list gives one seed per game); each game's
later games follow from its seed exactly as in the PettingZoo environment reset with that seed, so the
two adapters can be compared game by game (tests/rl/test_vector.py).

Observations, masks and rewards are written into arrays kept for the environment's lifetime; with
``copy=False`` the arrays returned are those buffers (overwritten by the next call: the fastest way),
with ``copy=True`` (the default, as Gymnasium's ``SyncVectorEnv``) copies.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from candlebox.engine import State
from candlebox.rl.core import Spec


class CandleboxVectorEnv(VectorEnv):
    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, spec: Spec, num_envs: int, copy: bool = True) -> None:
        if int(num_envs) != num_envs or num_envs < 1:
            raise ValueError(f"num_envs must be a positive whole number, not {num_envs!r}")
        self.game_spec = spec
        self.num_envs = int(num_envs)
        self.copy = copy
        self.num_players = spec.config.players
        size = spec.observation_size
        n_actions = spec.num_distinct_actions
        n = self.num_envs
        self.single_observation_space = spaces.Box(0.0, 1.0, shape=(size,), dtype=np.float32)
        self.single_action_space = spaces.Discrete(n_actions)
        self.observation_space = spaces.Box(0.0, 1.0, shape=(n, size), dtype=np.float32)
        self.action_space = spaces.MultiDiscrete(np.full(n, n_actions))
        self._obs = np.zeros((n, size), dtype=np.float32)
        self._final_obs = np.zeros((n, size), dtype=np.float32)
        self._mask = np.zeros((n, n_actions), dtype=np.int8)
        self._player = np.zeros(n, dtype=np.int64)
        self._rewards = np.zeros((n, self.num_players), dtype=np.float32)
        self._terminated = np.zeros(n, dtype=bool)
        self._truncated = np.zeros(n, dtype=bool)
        self._rows = np.arange(n)
        self._seed_rngs = [np.random.default_rng() for _ in range(n)]
        # The games in play (hidden information included) and each one's legal ids now.
        self.games: list[State | None] = [None] * n
        self._legal: list[list[int]] = [[] for _ in range(n)]

    def legal_ids(self) -> list[list[int]]:
        """Each game's legal action ids now (the ones of its mask row, in the engine's order): a
        cheaper start than the [N, A] mask for a policy that samples among few legal actions. The
        lists are the env's own: read them before the next step."""
        return self._legal

    # ------------------------------------------------------------------ episode
    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """New games everywhere; ``seed``: an int (game ``i`` gets ``seed + i``) or one per game."""
        if seed is not None:
            seeds = [seed + i for i in range(self.num_envs)] if isinstance(seed, int) else seed
            if len(seeds) != self.num_envs:
                raise ValueError(f"{len(seeds)} seeds given for {self.num_envs} games")
            self._seed_rngs = [np.random.default_rng(s) for s in seeds]
        for i in range(self.num_envs):
            self._new_game(i)
        np.clip(self._obs, 0.0, 1.0, out=self._obs)
        self._terminated[:] = False
        self._truncated[:] = False
        self._rewards[:] = 0.0
        return self._out(self._obs), self._info(None)

    def _new_game(self, i: int) -> None:
        game_seed = int(self._seed_rngs[i].integers(0, 2**63 - 1))
        state = self.game_spec.config.new_game(game_seed)
        self.games[i] = state
        self._observe(i, state)

    def _observe(self, i: int, state: State) -> None:
        seat = state.to_act[0]
        self._player[i] = seat
        self.game_spec.observe(state, seat, self._obs[i], clip=False)  # clipped all rows at once
        row = self._mask[i]
        row.fill(0)
        self._legal[i] = self.game_spec.actions.fill_mask(state, seat, row)

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Each game's seat to act plays its action; every action is checked before any is played,
        so an illegal one raises ValueError (naming the game) and changes no game."""
        if self.games[0] is None:
            raise RuntimeError("call reset() before step()")
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or acts.dtype.kind not in "iu":
            raise ValueError(
                f"actions must be {self.num_envs} integer action ids, got shape {acts.shape} "
                f"of {acts.dtype}"
            )
        n_actions = self._mask.shape[1]
        if acts.min() < 0 or acts.max() >= n_actions:
            bad = int(np.flatnonzero((acts < 0) | (acts >= n_actions))[0])
            raise ValueError(
                f"game {bad}: action id {int(acts[bad])} is out of range 0–{n_actions - 1}"
            )
        illegal = np.flatnonzero(self._mask[self._rows, acts] == 0)
        if illegal.size:
            i = int(illegal[0])
            text = self.game_spec.actions.texts[int(acts[i])]
            raise ValueError(
                f"game {i}: action {int(acts[i])} ({text!r}) is illegal for seat "
                f"{int(self._player[i])} now ({len(illegal)} illegal action(s) in all)"
            )
        texts = self.game_spec.actions.texts
        rewards = self._rewards
        rewards[:] = 0.0
        self._terminated[:] = False
        self._truncated[:] = False
        final = np.zeros(self.num_envs, dtype=bool)
        for i, action in enumerate(acts.tolist()):
            state = self.games[i]
            assert state is not None
            seat = int(self._player[i])
            state.apply(seat, texts[action])
            if not state.is_over:
                self._observe(i, state)
                continue
            final[i] = True
            self.game_spec.observe(state, seat, self._final_obs[i])
            winners = state.winners
            if winners:
                rewards[i, list(winners)] = 1.0 / len(winners)
            if state.truncated:
                self._truncated[i] = True
            else:
                self._terminated[i] = True
            self._new_game(i)
        np.clip(self._obs, 0.0, 1.0, out=self._obs)
        return (
            self._out(self._obs),
            self._out(rewards),
            self._out(self._terminated),
            self._out(self._truncated),
            self._info(final),
        )

    def _out(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array

    def _info(self, final: np.ndarray | None) -> dict[str, Any]:
        info: dict[str, Any] = {
            "action_mask": self._out(self._mask),
            "current_player": self._out(self._player),
        }
        if final is not None and final.any():
            info["final_obs"] = self._out(self._final_obs)
            info["_final_obs"] = final
        return info

    def close_extras(self, **kwargs: Any) -> None:
        self.games = [None] * self.num_envs


def vector_env(
    game_id: str,
    num_envs: int,
    players: int = 2,
    variant: str | None = None,
    copy: bool = True,
    **options: Any,
) -> CandleboxVectorEnv:
    return CandleboxVectorEnv(Spec.make(game_id, players, variant, **options), num_envs, copy=copy)
