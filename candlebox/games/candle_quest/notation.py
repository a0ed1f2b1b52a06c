"""Candle Quest action notation (documented in docs/notation/candle-quest.md).

Every action is short text a person can type: ``flip``, ``loot 2``, ``buy``, ``sell``, ``auction 3``,
``bid 5``, ``pass``, ``discard R7``, ``pay 4``, ``force 1``, ``give Y2``. The strings are built once here so
that listing legal actions allocates nothing new.
"""

from __future__ import annotations

from collections.abc import Mapping

MAX_AMOUNT = 1000  # the largest bank the ``bank`` option allows: no bid or payment can exceed it
MAX_SEATS = 5

FLIP = "flip"
BUY = "buy"
SELL = "sell"
PASS = "pass"
AUCTION = tuple(f"auction {k}" for k in range(MAX_AMOUNT + 1))
BID = tuple(f"bid {k}" for k in range(MAX_AMOUNT + 1))
PAY = tuple(f"pay {k}" for k in range(MAX_AMOUNT + 1))
LOOT = tuple(f"loot {s}" for s in range(MAX_SEATS))
FORCE = tuple(f"force {s}" for s in range(MAX_SEATS))

_BARE = {FLIP, BUY, SELL, PASS}
_NUMBER = {
    "auction": "a number of shekels",
    "bid": "a number of shekels",
    "pay": "a number of shekels",
}
_SEAT = {"loot": "a seat number", "force": "a seat number"}
_CANDLE = {"discard", "give"}
VERBS = ("flip", "loot", "buy", "sell", "auction", "bid", "pass", "discard", "pay", "force", "give")


def malformed(action: str, codes: Mapping[str, int]) -> str | None:
    """Why ``action`` is not Candle Quest notation at all, or None if it is well formed; ``codes``
    are the candle codes of the candles played."""
    verb, _, arg = action.partition(" ")
    if verb in _BARE:
        return None if not arg else f"{verb!r} takes nothing after it"
    if verb in _NUMBER or verb in _SEAT:
        if arg.isdigit():
            return None
        return f"{verb!r} is followed by {_NUMBER.get(verb) or _SEAT[verb]}, e.g. '{verb} 2'"
    if verb in _CANDLE:
        if arg in codes:
            return None
        return f"{verb!r} is followed by a candle code such as R7, D9 or U4; {arg!r} is not one"
    return f"unknown action {verb!r}; Candle Quest actions are: {', '.join(VERBS)}"
