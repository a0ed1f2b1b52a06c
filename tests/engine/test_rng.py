"""The generator inside every state: seeded, copyable, unbiased enough, and stable across versions."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from candlebox.engine import Rng, summarize

PINNED_SHUFFLE_TOP = [35, 25, 30, 20, 7, 26, 33, 31, 8, 29]


def test_known_sequence_never_changes() -> None:
    """Saved games replay only if the generator stays the same: its first outputs are pinned."""
    rng = Rng(1234)
    assert [rng.next64() for _ in range(3)] == [
        13478418381427711195,
        10936887474700444964,
        3728693401281897946,
    ]


def test_same_seed_same_stream_and_copies_are_independent() -> None:
    a, b = Rng(7), Rng(7)
    assert [a.below(100) for _ in range(50)] == [b.below(100) for _ in range(50)]
    c = a.copy()
    assert a.next64() == c.next64()
    a.next64()
    assert a.state != c.state


@given(st.integers(0, 2**64), st.lists(st.integers(), max_size=30))
def test_shuffle_is_a_permutation(seed: int, items: list[int]) -> None:
    shuffled = list(items)
    Rng(seed).shuffle(shuffled)
    assert Counter(shuffled) == Counter(items)


def _reference_shuffle(rng: Rng, items: list[int]) -> None:
    """The batched Fisher–Yates written the slow, obvious way: one bounded draw with bound P (the
    product of a batch's bounds, kept under 2**56) by Lemire's rule, then its mixed-radix digits."""
    i = len(items) - 1
    while i > 0:
        bounds = []
        product = 1
        while i > 0 and product * (i + 1) <= 1 << 56:
            product *= i + 1
            bounds.append(i + 1)
            i -= 1
        while True:
            wide = rng.next64() * product
            if wide % 2**64 >= 2**64 % product:
                break
        number = wide >> 64  # uniform in [0, product)
        digits = []
        for place, bound in enumerate(bounds):
            weight = 1
            for later in bounds[place + 1 :]:
                weight *= later
            digits.append(number // weight % bound)
        top = i + len(bounds)
        for offset, j in enumerate(digits):
            items[top - offset], items[j] = items[j], items[top - offset]


@given(st.integers(0, 2**64 - 1), st.integers(0, 60))
def test_shuffle_is_batched_fisher_yates(seed: int, size: int) -> None:
    """The inlined shuffle draws exactly what the slow reference draws (one algorithm, one stream)."""
    fast, slow = list(range(size)), list(range(size))
    a, b = Rng(seed), Rng(seed)
    a.shuffle(fast)
    _reference_shuffle(b, slow)
    assert fast == slow and a.state == b.state


def test_known_shuffle_never_changes() -> None:
    """Saved games replay only if shuffles stay the same: a 16 Candies deck's first shuffle is pinned."""
    cards = list(range(40))
    Rng(1234).shuffle(cards)
    assert cards[-10:] == PINNED_SHUFFLE_TOP


def test_every_ordering_is_equally_likely() -> None:
    """All 24 orders of four items, and the 120 of five, come up about equally often."""
    rng = Rng(5)
    for size, draws in ((4, 48_000), (5, 120_000)):
        counts: Counter[tuple[int, ...]] = Counter()
        for _ in range(draws):
            items = list(range(size))
            rng.shuffle(items)
            counts[tuple(items)] += 1
        expected = draws / len(counts)
        assert len(counts) == {4: 24, 5: 120}[size]
        assert all(abs(n - expected) < 0.15 * expected for n in counts.values())


def test_below_is_roughly_uniform() -> None:
    rng = Rng(99)
    counts = Counter(rng.below(6) for _ in range(60_000))
    assert all(9_400 < n < 10_600 for n in counts.values()) and len(counts) == 6


def test_bad_seeds_and_bounds_are_refused() -> None:
    with pytest.raises(ValueError, match="whole number"):
        Rng("seed")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="positive"):
        Rng(1).below(0)


def test_summarize_compresses_runs() -> None:
    assert (
        summarize(["buy", "sell", "auction 1", "auction 2", "auction 3"])
        == "buy, sell, auction 1–3"
    )
    assert summarize(["bid 3", "bid 5"]) == "bid 3, bid 5"
    assert summarize([]) == "nothing"
