"""The commitment scheme of verifiable shuffles: its documented format (doctests) and its checks."""

from __future__ import annotations

import doctest
import hashlib
import json

import candlebox.engine.fairness as fairness

OPTIONS = {"deck": None, "max_turns": 10, "name": "Zoë"}


def test_the_module_doctests_hold() -> None:
    assert doctest.testmod(fairness).failed == 0


def test_the_commitment_is_sha256_of_the_documented_canonical_text() -> None:
    nonce = "ab" * 32
    text = fairness.canonical("T", "candle-quest", "basic", 3, OPTIONS, (1 << 63) - 1, nonce)
    assert text.isascii() and "\\u00eb" in text and " " not in text
    assert json.loads(text)["seed"] == str((1 << 63) - 1)
    digest = hashlib.sha256(text.encode()).hexdigest()
    assert fairness.commit("T", "candle-quest", "basic", 3, OPTIONS, (1 << 63) - 1, nonce) == digest


def test_any_change_breaks_the_opening() -> None:
    seed, nonce = fairness.draw()
    assert 0 <= seed < 1 << 63 and len(nonce) == 64
    opening = fairness.Opening("T", fairness.commit("T", "g", "v", 2, OPTIONS, seed, nonce))
    assert opening.check("g", "v", 2, OPTIONS, seed, nonce) == []
    changed = [
        ("g", "v", 2, OPTIONS, seed ^ 1, nonce),
        ("g", "v", 2, OPTIONS, seed, "cd" * 32),
        ("g", "v", 3, OPTIONS, seed, nonce),
        ("g", "w", 2, OPTIONS, seed, nonce),
        ("g", "v", 2, {**OPTIONS, "max_turns": 11}, seed, nonce),
        ("g", "v", 2, OPTIONS, str(seed), nonce),
        ("g", "v", 2, OPTIONS, seed, "xyz"),
    ]
    for args in changed:
        assert opening.check(*args), args
    assert fairness.Opening("U", opening.commitment).check("g", "v", 2, OPTIONS, seed, nonce)
