"""Mist Season: "The first player in the turn initiative draws cards from the Curse Cards deck until 3 Curse
Cards have been drawn." House candles drawn on the way go to their house's hand; each curse goes on the
Curse Board, left to right, and corrupts its region (no battle there this year; region 6 never). With 3
players, after the First Year only 2 curses are drawn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from candlebox.games.candelabria.components import NEVER_CORRUPTED

if TYPE_CHECKING:
    from candlebox.games.candelabria.state import CandelabriaState

CURSES_PER_YEAR = 3
CURSES_AFTER_YEAR_ONE_3P = 2


def curses_to_draw(players: int, year: int) -> int:
    return CURSES_AFTER_YEAR_ONE_3P if players == 3 and year > 1 else CURSES_PER_YEAR


def run_mist(st: CandelabriaState) -> None:
    content = st.content
    drawer = st.order[0]
    need = curses_to_draw(st.num_players, st.year)
    st.events.append(("mist", st.year, drawer))
    st.curses = []
    drawn = 0
    while drawn < need and st.cdeck:
        entry = st.cdeck.pop()
        if entry < 0:
            card = ~entry
            owner = st.seat_of[content.candles[card].house]
            st.hand[owner].append(card)
            st.known[owner].append(card)
            st.events.append(("house-candle", drawer, content.candles[card].code, owner))
            continue
        curse = content.curses[entry]
        st.events.append(("curse", drawer, curse.code, len(st.curses), curse.region))
        st.curses.append(entry)
        if curse.region != NEVER_CORRUPTED:
            st.corrupt |= 1 << curse.region
        drawn += 1
    st.cinf = [[0] * st.num_players for _ in st.curses]
