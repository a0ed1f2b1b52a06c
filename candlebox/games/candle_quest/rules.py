"""The phase machine: which rule module lists and applies the actions of each pending decision.

This is the top of the rule modules (it imports them all; none imports it), so the steps that lead
from one module to another — a flipped Unlit candle to guarding, a payment made to the loot or guard
it was for — are taken here rather than by the modules calling each other back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from candlebox.games.candle_quest import auction, guard, junior, loot, payment, turn
from candlebox.games.candle_quest.decision import FOR_GUARD, FOR_LOOT, Phase

if TYPE_CHECKING:
    from candlebox.games.candle_quest.state import CandleQuestState

# What a payment that has been covered was for (payment.py's purposes).
_FINISH: dict[int, Callable[[CandleQuestState, int], None]] = {
    FOR_LOOT: loot.finish_loot,
    FOR_GUARD: guard.finish_guard,
}


def _paid(st: CandleQuestState, seat: int) -> None:
    finish = _FINISH.get(st.paying)
    if finish is None:  # pragma: no cover - the phase machine never pays for anything else
        raise AssertionError(f"payment for unknown purpose {st.paying}")
    finish(st, seat)


def _turn_action(st: CandleQuestState, seat: int, verb: str, arg: str) -> None:
    if verb == "flip":
        if turn.flip(st, seat):  # an Unlit candle is on the table: the flipper guards against it
            guard.begin_guard(st, seat, st.table)
    elif verb == "loot":
        loot.begin_loot(st, seat, int(arg))
    elif verb == "force":
        junior.force(st, seat, int(arg))
    else:
        turn.pass_turn(st, seat)


def _choose_action(st: CandleQuestState, seat: int, verb: str, arg: str) -> None:
    if verb == "buy":
        turn.buy(st, seat)
    elif verb == "sell":
        turn.sell(st, seat)
    else:
        auction.open_auction(st, seat, int(arg))


def _bid_action(st: CandleQuestState, seat: int, verb: str, arg: str) -> None:
    if verb == "bid":
        auction.bid(st, seat, int(arg))
    else:
        auction.pass_bid(st, seat)


def _pay_action(st: CandleQuestState, seat: int, verb: str, arg: str) -> None:
    if verb == "discard":
        covered = payment.pay_with_candle(st, seat, st.content.type_of[arg])
    else:
        covered = payment.pay_with_shekels(st, seat, int(arg))
    if covered:
        _paid(st, seat)


def _short_action(st: CandleQuestState, seat: int, verb: str, arg: str) -> None:
    if verb == "discard":
        guard.short_discard(st, seat, st.content.type_of[arg])
    else:
        guard.short_pay(st, seat, int(arg))


def _give_action(st: CandleQuestState, seat: int, verb: str, arg: str) -> None:
    junior.give(st, seat, st.content.type_of[arg])


DO = {
    Phase.TURN: _turn_action,
    Phase.CHOOSE: _choose_action,
    Phase.BID: _bid_action,
    Phase.PAY: _pay_action,
    Phase.SHORT: _short_action,
    Phase.GIVE: _give_action,
}
LEGAL = {
    Phase.TURN: turn.turn_actions,
    Phase.CHOOSE: turn.choose_actions,
    Phase.BID: auction.bid_actions,
    Phase.PAY: payment.pay_actions,
    Phase.SHORT: guard.short_actions,
    Phase.GIVE: junior.give_actions,
}
