"""16 Candies' view as typed data: what the game builds and its bots, encoder and renderer read.

Each Struct's fields carry the exact names of the plain view's keys, in the same order, so
``msgspec.to_builtins(typed)`` is ``state.view(seat)``. A key that only some views have is either a
field left ``UNSET`` (omitted from the plain form) or, where a reader needs it, a field of a subclass:
``HandSeat`` is a seat whose hand the viewer sees, ``ValuedSeat`` one whose three cards are worth a
hand, ``FinishedView`` a game that is over. Readers tell them apart with ``isinstance``.
"""

from __future__ import annotations

import msgspec
from msgspec import UNSET, UnsetType


class Card(msgspec.Struct, kw_only=True, frozen=True, gc=False):
    """A card in a hand seen by the viewer: its code and which half is on top."""

    card: str
    top: str
    bottom: str


class Seat(msgspec.Struct, kw_only=True, frozen=True, gc=False):
    """A seat as everyone sees it: its pool, how many cards it holds, and those known to be held
    (taken from the discard pile this round)."""

    seat: int
    pool: int
    out: bool
    cards: int
    known: list[str]


class HandSeat(Seat, kw_only=True, frozen=True, gc=False):
    """A seat whose hand the viewer sees: its own, or any once the game is over."""

    hand: list[Card]


class ValuedSeat(HandSeat, kw_only=True, frozen=True, gc=False):
    """A seen hand of three cards, and what its top halves are worth."""

    value: int
    candy: str
    penalty: int


class Pending(msgspec.Struct, kw_only=True, frozen=True, gc=False):
    """The decision waited for. ``final_turn`` for every decision but the pick-up; ``taken`` (and
    ``may_discard_taken``) when a discard follows a draw from the discard pile."""

    decision: str
    seats: list[int]
    final_turn: bool | UnsetType = UNSET
    taken: str | UnsetType = UNSET
    may_discard_taken: bool | UnsetType = UNSET


# omit_defaults: ``content`` (a pack's hash) is left out for the printed deck, so that a view of the
# printed game is what it always was (saved games' replays are checked against stored views)
class SixteenCandiesView(msgspec.Struct, kw_only=True, frozen=True, gc=False, omit_defaults=True):
    """What one seat (``seat``; None: a spectator) may know of a game of 16 Candies."""

    game: str
    variant: str
    players: int
    seat: int | None
    candies: dict[str, str]  # candy code -> name
    round: int
    rounds_played: int
    rounds: int | None
    turn: int
    turn_in_round: int
    max_turns: int
    marker: int
    active: int | None
    pending: Pending | None
    caller: int | None
    final_turns: list[int]
    draw_pile: int
    discard_pile: list[str]
    seats: list[Seat]
    over: bool
    content: str | None = None  # the content pack's hash, None for the printed deck


class FinishedView(SixteenCandiesView, kw_only=True, frozen=True, gc=False):
    """A game that is over: its winners, final scores and why it ended."""

    winners: list[int]
    scores: list[float]
    end_reason: str
    truncated: bool
