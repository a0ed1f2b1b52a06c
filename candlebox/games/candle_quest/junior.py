"""The junior game's extra option: instead of a turn, discard a collected Unlit candle (it leaves the
game) to force another player to give you a candle of their choice."""

from __future__ import annotations

from typing import TYPE_CHECKING

from candlebox.games.candle_quest import turn
from candlebox.games.candle_quest.candles import Kind
from candlebox.games.candle_quest.decision import Phase
from candlebox.games.candle_quest.screen import take_out

if TYPE_CHECKING:
    from candlebox.games.candle_quest.state import CandleQuestState


def force(st: CandleQuestState, seat: int, target: int) -> None:
    st.passes = 0
    kind, face = st.content.kind, st.content.face
    unlit = min((c for c in st.screens[seat] if kind[c] is Kind.UNLIT), key=face.__getitem__)
    take_out(st, seat, unlit)
    st.removed.append(unlit)
    st.events.append(("force", seat, target, st.content.code[unlit]))
    st.phase = Phase.GIVE
    st.actor = target


def give_actions(st: CandleQuestState, seat: int) -> list[str]:
    give = st.content.give
    return [give[candle] for candle in sorted(st.screens[seat])]


def give(st: CandleQuestState, seat: int, candle: int) -> None:
    take_out(st, seat, candle)
    receiver = st.active
    st.events.append(("give", seat, receiver, st.content.code[candle]))
    st.actor = receiver
    turn.collect(st, receiver, candle)
