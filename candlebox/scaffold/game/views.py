"""Blind Bids' view as typed data: what the state builds and the heuristic, encoder and renderer read.

The fields carry the plain view's keys in order: ``msgspec.to_builtins(view)`` is ``state.view(seat)``.
"""

from __future__ import annotations

import msgspec


class Pending(msgspec.Struct, kw_only=True, frozen=True, gc=False):
    """The decision waited for: every seat that has not bid this round."""

    decision: str
    seats: list[int]


class SeatView(msgspec.Struct, kw_only=True, frozen=True, gc=False):
    """A seat as everyone sees it (the browser's generic board shows these as its Seats table)."""

    seat: int
    points: int
    has_bid: bool  # this round (never what)
    last_bid: int  # the card revealed last round (0: none yet)


class BidsView(msgspec.Struct, kw_only=True, frozen=True, gc=False):
    """What a seat (None: a spectator) may know."""

    seat: int | None
    round: int  # the round being played, from 1
    rounds: int
    prize: int  # the prize turned up this round (0: the game is over)
    prizes_left: int  # prizes still face down
    hand: list[int]  # the seat's own cards ([] for a spectator)
    my_bid: int  # the seat's own bid this round (0: none yet)
    seats: list[SeatView]
    pending: Pending | None
    winners: list[int]  # empty until the game is over
