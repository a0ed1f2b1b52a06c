"""What the state reader keeps of each state it read: the last observation (a canvas) with a copy
of the data every field was written from, and the state's numbers as the encoder's places (tables).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import numpy as np

from candlebox.games.candelabria.decay import CODES as DECAY_CODES
from candlebox.games.candelabria.encoder.facts import (
    CARD_INDEX,
    CURSE_INDEX,
    DECAY_INDEX,
    HOUSES,
    MISSION_INDEX,
    TACTIC_COPIES,
    TACTIC_INDEX,
    TEMPLE_NAMES,
    TEMPLES_EACH,
    TILE_INDEX,
)
from candlebox.games.candelabria.missions import MISSIONS as MISSION_CARDS
from candlebox.games.candelabria.schema import TEMPLES
from candlebox.games.candelabria.state import CandelabriaState

if TYPE_CHECKING:
    Memory = memoryview[float]  # a float32 row, written item by item (much cheaper than numpy's)
else:
    Memory = memoryview


def _unit(x: float) -> float:
    """A number clipped to [0, 1], as ``encode`` clips what ``fill`` wrote."""
    return 0.0 if x < 0.0 else (1.0 if x > 1.0 else x)


def _sums(step: float, most: int) -> tuple[float, ...]:
    """Index k: what ``fill`` leaves after adding ``step`` k times to a float32 zero (``add_counts``,
    the temples), clipped to [0, 1]; the state reader counts first, then writes the entry."""
    acc = np.zeros(1, dtype=np.float32)
    sums = [0.0]
    for _ in range(most):
        acc[0] += step
        sums.append(_unit(float(acc[0])))
    return tuple(sums)


TACTIC_SUMS = _sums(1.0 / TACTIC_COPIES, 64)
TEMPLE_SUMS = _sums(1 / TEMPLES_EACH, 64)


def _counts(m: Memory, base: int, index: list[int], codes: list[int]) -> None:
    """``add_counts`` of the tactic cards ``codes`` (a card type per copy) at ``base``."""
    if not codes:
        return
    found: dict[int, int] = {}
    for code in codes:
        found[code] = found.get(code, 0) + 1
    for code, copies in found.items():
        m[base + index[code]] = TACTIC_SUMS[copies]


def _copy(value: list) -> list:
    """A copy of a list of ints, or of lists of ints, that later changes to the state leave alone."""
    return list(map(list.copy, value)) if value and type(value[0]) is list else value[:]


def _per_seat(m: Memory, base: int, values: list[int], scale: float) -> None:
    """A number per seat, divided by its bound."""
    for s, value in enumerate(values):
        x = value / scale  # _unit, inline: the rules move these parts at a third of the reads
        m[base + s] = x if 0.0 <= x <= 1.0 else (0.0 if x < 0.0 else 1.0)


def _cards(m: Memory, base: int, stride: int, index: list[int], held: list[list[int]]) -> None:
    """Each seat's cards (or tiles) as ones: ``held[s]`` at ``base + s * stride`` (-1: none)."""
    for s, codes in enumerate(held):
        start = base + s * stride
        for code in codes:
            if code >= 0:
                m[start + index[code]] = 1.0


class _Canvas:
    """The last observation written for one state object, with the state's change marks it was
    written at (marks.py): a part is written again only when its mark has moved since."""

    __slots__ = (
        "battle_seen",
        "content",
        "head",
        "land_flames",
        "marks",
        "over",
        "picked",
        "row",
        "seat",
        "source",
        "tab",
        "turns",
        "view",
        "zero",
    )

    marks: list[int] | None  # the marks the row was written at; None: none yet
    land_flames: list[int] | None  # the Land Flames the row shows (one int a territory)
    seat: int  # the seat it was written for
    over: bool  # written for a game over
    battle_seen: bool  # a battle's fields hold something
    turns: int

    def __init__(self, st: CandelabriaState, tab: _Tables, zero: Memory) -> None:
        self.row = np.zeros(len(zero), dtype=np.float32)
        self.view = cast(Memory, self.row.data)
        self.zero = zero  # zeros of the row's size, shared by the encoder's canvases
        self.content = st.content
        self.tab = tab
        # The state's own marks list: a new state object (a clone, a load) has a list of its own, so
        # a canvas found under a reused id is known not to be this state's.
        self.source = st.marks
        self.head: list[int] = []  # the places the head wrote
        self.picked = False  # the row holds the 2-player house choice
        self.forget()

    def forget(self) -> None:
        """Every field to be written anew: the row cleared, no marks kept."""
        self.view[:] = self.zero
        self.head.clear()
        self.marks = None
        self.land_flames = None
        self.seat = -1
        self.over = False
        self.battle_seen = False
        self.turns = -1

    def clear(self, span: tuple[int, int]) -> None:
        a, b = span
        self.view[a:b] = self.zero[a:b]


class _Tables:
    """The state's numbers (content and board indices) as the encoder's places: built once per
    content pack and board side, by code and name, so they follow the facts whatever the files' order."""

    __slots__ = (
        "board",
        "card",
        "content",
        "curse",
        "decay",
        "house",
        "land",
        "mission",
        "tactic",
        "temple",
        "terr",
        "tile",
    )

    def __init__(
        self, st: CandelabriaState, terr_index: dict[str, int], n: int, land_flames: int
    ) -> None:
        """``terr_index``: the layout's territory places; ``n`` the seats; ``land_flames`` the
        start of the layout's Land Flames field (territory x seat)."""
        content, board = st.content, st.board
        self.content, self.board = content, board
        self.card = [CARD_INDEX[c.code] for c in content.candles]
        self.tactic = [TACTIC_INDEX[t.code] for t in content.tactics]
        self.tile = [TILE_INDEX[t.code] for t in content.tiles]
        self.curse = [CURSE_INDEX[k.code] for k in content.curses]
        self.house = [HOUSES.index(h.code) for h in content.houses]
        self.terr = [terr_index[name] for name in board.names]
        self.temple = [TEMPLE_NAMES.index(colour) for colour in TEMPLES]
        self.decay = [DECAY_INDEX[code] for code in DECAY_CODES]
        self.mission = [MISSION_INDEX[card[0]] for card in MISSION_CARDS]
        # territory -> bitmask of seats -> the places of their Land Flames
        lf = land_flames
        self.land = [
            [tuple(lf + t * n + s for s in range(n) if mask >> s & 1) for mask in range(1 << n)]
            for t in self.terr
        ]
