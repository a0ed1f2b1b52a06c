"""Paying for a loot or a guard: shekels, candles from behind the screen, or both; no change given.

The payment is taken one candle at a time (``discard R7``), in the order the player chooses, which is
also the order they land on the discard pile; ``pay N`` settles whatever is still owed in shekels. The
payment ends as soon as it is covered, so a candle can overshoot (no change) but never be redundant
(docs/rulings.md, 'Paying').
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from candlebox.games.candle_quest.candles import Kind
from candlebox.games.candle_quest.decision import Phase
from candlebox.games.candle_quest.notation import PAY
from candlebox.games.candle_quest.screen import take_out

if TYPE_CHECKING:
    from candlebox.games.candle_quest.state import CandleQuestState


def begin(st: CandleQuestState, seat: int, amount: int, purpose: int) -> None:
    st.due = amount
    st.paying = purpose
    st.phase = Phase.PAY
    st.actor = seat


def pay_actions(st: CandleQuestState, seat: int) -> list[str]:
    discard = st.content.discard
    actions = [discard[candle] for candle in sorted(st.screens[seat])]
    if st.shekels[seat] >= st.due:
        actions.append(PAY[st.due])
    return actions


def discard_candle(st: CandleQuestState, seat: int, candle: int) -> None:
    """A collected candle leaves the screen: Unlit ones leave the game, others go on the own pile."""
    take_out(st, seat, candle)
    if st.content.kind[candle] is Kind.UNLIT:
        st.removed.append(candle)
        st.events.append(("discard", seat, st.content.code[candle], "removed"))
    else:
        st.piles[seat].append(candle)
        st.events.append(("discard", seat, st.content.code[candle], "pile"))


def pay_with_candle(st: CandleQuestState, seat: int, candle: int) -> bool:
    """Whether the payment is now covered (the caller then finishes what it was for)."""
    discard_candle(st, seat, candle)
    st.due -= st.content.face[candle]
    if st.due <= 0:
        st.due = 0
        return True
    return False


def pay_with_shekels(st: CandleQuestState, seat: int, amount: int) -> bool:
    """Settles the rest of the payment: always covered."""
    st.shekels[seat] -= amount
    st.bank += amount
    st.due = 0
    st.events.append(("pay", seat, amount))
    return True
