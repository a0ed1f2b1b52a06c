"""Auction: an opening bid by the flipper, one chance each for the others clockwise, then settlement."""

from __future__ import annotations

from typing import TYPE_CHECKING

from candlebox.games.candle_quest import turn
from candlebox.games.candle_quest.decision import Phase
from candlebox.games.candle_quest.notation import BID, PASS

if TYPE_CHECKING:
    from candlebox.games.candle_quest.state import CandleQuestState

BANK = -1  # who receives the price when the auctioneer wins their own auction


def open_auction(st: CandleQuestState, seat: int, amount: int) -> None:
    st.high = amount
    st.high_bidder = seat
    st.events.append(("auction", seat, st.content.code[st.table], amount))
    st.phase = Phase.BID
    st.actor = (seat + 1) % st.num_players


def bid_actions(st: CandleQuestState, seat: int) -> list[str]:
    money = st.shekels[seat]
    if money > st.high:
        return [PASS, *BID[st.high + 1 : money + 1]]
    return [PASS]


def bid(st: CandleQuestState, seat: int, amount: int) -> None:
    st.high = amount
    st.high_bidder = seat
    st.events.append(("bid", seat, amount))
    _next_bidder(st)


def pass_bid(st: CandleQuestState, seat: int) -> None:
    st.events.append(("pass-bid", seat))
    _next_bidder(st)


def _next_bidder(st: CandleQuestState) -> None:
    following = (st.actor + 1) % st.num_players
    if following == st.active:  # the player on the auctioneer's right has spoken: it is over
        settle(st)
    else:
        st.actor = following


def settle(st: CandleQuestState) -> None:
    winner, price, auctioneer = st.high_bidder, st.high, st.active
    st.shekels[winner] -= price
    if winner == auctioneer:
        st.bank += price
        payee = BANK
    else:
        st.shekels[auctioneer] += price
        payee = auctioneer
    candle = st.table
    st.table = -1
    st.high = st.high_bidder = -1
    st.events.append(("auction-won", winner, st.content.code[candle], price, payee))
    st.actor = auctioneer
    turn.collect(st, winner, candle)
