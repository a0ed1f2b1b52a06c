"""Candle Quest's view as typed data: what the game builds and its bots, encoder and renderer read.

Each Struct's fields carry the exact names of the plain view's keys, in the same order, so
``msgspec.to_builtins(typed)`` is ``state.view(seat)``. A key that only some views have is either a
field left ``UNSET`` (omitted from the plain form) or, where a reader needs it, a field of a subclass:
``OpenSeat`` is a seat whose screen the viewer sees behind, ``FinishedView`` a game that is over, and
each decision its own ``Pending`` subclass. Readers tell them apart with ``isinstance``.
"""

from __future__ import annotations

import msgspec
from msgspec import UNSET, UnsetType


class Seat(msgspec.Struct, kw_only=True, frozen=True, gc=False):
    """A seat as everyone sees it: its discard pile and how many candles are behind its screen."""

    seat: int
    discard_pile: list[str]
    candles_behind_screen: int


class OpenSeat(Seat, kw_only=True, frozen=True, gc=False):
    """A seat whose screen the viewer sees behind: its own, or any once the game is over."""

    candles: list[str]
    shekels: int
    colours: int  # how many of the Menorah's colours are filled
    candle_value: int | UnsetType = UNSET  # advanced only


class Pending(msgspec.Struct, kw_only=True, frozen=True, gc=False):
    """The decision waited for; ``candle`` is the candle on the table, when there is one."""

    decision: str
    seats: list[int]
    candle: str | UnsetType = UNSET


class TurnPending(Pending, kw_only=True, frozen=True, gc=False):
    bonus_turn: bool


class BidPending(Pending, kw_only=True, frozen=True, gc=False):
    auctioneer: int
    high_bid: int
    high_bidder: int


class PayPending(Pending, kw_only=True, frozen=True, gc=False):
    paying_for: str  # "guard" or "loot"
    due: int


class GivePending(Pending, kw_only=True, frozen=True, gc=False):
    to: int


class CandleQuestView(msgspec.Struct, kw_only=True, frozen=True, gc=False):
    """What one seat (``seat``; None: a spectator) may know of a game of Candle Quest."""

    game: str
    variant: str
    players: int
    seat: int | None
    colours: list[str]
    turn: int
    max_turns: int
    active: int | None
    pending: Pending | None
    stack: int
    table: str | None
    set_aside: list[str]
    removed: list[str]
    bank: int
    seats: list[Seat]
    over: bool


class FinishedView(CandleQuestView, kw_only=True, frozen=True, gc=False):
    """A game that is over: its winners, final scores and why it ended."""

    winners: list[int]
    scores: list[float]
    end_reason: str
    truncated: bool
