"""The Curse of Candelabria's view as typed data: what the game builds and its heuristic and renderer
read (view.py builds it from the state).

Each Struct's fields carry the exact names of the plain view's keys, in the same order, so
``msgspec.to_builtins(typed)`` is ``state.view(seat)``. A key that only some views have is a field left
``UNSET`` (omitted from the plain form): a territory's ``castle`` and ``candles``, a seat's ``decay``,
battle fields and hand, the options' ``missions`` and ``decay_deck``, and each decision's own fields in
``Pending``. A game that is over is a ``FinishedView`` (its winners, scores and why it ended); readers
tell it apart with ``isinstance``.
"""

from __future__ import annotations

import msgspec
from msgspec import UNSET, UnsetType


class DecayCard(msgspec.Struct, kw_only=True, frozen=True, gc=False):
    """A Decay card (Decay option): its code and its effect's name."""

    card: str
    effect: str


class Pending(msgspec.Struct, kw_only=True, frozen=True, gc=False):
    """The decision waited for, with the fields its kind has (view.pending): the order keeps every
    decision's keys in the order the plain view has always had them."""

    decision: str
    seats: list[int]
    count: int | UnsetType = UNSET
    region: int | UnsetType | None = UNSET
    moves_left: int | UnsetType = UNSET
    extra_used: bool | UnsetType = UNSET
    territory: str | UnsetType = UNSET
    candle: str | UnsetType = UNSET  # "C-W": a house's candle by role
    steps: int | UnsetType = UNSET
    cards: list[str] | UnsetType = UNSET  # Nova Vita's cards drawn, to their drawer only
    role: str | UnsetType = UNSET
    curse: int | UnsetType = UNSET  # a Curse Board place, from 1
    decay: DecayCard | UnsetType | None = UNSET
    stage: int | UnsetType = UNSET  # the 2-player house choice: 1 or 2
    first: str | UnsetType = UNSET  # ... the house the first chooser took


class Region(msgspec.Struct, kw_only=True, frozen=True, gc=False):
    region: int
    colour: str
    corrupted: bool
    temples: list[str]  # colours, bottom to top


class Candle(msgspec.Struct, kw_only=True, frozen=True, gc=False):
    candle: str  # "C-W": house and role
    flames: int


class Territory(msgspec.Struct, kw_only=True, frozen=True, gc=False):
    territory: str
    region: int
    icon: str
    land_flames: list[str]  # houses
    castle: str | UnsetType = UNSET  # the house of the (first) Wandering Castle there
    candles: list[Candle] | UnsetType = UNSET


class Curse(msgspec.Struct, kw_only=True, frozen=True, gc=False):
    """A curse on the Curse Board and the flames in front of it (houses with at least one)."""

    curse: str
    region: int
    effect: str
    flames: dict[str, int]


class CurseModel(msgspec.Struct, kw_only=True, frozen=True, gc=False):
    """A curse's standee on the map: its Curse Board place (from 1) and its controller (None: 2-player,
    nobody's)."""

    curse: int
    territory: str
    owner: str | None


class UpgradePile(msgspec.Struct, kw_only=True, frozen=True, gc=False):
    top: str | None
    size: int


class Reserve(msgspec.Struct, kw_only=True, frozen=True, gc=False):
    gold: int
    wax: int


class SeatCandle(msgspec.Struct, kw_only=True, frozen=True, gc=False):
    territory: str
    flames: int
    card: str


class Seat(msgspec.Struct, kw_only=True, frozen=True, gc=False):
    """A house as the viewer sees it; ``hand`` for its own seat (or every seat once the game is over),
    ``known_hand`` (the cards everyone saw it receive) otherwise. In a battle: ``chosen`` once it has
    chosen in secret (``secret``, what, to itself only), ``played`` once revealed."""

    seat: int
    house: str | None
    name: str | None
    vp: int
    gold: int
    wax: int
    land_flames: int
    candle_flames: int
    castle: str | None
    candles: dict[str, SeatCandle]  # by role name: explorer, pilgrim, warrior
    deployed: list[str | None]
    maneuvered: list[str]
    upgrades: list[str]
    tactics: list[str]
    tactics_used: list[str]
    decay: list[DecayCard | None] | UnsetType = UNSET
    hand_size: int
    territories: list[str]
    chosen: bool | UnsetType = UNSET
    secret: list[str | None] | UnsetType = UNSET
    played: list[str | None] | UnsetType = UNSET  # a code, "resolved", or None (cancelled/none)
    hand: list[str] | UnsetType = UNSET
    known_hand: list[str] | UnsetType = UNSET


class Mission(msgspec.Struct, kw_only=True, frozen=True, gc=False):
    mission: str
    type: str
    text: str
    places: list[str | None]  # a house, "blocked", or None (free)


class Missions(msgspec.Struct, kw_only=True, frozen=True, gc=False):
    public: list[Mission]
    private: dict[str, Mission | None]  # by house; None: hidden from the viewer
    box: int


class CandelabriaView(msgspec.Struct, kw_only=True, frozen=True, gc=False):
    """What one seat (``seat``; None: a spectator) may know of a game of Candelabria."""

    game: str
    variant: str
    players: int
    seat: int | None
    side: str
    year: int
    season: str
    turn: int
    max_turns: int
    order: list[int]
    active: int | None
    pending: Pending | None
    regions: list[Region]
    territories: list[Territory]
    curses: list[Curse]
    curse_models: list[CurseModel]
    battles_left: list[int]
    battle: list[int]
    curse_deck: int
    tactics_board: list[str]
    tactics_deck: int
    upgrade_piles: list[UpgradePile]
    temples_left: dict[str, int]
    advanced_deck: int
    reserve: Reserve
    seats: list[Seat]
    missions: Missions | UnsetType = UNSET
    decay_deck: int | UnsetType = UNSET
    over: bool


class FinishedView(CandelabriaView, kw_only=True, frozen=True, gc=False):
    """A game that is over: its winners, final scores and why it ended."""

    winners: list[int]
    scores: list[float]
    end_reason: str
    truncated: bool
