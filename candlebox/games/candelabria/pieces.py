"""The pieces on the map: Land Flames, candles and their flames, castles; the small queries the rules ask.

"Each territory can have a maximum of one Land Flame per House" — so a territory's Land Flames are a
bitmask of seats. ``ctrl[seat][icon]`` counts the territories of each icon holding the seat's Land Flame
and is kept in step here, so a territory action's count is one look-up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from candlebox.games.candelabria.decision import CASTLE
from candlebox.games.candelabria.marks import (
    CANDLES,
    CASTLES,
    FLAME_SUPPLY,
    LAND_FLAMES,
    RESOURCES,
    VP,
)

if TYPE_CHECKING:
    from candlebox.games.candelabria.state import CandelabriaState


def place_land_flame(st: CandelabriaState, seat: int, t: int) -> None:
    """A Land Flame from the seat's supply onto territory ``t`` (the caller checked both)."""
    st.land_flames[t] |= 1 << seat
    st.land_flames_by_icon[seat][st.board.icon[t]] += 1
    st.land_flame_supply[seat] -= 1
    marks = st.marks
    marks[LAND_FLAMES] += 1
    marks[FLAME_SUPPLY] += 1


def lift_land_flame(st: CandelabriaState, seat: int, t: int) -> None:
    """The seat's Land Flame leaves territory ``t``; the caller decides where it goes."""
    st.land_flames[t] &= ~(1 << seat)
    st.land_flames_by_icon[seat][st.board.icon[t]] -= 1
    st.marks[LAND_FLAMES] += 1


def move_model(st: CandelabriaState, seat: int, model: int, t: int) -> int:
    """The seat's castle or candle ``model`` onto territory ``t``; where it was."""
    if model == CASTLE:
        src = st.castles[seat]
        st.castles[seat] = t
        st.marks[CASTLES] += 1
    else:
        src = st.candle_territories[seat][model]
        st.candle_territories[seat][model] = t
        st.marks[CANDLES] += 1
    return src


def position(st: CandelabriaState, seat: int, model: int) -> int:
    return st.castles[seat] if model == CASTLE else st.candle_territories[seat][model]


def has_piece_in_region(st: CandelabriaState, seat: int, region: int) -> bool:
    """A Land Flame, candle or castle of the seat in a region ("at least one of its pieces")."""
    board = st.board
    bit = 1 << seat
    for t in board.region_terr[region]:
        if st.land_flames[t] & bit:
            return True
    if board.region[st.castles[seat]] == region:
        return True
    return any(t >= 0 and board.region[t] == region for t in st.candle_territories[seat])


def enemy_flames_at(st: CandelabriaState, seat: int, t: int) -> bool:
    """An enemy Land Flame, or an enemy candle with a flame on it, in territory ``t``."""
    if st.land_flames[t] & ~(1 << seat):
        return True
    for other in range(st.num_players):
        if other != seat:
            pos, fl = st.candle_territories[other], st.candle_flames[other]
            for role in range(3):
                if pos[role] == t and fl[role] > 0:
                    return True
    return False


def enemy_flame_actions(
    st: CandelabriaState, seat: int, t: int, land: list[str], candle: list[list[str]]
) -> list[str]:
    """An action for each enemy flame in territory ``t`` (those ``enemy_flames_at`` finds): the
    owner's ``land[house]`` for its Land Flame, ``candle[house][role]`` for a candle with a flame."""
    actions: list[str] = []
    for other in range(st.num_players):
        if other == seat:
            continue
        h = st.house_of[other]
        if st.land_flames[t] >> other & 1:
            actions.append(land[h])
        for role in range(3):
            if st.candle_territories[other][role] == t and st.candle_flames[other][role] > 0:
                actions.append(candle[h][role])
    return actions


def enemy_candles_at(st: CandelabriaState, seat: int, t: int) -> bool:
    return any(
        other != seat and t in st.candle_territories[other] for other in range(st.num_players)
    )


def land_flame_to_supply(st: CandelabriaState, owner: int, count: int = 1) -> None:
    """Land Flames (off the map or the Curse Board) back to their owner's supply."""
    st.land_flame_supply[owner] += count
    st.marks[FLAME_SUPPLY] += 1


def candle_flame_back(st: CandelabriaState, owner: int, role: int) -> None:
    """One flame off a candle, back to its owner's supply."""
    st.candle_flames[owner][role] -= 1
    st.candle_flame_supply[owner] += 1
    marks = st.marks
    marks[CANDLES] += 1
    marks[FLAME_SUPPLY] += 1


def pay_gold(st: CandelabriaState, seat: int, cost: int) -> None:
    """Gold from the seat's warehouse to the reserve."""
    st.gold[seat] -= cost
    st.reserve_gold += cost
    st.marks[RESOURCES] += 1


def pay_wax(st: CandelabriaState, seat: int, cost: int) -> None:
    """Wax from the seat's warehouse to the reserve."""
    st.wax[seat] -= cost
    st.reserve_wax += cost
    st.marks[RESOURCES] += 1


def gain_vp(st: CandelabriaState, seat: int, amount: int, reason: str) -> None:
    st.vp[seat] += amount
    st.marks[VP] += 1
    st.events.append(("vp", seat, amount, reason))
