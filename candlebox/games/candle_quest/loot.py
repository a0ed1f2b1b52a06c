"""Loot a discarded candle: the top of any discard pile, for its face value plus sell value."""

from __future__ import annotations

from typing import TYPE_CHECKING

from candlebox.games.candle_quest import payment, turn
from candlebox.games.candle_quest.decision import FOR_LOOT

if TYPE_CHECKING:
    from candlebox.games.candle_quest.state import CandleQuestState


def begin_loot(st: CandleQuestState, seat: int, source: int) -> None:
    """The candle is taken off the pile first, so the payment's discards land on the pile after it."""
    st.passes = 0
    candle = st.piles[source].pop()
    st.table = candle
    st.loot_from = source
    cost = st.content.loot_cost[candle]
    st.events.append(("loot", seat, source, st.content.code[candle], cost))
    payment.begin(st, seat, cost, FOR_LOOT)


def finish_loot(st: CandleQuestState, seat: int) -> None:
    candle = st.table
    st.table = -1
    st.loot_from = -1
    st.events.append(("looted", seat, st.content.code[candle]))
    turn.collect(st, seat, candle)
