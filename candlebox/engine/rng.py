"""The seeded generator every state carries.

Chance lives inside the state (as in boardgame.io), never in the module-level ``random``: a state's whole
future is fixed by its own generator, which serialises as one integer and is copied with the state. The
algorithm is SplitMix64: tiny, fast in pure Python, and stable across Python versions, so a saved game
replays identically everywhere.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def fresh_seed() -> int:
    """A seed from the operating system, for games started without one (recorded in the state)."""
    return secrets.randbits(63)


class Rng:
    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"seed must be a whole number, got {seed!r}")
        self.state = seed & _MASK

    def next64(self) -> int:
        self.state = z = (self.state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform whole number in [0, n), without bias (Lemire's multiply-and-reject)."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        product = self.next64() * n
        low = product & _MASK
        if low < n:
            threshold = ((1 << 64) - n) % n
            while low < threshold:
                product = self.next64() * n
                low = product & _MASK
        return product >> 64

    def shuffle(self, items: list) -> None:
        """Fisher–Yates in place; the generator is inlined because shuffles are a hot path."""
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            while True:
                state = (state + _GOLDEN) & _MASK
                z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                product = (z ^ (z >> 31)) * n
                low = product & _MASK
                if low >= n or low >= ((1 << 64) - n) % n:
                    break
            j = product >> 64
            items[i], items[j] = items[j], items[i]
        self.state = state

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def copy(self) -> Rng:
        twin = Rng(0)
        twin.state = self.state
        return twin
