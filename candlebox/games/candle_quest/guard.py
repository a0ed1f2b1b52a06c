"""Guarding your Menorah: a flipped Unlit candle must be paid for; then a bonus turn.

The FAQ case: a player who cannot pay discards their highest valued candle or all their shekels
(at least 1), and the Unlit candle leaves the game; with nothing at all it leaves with no effect.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from candlebox.games.candle_quest import payment, turn
from candlebox.games.candle_quest.decision import FOR_GUARD, Phase
from candlebox.games.candle_quest.notation import PAY
from candlebox.games.candle_quest.screen import put_behind

if TYPE_CHECKING:
    from candlebox.games.candle_quest.state import CandleQuestState


def begin_guard(st: CandleQuestState, seat: int, unlit: int) -> None:
    cost = st.content.face[unlit]
    if st.shekels[seat] + st.worth[seat] >= cost:
        payment.begin(st, seat, cost, FOR_GUARD)
    elif st.shekels[seat] == 0 and not st.screens[seat]:
        _unlit_leaves(st, seat)
    else:
        st.phase = Phase.SHORT
        st.actor = seat


def finish_guard(st: CandleQuestState, seat: int) -> None:
    unlit = st.table
    st.table = -1
    put_behind(st, seat, unlit)
    st.events.append(("guard", seat, st.content.code[unlit]))
    turn.start_bonus_turn(st)


def short_actions(st: CandleQuestState, seat: int) -> list[str]:
    """Cannot pay: the highest valued candle(s) by face value, Unlit included, or all shekels."""
    screen = st.screens[seat]
    actions = []
    if screen:
        face, discard = st.content.face, st.content.discard
        top = max(face[candle] for candle in screen)
        actions = [discard[candle] for candle in sorted(screen) if face[candle] == top]
    money = st.shekels[seat]
    if money >= 1:
        actions.append(PAY[money])
    return actions


def short_discard(st: CandleQuestState, seat: int, candle: int) -> None:
    payment.discard_candle(st, seat, candle)
    _unlit_leaves(st, seat)


def short_pay(st: CandleQuestState, seat: int, amount: int) -> None:
    st.shekels[seat] -= amount
    st.bank += amount
    st.events.append(("pay", seat, amount))
    _unlit_leaves(st, seat)


def _unlit_leaves(st: CandleQuestState, seat: int) -> None:
    unlit = st.table
    st.table = -1
    st.removed.append(unlit)
    st.events.append(("unlit-removed", seat, st.content.code[unlit]))
    turn.start_bonus_turn(st)
