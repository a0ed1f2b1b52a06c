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
from candlebox.engine.encoding import FEW, items
from candlebox.rl.buffers import Buffers
from candlebox.rl.core import Spec


class CandleboxVectorEnv(VectorEnv):
    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        spec: Spec,
        num_envs: int,
        copy: bool = True,
        buffers: Buffers | None = None,
    ) -> None:
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
        if buffers is None:
            buffers = Buffers.allocate(n, size, n_actions, self.num_players)
        self._buffers = buffers
        self._obs = buffers.obs
        self._final_obs = buffers.final_obs
        self._final = buffers.final
        self._mask = buffers.mask
        self._player = buffers.player
        self._rewards = buffers.rewards
        self._terminated = buffers.terminated
        self._truncated = buffers.truncated
        # Row views made once: a step writes each game's row without slicing the buffers again.
        self._obs_rows = list(self._obs)
        self._mask_rows = list(self._mask)
        flat = self._mask.reshape(-1)
        if not np.shares_memory(flat, self._mask):  # a copy: writes would be lost
            raise ValueError("the mask buffer must be C-contiguous")
        self._mask_items = items(flat)
        self._mask_base = [i * n_actions for i in range(n)]
        self._legal_ids = spec.actions.legal_ids_unsorted
        self._rows = np.arange(n)
        self._seed_rngs = [np.random.default_rng() for _ in range(n)]
        encoder = spec.encoder
        self._fill_state = encoder.fill_state if encoder.reads_state else None
        # An encoder that also writes into a row's memoryview is handed views made once here:
        # making one costs as much as several item writes, at every game's every step.
        self._fill_items = (
            getattr(encoder, "fill_state_items", None) if encoder.reads_state else None
        )
        self._obs_items = [items(row) for row in self._obs_rows]
        self._clip = not encoder.bounded
        # The games in play (hidden information included) and each one's legal ids now (the ones
        # of its mask row: cleared id by id at the next step).
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
        self._obs.fill(0.0)
        self._mask.fill(0)
        self._legal = [[] for _ in range(self.num_envs)]
        players = [0] * self.num_envs
        for i in range(self.num_envs):
            players[i] = self._new_game(i)
        self._player[:] = players
        if self._clip:
            np.clip(self._obs, 0.0, 1.0, out=self._obs)
        self._terminated[:] = False
        self._truncated[:] = False
        self._rewards[:] = 0.0
        self._final[:] = False
        return self._out(self._obs), self._info(None)

    def _new_game(self, i: int) -> int:
        """Deal game ``i`` anew into its zeroed row; the seat to act."""
        game_seed = int(self._seed_rngs[i].integers(0, 2**63 - 1))
        state = self.game_spec.config.new_game(game_seed)
        self.games[i] = state
        return self._observe(i, state)

    def _observe(self, i: int, state: State) -> int:
        """Game ``i``'s row (zeroed by the caller) and mask row; the seat to act."""
        seat = state.to_act[0]
        if self._fill_items is not None:
            self._fill_items(state, seat, self._obs_items[i])
        elif self._fill_state is not None:
            self._fill_state(state, seat, self._obs_rows[i])
        else:
            spec = self.game_spec
            spec.encoder.fill(spec.viewer(state, seat), self._obs_rows[i])
        # The mask row: its old ones cleared and the new ones set through one view of the whole
        # [N, A] buffer (few ids item by item, many by numpy), not row by row.
        flat = self._mask_items
        base = self._mask_base[i]
        old = self._legal[i]
        ids = self._legal_ids(state, seat)
        if len(old) <= FEW and len(ids) <= FEW:
            for a in old:
                flat[base + a] = 0
            for a in ids:
                flat[base + a] = 1
        else:
            row = self._mask_rows[i]
            row[old] = 0
            row[ids] = 1
        self._legal[i] = ids
        return seat

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Each game's seat to act plays its action; every action is checked before any is played,
        so an illegal one raises ValueError (naming the game) and changes no game."""
        if self.games[0] is None:
            raise RuntimeError("call reset() before step()")
        acts = check_actions(
            actions, self._mask, self._player, self.game_spec.actions.texts, self._rows
        )
        self.play(acts.tolist())
        return (
            self._out(self._obs),
            self._out(self._rewards),
            self._out(self._terminated),
            self._out(self._truncated),
            self._info(self._final),
        )

    def play(self, acts: list[int]) -> None:
        """``step``'s work on checked action ids: every buffer rewritten in place."""
        texts = self.game_spec.actions.texts
        rewards = self._rewards
        rewards.fill(0.0)
        self._terminated.fill(False)
        self._truncated.fill(False)
        final = self._final
        final.fill(False)
        self._obs.fill(0.0)  # every row is written anew below: one memset instead of N
        players = self._player.tolist()
        games = self.games
        observe = self._observe
        for i, action in enumerate(acts):
            state = games[i]
            assert state is not None
            seat = players[i]
            # Legal: ``check_actions`` found every action in its game's mask row, which holds the
            # engine's legal actions for this seat (the processes' variant checks the same way).
            state.apply_unchecked(seat, texts[action])
            if not state.is_over:
                players[i] = observe(i, state)
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
            players[i] = self._new_game(i)
        self._player[:] = players
        if self._clip:
            np.clip(self._obs, 0.0, 1.0, out=self._obs)

    def _out(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array

    def _info(self, final: np.ndarray | None) -> dict[str, Any]:
        info: dict[str, Any] = {
            "action_mask": self._out(self._mask),
            "current_player": self._out(self._player),
        }
        if final is not None and final.any():
            info["final_obs"] = self._out(self._final_obs)
            info["_final_obs"] = final.copy()
        return info

    def close_extras(self, **kwargs: Any) -> None:
        self.games = [None] * self.num_envs


def check_actions(
    actions: Any, mask: np.ndarray, player: np.ndarray, texts: Sequence[str], rows: np.ndarray
) -> np.ndarray:
    """The actions as an array, once every one is known legal in its game (its ``mask`` row);
    else ValueError naming the first bad game, before anything is played."""
    n, n_actions = mask.shape
    acts = np.asarray(actions)
    if acts.shape != (n,) or acts.dtype.kind not in "iu":
        raise ValueError(
            f"actions must be {n} integer action ids, got shape {acts.shape} of {acts.dtype}"
        )
    if acts.min() < 0 or acts.max() >= n_actions:
        bad = int(np.flatnonzero((acts < 0) | (acts >= n_actions))[0])
        raise ValueError(
            f"game {bad}: action id {int(acts[bad])} is out of range 0–{n_actions - 1}"
        )
    illegal = np.flatnonzero(mask[rows, acts] == 0)
    if illegal.size:
        i = int(illegal[0])
        raise ValueError(
            f"game {i}: action {int(acts[i])} ({texts[int(acts[i])]!r}) is illegal for seat "
            f"{int(player[i])} now ({len(illegal)} illegal action(s) in all)"
        )
    return acts
