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
# SplitMix64's state is a counter: each output adds _GOLDEN, so multiplying a difference of states by
# its inverse counts the outputs drawn between them (Rng.draws_since) at no cost to drawing.
_GOLDEN_INVERSE = pow(_GOLDEN, -1, 1 << 64)


_BATCH_LIMIT = 1 << 56  # a batch's bound product: at most 2**-8 of its draws are redrawn
# A shuffle's plan by length: batches of (bounds, 2**64 mod their product), from the top swap down.
_PLANS: dict[int, tuple[tuple[tuple[int, ...], int], ...]] = {}


def _plan(n: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Group the bounds n, n-1, ..., 2 of a Fisher–Yates shuffle of n items into batches."""
    plan = []
    bound = n
    while bound > 1:
        bounds: list[int] = []
        product = 1
        while bound > 1 and product * bound <= _BATCH_LIMIT:
            product *= bound
            bounds.append(bound)
            bound -= 1
        plan.append((tuple(bounds), (1 << 64) % product))
    _PLANS[n] = found = tuple(plan)
    return found


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
        """Fisher–Yates in place, several swaps drawn from each 64-bit output.

        Shuffles are the hottest chance in every game (16 Candies reshuffles its 40 cards every round),
        so the bounds of consecutive swaps (n, n-1, ...) are batched while their product P stays under
        2**56: one output z gives every index of the batch as the mixed-radix digits of
        floor(z * P / 2**64), read off by successive multiplications, and the batch is redrawn when the
        low 64 bits fall under 2**64 mod P. That is Lemire's unbiased bounded draw with bound P
        (Brackett-Rozinsky and Lemire, "Batched ranged random integer generation", 2024), so every
        permutation stays exactly equally likely, with a quarter of the generator calls and none of
        the per-swap rejection tests.
        """
        n = len(items)
        if n < 2:
            return
        plan = _PLANS.get(n) or _plan(n)
        state = self.state
        i = n - 1
        for bounds, threshold in plan:
            while True:
                state = (state + _GOLDEN) & _MASK
                z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                low = z ^ (z >> 31)
                picks = []
                for bound in bounds:
                    low *= bound
                    picks.append(low >> 64)
                    low &= _MASK
                if low >= threshold:
                    break
            for j in picks:
                items[i], items[j] = items[j], items[i]
                i -= 1
        self.state = state

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def draws_since(self, earlier: int) -> int:
        """How many 64-bit outputs were drawn since the generator's state was ``earlier`` (a value
        of :attr:`state`): 0 when no chance was used in between. Taking back a move relies on it
        (candlebox/engine/undoing.py)."""
        return ((self.state - earlier) * _GOLDEN_INVERSE) & _MASK

    def copy(self) -> Rng:
        twin = Rng(0)
        twin.state = self.state
        return twin
