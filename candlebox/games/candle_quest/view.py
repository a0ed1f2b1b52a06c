"""What each seat may see: its own screen, the table, the discard piles, and the public log.

The exact split (docs/rulings.md, 'Screens'): behind a screen are the collected candles and the shekels.
A rival's view shows how many candles are behind each screen, never which, nor their shekels. Everything
that happens face up on the table (flips, purchases, bids, loots, payments, discards) is public in the log.
The draw stack's order is known to nobody. When the game is over the screens are lifted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from msgspec import UNSET, structs

from candlebox.games.candle_quest.decision import FOR_GUARD, NAMES, Phase
from candlebox.games.candle_quest.scoring import candle_value, colours_filled
from candlebox.games.candle_quest.views import (
    BidPending,
    CandleQuestView,
    FinishedView,
    GivePending,
    OpenSeat,
    PayPending,
    Pending,
    Seat,
    TurnPending,
)

if TYPE_CHECKING:
    from candlebox.games.candle_quest.state import CandleQuestState

# Field names of each event kind, after the kind itself; every Candle Quest event is public.
EVENT_FIELDS: dict[str, tuple[str, ...]] = {
    "start-draw": ("seat", "candle"),
    "start-player": ("seat",),
    "flip": ("seat", "candle"),
    "set-aside": ("seat", "candle"),
    "no-candle": ("seat",),
    "rebuild": ("count",),
    "mix-back": ("count",),
    "buy": ("seat", "candle", "price"),
    "sell": ("seat", "candle", "received"),
    "auction": ("seat", "candle", "bid"),
    "bid": ("seat", "amount"),
    "pass-bid": ("seat",),
    "auction-won": ("seat", "candle", "price", "paid_to"),
    "loot": ("seat", "from", "candle", "cost"),
    "looted": ("seat", "candle"),
    "discard": ("seat", "candle", "to"),
    "pay": ("seat", "amount"),
    "guard": ("seat", "candle"),
    "unlit-removed": ("seat", "candle"),
    "bonus-turn": ("seat",),
    "force": ("seat", "target", "candle"),
    "give": ("seat", "to", "candle"),
    "pass": ("seat",),
    "end-turn": ("seat", "turn"),
    "menorah": ("seat",),
    "game-over": ("reason", "winners"),
}


def event_view(event: tuple, seat: int | None) -> dict[str, Any]:
    kind = event[0]
    entry: dict[str, Any] = {"event": kind}
    for name, value in zip(EVENT_FIELDS[kind], event[1:], strict=True):
        entry[name] = list(value) if isinstance(value, tuple) else value
    if kind == "auction-won" and entry["paid_to"] == -1:
        entry["paid_to"] = "bank"
    return entry


def _player(st: CandleQuestState, owner: int, viewer: int | None, over: bool) -> Seat:
    screen = st.screens[owner]
    code = st.content.code
    pile = [code[candle] for candle in st.piles[owner]]
    behind = sum(screen.values())
    if viewer == owner or over:
        return OpenSeat(
            seat=owner,
            discard_pile=pile,
            candles_behind_screen=behind,
            candles=[code[candle] for candle in sorted(screen) for _ in range(screen[candle])],
            shekels=st.shekels[owner],
            colours=colours_filled(screen, st.content),
            candle_value=candle_value(screen, st.content) if st.advanced else UNSET,
        )
    return Seat(seat=owner, discard_pile=pile, candles_behind_screen=behind)


def pending(st: CandleQuestState) -> Pending | None:
    """The decision waited for, typed (``state.pending()`` is its plain form)."""
    phase = st.phase
    if phase is Phase.OVER:
        return None
    decision = NAMES[phase]
    seats = [st.actor]
    code = st.content.code
    candle = code[st.table] if st.table >= 0 else UNSET
    if phase is Phase.TURN:
        return TurnPending(decision=decision, seats=seats, candle=candle, bonus_turn=st.bonus)
    if phase is Phase.BID:
        return BidPending(
            decision=decision,
            seats=seats,
            candle=candle,
            auctioneer=st.active,
            high_bid=st.high,
            high_bidder=st.high_bidder,
        )
    if phase is Phase.PAY:
        return PayPending(
            decision=decision,
            seats=seats,
            candle=candle,
            paying_for="guard" if st.paying == FOR_GUARD else "loot",
            due=st.due,
        )
    if phase is Phase.GIVE:
        return GivePending(decision=decision, seats=seats, candle=candle, to=st.active)
    return Pending(decision=decision, seats=seats, candle=candle)


def typed_view(st: CandleQuestState, seat: int | None) -> CandleQuestView:
    """What ``seat`` may know, typed; ``state.view(seat)`` is its plain form."""
    over = st.phase is Phase.OVER
    code = st.content.code
    typed = CandleQuestView(
        game=st.game_id,
        variant=st.variant,
        players=st.num_players,
        seat=seat,
        colours=list(st.content.candles.colour_names),
        turn=st.turns,
        max_turns=st.max_turns,
        active=None if over else st.active,
        pending=pending(st),
        stack=len(st.stack),
        table=code[st.table] if st.table >= 0 else None,
        set_aside=[code[candle] for candle in st.aside],
        removed=[code[candle] for candle in st.removed],
        bank=st.bank,
        seats=[_player(st, owner, seat, over) for owner in range(st.num_players)],
        over=over,
    )
    if not over:
        return typed
    return FinishedView(
        **structs.asdict(typed),
        winners=list(st.winners),
        scores=list(st.final),
        end_reason=st.end_reason,
        truncated=st.truncated,
    )


def describe(st: CandleQuestState) -> str:
    """The pending decision in words."""
    who = f"seat {st.actor}"
    table = st.content.code[st.table] if st.table >= 0 else ""
    phase = st.phase
    if phase is Phase.OVER:
        return "the game is over"
    if phase is Phase.TURN:
        kind = "a bonus turn" if st.bonus else "a turn"
        return f"{who} is to take {kind}"
    if phase is Phase.CHOOSE:
        return f"{who} is to buy, sell or auction {table}"
    if phase is Phase.BID:
        return f"{who} is to bid on {table} or pass (high bid {st.high} by seat {st.high_bidder})"
    if phase is Phase.PAY:
        purpose = "guarding against" if st.table >= 0 and st.paying else "looting"
        return f"{who} is paying for {purpose} {table}: {st.due} still owed"
    if phase is Phase.SHORT:
        return f"{who} cannot pay for {table}: discard the highest valued candle or all shekels"
    return f"{who} is to give seat {st.active} a candle"
