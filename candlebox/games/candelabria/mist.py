"""Mist Season: "The first player in the turn initiative draws cards from the Curse Cards deck until 3 Curse
Cards have been drawn." House candles drawn on the way go to their house's hand; each curse goes on the
Curse Board, left to right, and corrupts its region (no battle there this year; region 6 never). With 3
players, after the First Year only 2 curses are drawn.

2-player mode: "you draw until you have 3 Curses on the holder" (the one carried over from last year
counts); "each Curse is immediately placed on the map in the territory depicting the 'Mine' action of the
Region" — no region token is flipped, and the carried-over curse stays where it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from candlebox.games.candelabria import missions
from candlebox.games.candelabria.marks import (
    CURSE_BOARD,
    CURSE_MODELS,
    DECKS,
    REGIONS,
    hand_moved,
    moved,
)
from candlebox.games.candelabria.schema import MINE, NEVER_CORRUPTED

if TYPE_CHECKING:
    from candlebox.games.candelabria.state import CandelabriaState

CURSES_PER_YEAR = 3
CURSES_AFTER_YEAR_ONE_3P = 2


def curses_to_draw(players: int, year: int) -> int:
    return CURSES_AFTER_YEAR_ONE_3P if players == 3 and year > 1 else CURSES_PER_YEAR


def run_mist(st: CandelabriaState) -> None:
    content = st.content
    drawer = st.order[0]
    if st.two_player:
        need = CURSES_PER_YEAR - len(st.curses)
    else:
        need = curses_to_draw(st.num_players, st.year)
        st.curses = []
    st.events.append(("mist", st.year, drawer))
    missions.mist(st)
    drawn = 0
    while drawn < need and st.curse_deck:
        entry = st.curse_deck.pop()
        if entry < 0:
            card = ~entry
            owner = st.seat_of[content.candles[card].house]
            st.hands[owner].append(card)
            st.known_hands[owner].append(card)
            hand_moved(st, owner)
            st.events.append(("house-candle", drawer, content.candles[card].code, owner))
            continue
        curse = content.curses[entry]
        st.events.append(("curse", drawer, curse.code, len(st.curses), curse.region))
        st.curses.append(entry)
        if st.two_player:
            mine = mine_of(st, curse.region)
            st.curse_models.append(mine)
            st.curse_owners.append(-1)
            st.events.append(("haunt", -1, len(st.curses) - 1, st.board.names[mine]))
        elif curse.region != NEVER_CORRUPTED:
            st.corrupted |= 1 << curse.region
        drawn += 1
    st.curse_influence = [[0] * st.num_players for _ in st.curses]
    # the Mist lays out a new Curse Board from the Curse deck, its models or corrupted regions
    for part in (CURSE_BOARD, DECKS, CURSE_MODELS, REGIONS):
        moved(st, part)


def mine_of(st: CandelabriaState, region: int) -> int:
    """The territory of ``region`` with the Mine icon (every curse region has one: rulings CA-1)."""
    board = st.board
    return next(t for t in board.region_terr[region] if board.icon[t] == MINE)
