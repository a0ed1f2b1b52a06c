"""What the state reader keeps of each state it read: the last observation (a canvas) with a copy
of the data every field was written from, and the state's numbers as the encoder's places (tables).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

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
        m[base + s] = _unit(value / scale)


def _cards(m: Memory, base: int, stride: int, index: list[int], held: list[list[int]]) -> None:
    """Each seat's cards (or tiles) as ones: ``held[s]`` at ``base + s * stride`` (-1: none)."""
    for s, codes in enumerate(held):
        start = base + s * stride
        for code in codes:
            if code >= 0:
                m[start + index[code]] = 1.0


class _Canvas:
    """The last observation written for one state, and a copy of each piece of state data it was
    written from (None: not written yet, which differs from any data)."""

    __slots__ = (
        "advanced_deck",
        "battle",
        "battle_seen",
        "battles_left",
        "candle_flame_supply",
        "candle_flames",
        "candle_territories",
        "castles",
        "content",
        "corrupted",
        "curse_deck",
        "curse_influence",
        "curse_models",
        "curse_owners",
        "curses",
        "decay_deck",
        "decay_slots",
        "gold",
        "hand_sizes",
        "head",
        "house_of",
        "land_flame_supply",
        "land_flames",
        "maneuvered",
        "mission_box",
        "mission_over",
        "mission_places",
        "mission_seat",
        "order",
        "picked",
        "played_tactics",
        "private_missions",
        "public_missions",
        "reserve_gold",
        "reserve_wax",
        "row",
        "seal_cards",
        "secret_seat",
        "secret_tactics",
        "seldom",
        "shown",
        "tab",
        "tactics",
        "tactics_board",
        "tactics_deck",
        "tactics_used",
        "temple_supply",
        "temples",
        "turns",
        "upgrade_piles",
        "upgrades",
        "view",
        "vp",
        "wax",
        "year",
        "zero",
    )

    # A copy of the state data each field was last written from (None: not written yet).
    advanced_deck: Any
    battle: Any
    battle_seen: Any
    battles_left: Any
    candle_flame_supply: Any
    candle_flames: Any
    candle_territories: Any
    castles: Any
    corrupted: Any
    curse_deck: Any
    curse_influence: Any
    curse_models: Any
    curse_owners: Any
    curses: Any
    decay_deck: Any
    decay_slots: Any
    gold: Any
    hand_sizes: Any
    house_of: Any
    land_flame_supply: Any
    land_flames: Any
    maneuvered: Any
    mission_box: Any
    mission_over: Any
    mission_places: Any
    mission_seat: Any
    order: Any
    played_tactics: Any
    private_missions: Any
    public_missions: Any
    reserve_gold: Any
    reserve_wax: Any
    seal_cards: Any
    secret_seat: Any
    secret_tactics: Any
    seldom: Any
    shown: Any
    tactics: Any
    tactics_board: Any
    tactics_deck: Any
    tactics_used: Any
    temple_supply: Any
    temples: Any
    turns: Any
    upgrade_piles: Any
    upgrades: Any
    vp: Any
    wax: Any
    year: Any

    def __init__(self, st: CandelabriaState, tab: _Tables, zero: Memory) -> None:
        self.row = np.zeros(len(zero), dtype=np.float32)
        self.view = cast(Memory, self.row.data)
        self.zero = zero  # zeros of the row's size, shared by the encoder's canvases
        self.content = st.content
        self.tab = tab
        self.head: list[int] = []  # the places the head wrote
        self.picked = False  # the row holds the 2-player house choice
        self.forget()

    def forget(self) -> None:
        """Every field to be written anew: the row cleared, no data kept."""
        self.view[:] = self.zero
        self.head.clear()
        for name in _DATA:
            setattr(self, name, None)

    def clear(self, span: tuple[int, int]) -> None:
        a, b = span
        self.view[a:b] = self.zero[a:b]


_DATA = tuple(
    name
    for name in _Canvas.__slots__
    if name not in ("content", "head", "picked", "row", "tab", "view", "zero")
)


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
