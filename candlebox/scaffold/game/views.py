"""Blind Bids' view as typed data: what the state builds and the heuristic, encoder and renderer read.

The fields carry the plain view's keys in order: ``msgspec.to_builtins(view)`` is ``state.view(seat)``.
"""

from __future__ import annotations

import msgspec


class Pending(msgspec.Struct, kw_only=True, frozen=True, gc=False):
    """The decision waited for: every seat that has not bid this round."""

    decision: str
    seats: list[int]


class BidsView(msgspec.Struct, kw_only=True, frozen=True, gc=False):
    """What a seat (None: a spectator) may know."""

    seat: int | None
    round: int  # the round being played, from 1
    rounds: int
    prize: int  # the prize turned up this round (0: the game is over)
    prizes_left: int  # prizes still face down
    points: list[int]
    bid: list[bool]  # who has bid this round (never what)
    hand: list[int]  # the seat's own cards ([] for a spectator)
    my_bid: int  # the seat's own bid this round (0: none yet)
    last: list[int]  # the bids revealed last round, by seat ([] before the first reveal)
    pending: Pending | None
    winners: list[int]  # empty until the game is over
