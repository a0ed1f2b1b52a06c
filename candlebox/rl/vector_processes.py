"""The batched self-play environment over several processes: ``vector_env(..., processes=K)``.

``K`` worker processes each step their share of the ``N`` games (games ``lo … hi - 1``, about N/K
each) with the single-process :class:`~candlebox.rl.vector.CandleboxVectorEnv`, whose arrays are
views of one block of shared memory: a worker writes its games' observation, mask, reward and
ending rows straight where this process reads them, so only the command and the legal ids travel
through the pipes. The same conventions, seeds and checks as the single-process env: game ``i`` is
the game the single-process env would play with the same seeds (tests/rl/test_vector.py), every
action is checked against the masks here before any worker plays, and an illegal one raises
``ValueError`` and changes no game.

The games themselves live in the workers (``games`` is not available here). ``close()`` stops the
workers; so does dropping the env (they are daemons, and a finalizer closes their pipes).
"""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing as mp
import weakref
from collections.abc import Sequence
from multiprocessing.connection import Connection
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from candlebox.rl.buffers import Buffers
from candlebox.rl.core import Spec
from candlebox.rl.vector import CandleboxVectorEnv, check_actions


def _worker(
    conn: Connection,
    block: Any,
    game_id: str,
    players: int,
    variant: str,
    options: dict[str, Any],
    n: int,
    lo: int,
    hi: int,
) -> None:
    """Step games ``lo … hi - 1`` of the shared buffers on command until told to close."""
    spec = Spec.make(game_id, players, variant, **options)
    shared = Buffers.over(
        block, n, spec.observation_size, spec.num_distinct_actions, spec.config.players
    )
    mine = shared.rows(lo, hi)
    env = CandleboxVectorEnv(spec, hi - lo, copy=False, buffers=mine)
    while True:
        try:
            command, argument = conn.recv()
        except EOFError:  # the env was dropped without close()
            return
        if command == "close":
            conn.send(("ok", None))
            return
        try:
            if command == "reset":
                env.reset(seed=argument)
            elif command == "step":
                env.play(mine.actions.tolist())
            else:
                raise ValueError(f"unknown command {command!r}")
        except Exception as exc:  # reported to the parent, which raises it
            conn.send(("error", f"{type(exc).__name__}: {exc}"))
            continue
        conn.send(("ok", env.legal_ids()))


class CandleboxProcessVectorEnv(VectorEnv):
    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        spec: Spec,
        num_envs: int,
        processes: int,
        copy: bool = True,
        context: str | None = None,
    ) -> None:
        if int(num_envs) != num_envs or num_envs < 1:
            raise ValueError(f"num_envs must be a positive whole number, not {num_envs!r}")
        if int(processes) != processes or not 1 <= processes <= num_envs:
            raise ValueError(
                f"processes must be a whole number from 1 to num_envs ({num_envs}), "
                f"not {processes!r}"
            )
        self.game_spec = spec
        self.num_envs = n = int(num_envs)
        self.processes = int(processes)
        self.copy = copy
        self.num_players = spec.config.players
        size = spec.observation_size
        n_actions = spec.num_distinct_actions
        self.single_observation_space = spaces.Box(0.0, 1.0, shape=(size,), dtype=np.float32)
        self.single_action_space = spaces.Discrete(n_actions)
        self.observation_space = spaces.Box(0.0, 1.0, shape=(n, size), dtype=np.float32)
        self.action_space = spaces.MultiDiscrete(np.full(n, n_actions))
        ctx: Any = mp.get_context(context)  # typeshed's BaseContext lacks Process
        # A RawArray: shared memory that the workers receive at their start, whatever the start
        # method, and that is freed with the last process holding it (no name to unlink).
        block = ctx.RawArray("b", Buffers.nbytes(n, size, n_actions, self.num_players))
        self._block = block
        self._buffers = Buffers.over(block, n, size, n_actions, self.num_players)
        self._rows = np.arange(n)
        self._legal: list[list[int]] = [[] for _ in range(n)]
        bounds = [n * k // self.processes for k in range(self.processes + 1)]
        self._shares = list(itertools.pairwise(bounds))
        config = spec.config
        self._conns: list[Connection] = []
        self._workers: list[Any] = []
        self._started = False
        for lo, hi in self._shares:
            parent, child = ctx.Pipe()
            game = (config.game_id, config.players, config.variant, config.given)
            worker = ctx.Process(
                target=_worker,
                args=(child, block, *game, n, lo, hi),
                name=f"candlebox-vector-{lo}-{hi}",
                daemon=True,
            )
            worker.start()
            child.close()
            self._conns.append(parent)
            self._workers.append(worker)
        self._finalizer = weakref.finalize(self, _stop, self._conns, self._workers)

    def legal_ids(self) -> list[list[int]]:
        """Each game's legal action ids now, as the single-process env gives them."""
        return self._legal

    def _command(self, messages: list[tuple[str, Any]]) -> None:
        """One message to each worker, then every answer; the first error is raised here."""
        for conn, message in zip(self._conns, messages, strict=True):
            conn.send(message)
        errors = []
        legal: list[list[int]] = []
        for conn in self._conns:
            status, payload = conn.recv()
            if status == "ok":
                legal.extend(payload)
            else:
                errors.append(payload)
        if errors:
            raise RuntimeError(f"a worker process failed: {errors[0]}")
        self._legal = legal

    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """New games everywhere; ``seed``: an int (game ``i`` gets ``seed + i``) or one per game."""
        seeds: Sequence[int] | None = None
        if seed is not None:
            seeds = [seed + i for i in range(self.num_envs)] if isinstance(seed, int) else seed
            if len(seeds) != self.num_envs:
                raise ValueError(f"{len(seeds)} seeds given for {self.num_envs} games")
        self._command(
            [("reset", None if seeds is None else list(seeds[lo:hi])) for lo, hi in self._shares]
        )
        self._started = True
        return self._out(self._buffers.obs), self._info()

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Each game's seat to act plays its action (checked here first, as the single env does)."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        b = self._buffers
        acts = check_actions(actions, b.mask, b.player, self.game_spec.actions.texts, self._rows)
        b.actions[:] = acts
        self._command([("step", None)] * self.processes)
        return (
            self._out(b.obs),
            self._out(b.rewards),
            self._out(b.terminated),
            self._out(b.truncated),
            self._info(),
        )

    def _out(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array

    def _info(self) -> dict[str, Any]:
        b = self._buffers
        info: dict[str, Any] = {
            "action_mask": self._out(b.mask),
            "current_player": self._out(b.player),
        }
        if b.final.any():
            info["final_obs"] = self._out(b.final_obs)
            info["_final_obs"] = b.final.copy()
        return info

    def close_extras(self, **kwargs: Any) -> None:
        self._finalizer()
        self._started = False


def _stop(conns: list[Connection], workers: list[Any]) -> None:
    """Ask every worker to stop, then wait for it (briefly: a stuck one is terminated)."""
    for conn in conns:
        with contextlib.suppress(OSError):  # already gone
            conn.send(("close", None))
    for conn, worker in zip(conns, workers, strict=True):
        worker.join(timeout=5)
        if worker.is_alive():
            worker.terminate()
            worker.join(timeout=5)
        conn.close()


def vector_env(
    game_id: str,
    num_envs: int,
    players: int = 2,
    variant: str | None = None,
    copy: bool = True,
    processes: int = 1,
    **options: Any,
) -> CandleboxVectorEnv | CandleboxProcessVectorEnv:
    """``num_envs`` self-play games of the configuration stepped at once (docs/rl.md): in this
    process, or with ``processes=K`` (K > 1) in K worker processes writing to shared memory."""
    spec = Spec.make(game_id, players, variant, **options)
    if processes == 1:
        return CandleboxVectorEnv(spec, num_envs, copy=copy)
    return CandleboxProcessVectorEnv(spec, num_envs, processes, copy=copy)
