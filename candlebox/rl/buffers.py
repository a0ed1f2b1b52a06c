"""The arrays a batched environment writes each step, kept for its life: in the process's own memory,
or laid out in one shared block that the worker processes of ``vector_env(..., processes=K)`` write
their rows of (candlebox/rl/vector_processes.py)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

import numpy as np

ALIGN = 64  # each array starts on a cache line of the shared block


@dataclass(frozen=True)
class Buffers:
    """Every array of a batched env: row ``i`` of each is game ``i``."""

    obs: np.ndarray  # [N, D] float32: each game as its seat to act sees it
    final_obs: np.ndarray  # [N, D] float32: an ended game's last observation
    mask: np.ndarray  # [N, A] int8
    player: np.ndarray  # [N] int64: the seat to act
    rewards: np.ndarray  # [N, players] float32
    terminated: np.ndarray  # [N] bool
    truncated: np.ndarray  # [N] bool
    final: np.ndarray  # [N] bool: the game ended in this step (its row is a new game's)
    actions: np.ndarray  # [N] int64: the actions handed to worker processes

    @staticmethod
    def shapes(
        n: int, size: int, n_actions: int, players: int
    ) -> list[tuple[str, tuple[int, ...], type]]:
        return [
            ("obs", (n, size), np.float32),
            ("final_obs", (n, size), np.float32),
            ("mask", (n, n_actions), np.int8),
            ("player", (n,), np.int64),
            ("rewards", (n, players), np.float32),
            ("terminated", (n,), np.bool_),
            ("truncated", (n,), np.bool_),
            ("final", (n,), np.bool_),
            ("actions", (n,), np.int64),
        ]

    @classmethod
    def allocate(cls, n: int, size: int, n_actions: int, players: int) -> Buffers:
        """Zeroed arrays in this process's memory."""
        return cls(
            **{
                name: np.zeros(shape, dtype=dtype)
                for name, shape, dtype in cls.shapes(n, size, n_actions, players)
            }
        )

    @classmethod
    def nbytes(cls, n: int, size: int, n_actions: int, players: int) -> int:
        end = 0
        for _name, shape, dtype in cls.shapes(n, size, n_actions, players):
            end = _aligned(end) + int(np.prod(shape)) * np.dtype(dtype).itemsize
        return end

    @classmethod
    def over(cls, block: Any, n: int, size: int, n_actions: int, players: int) -> Buffers:
        """The arrays laid out in ``block`` (any writable buffer of ``nbytes`` bytes, zeroed)."""
        raw = np.frombuffer(block, dtype=np.uint8)
        arrays: dict[str, np.ndarray] = {}
        end = 0
        for name, shape, dtype in cls.shapes(n, size, n_actions, players):
            start = _aligned(end)
            count = int(np.prod(shape))
            end = start + count * np.dtype(dtype).itemsize
            arrays[name] = raw[start:end].view(dtype).reshape(shape)
        return cls(**arrays)

    def rows(self, lo: int, hi: int) -> Buffers:
        """Views of games ``lo … hi - 1`` (a worker's share)."""
        return Buffers(**{f.name: getattr(self, f.name)[lo:hi] for f in fields(self)})


def _aligned(offset: int) -> int:
    return -(-offset // ALIGN) * ALIGN
