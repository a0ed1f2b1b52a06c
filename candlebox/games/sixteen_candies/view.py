"""What each seat may see: its own hand, the discard pile, the pools, and the log filtered for it.

Hidden (rulings SC-21): the cards in another player's hand and how they are turned,
until the reveal; which card a player dealt or drew from the draw pile (the log shows that they drew,
not what); the order of the draw pile. Public: how many cards each player holds, which card a player
took from the discard pile (the view lists the cards a player is known to hold that way), every
discard (the whole discard pile is listed, bottom to top), calls, reveals and scores. When the game is
over every hand is shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from msgspec import structs

from candlebox.games.sixteen_candies.decision import NAMES, Phase
from candlebox.games.sixteen_candies.views import (
    Card,
    FinishedView,
    HandSeat,
    Pending,
    Seat,
    SixteenCandiesView,
    ValuedSeat,
)
from candlebox.games.sixteen_candies.wild import hand_penalty, hand_value

if TYPE_CHECKING:
    from candlebox.games.sixteen_candies.state import SixteenCandiesState

# Field names of each event kind, after the kind itself.
EVENT_FIELDS: dict[str, tuple[str, ...]] = {
    "round": ("round", "marker", "seats"),
    "deal": ("seat", "card"),  # the card is seen by the seat dealt it only
    "flip": ("card",),
    "draw": ("seat", "source", "card"),  # from the pile ("pile"): the card is the drawer's only
    "skip": ("seat",),
    "reshuffle": ("count",),
    "discard": ("seat", "card"),
    "call": ("seat",),
    "end-turn": ("seat", "turn"),
    "instant-win": ("seat",),
    "reveal": ("seat", "cards", "tops", "value", "candy", "penalty"),
    "score": ("seat", "role", "rank", "due", "pool"),
    "out": ("seat",),
    "game-over": ("reason", "winners"),
}


# Shared by every typed view (read only); the plain view gets its own copy.


def is_private(event: tuple) -> bool:
    """Whether the event's card is seen by its own seat only."""
    kind = event[0]
    return kind == "deal" or (kind == "draw" and event[2] == "pile")


def event_view(event: tuple, seat: int | None) -> dict[str, Any]:
    kind = event[0]
    entry: dict[str, Any] = {"event": kind}
    for name, value in zip(EVENT_FIELDS[kind], event[1:], strict=True):
        entry[name] = list(value) if isinstance(value, tuple) else value
    if is_private(event) and seat != event[1]:
        del entry["card"]
    return entry


def known_cards(st: SixteenCandiesState, owner: int) -> list[str]:
    """The cards everyone knows ``owner`` holds: taken from the discard pile this round."""
    known = []
    for card, src in zip(st.hands[owner], st.srcs[owner], strict=True):
        event = st.events[src]
        if event[0] == "draw" and event[2] == "discard":
            known.append(st.content.code[card])
    return known


def _player(st: SixteenCandiesState, owner: int, viewer: int | None, over: bool) -> Seat:
    pool = st.pools[owner]
    hand = st.hands[owner]
    known = known_cards(st, owner)
    if viewer != owner and not over:
        return Seat(seat=owner, pool=pool, out=pool == 0, cards=len(hand), known=known)
    # The hand as its owner sees it: each card with its top and bottom half, and, for three cards,
    # their worth.
    deck = st.content
    code, half_code = deck.code, deck.half_code
    cards = []
    halves = []
    for card, up in zip(hand, st.ups[owner], strict=True):
        top = 2 * card + up
        halves.append(top)
        cards.append(Card(card=code[card], top=half_code[top], bottom=half_code[top ^ 1]))
    if len(hand) != 3:
        return HandSeat(
            seat=owner, pool=pool, out=pool == 0, cards=len(hand), known=known, hand=cards
        )
    value, candy = hand_value(deck, halves)
    return ValuedSeat(
        seat=owner,
        pool=pool,
        out=pool == 0,
        cards=3,
        known=known,
        hand=cards,
        value=value,
        candy=deck.deck.candy_codes[candy],
        penalty=hand_penalty(deck, halves),
    )


def turns_in_round(st: SixteenCandiesState) -> int:
    return sum(1 for e in st.events[st.round_start :] if e[0] == "end-turn")


def pending(st: SixteenCandiesState) -> Pending | None:
    """The decision waited for, typed (``state.pending()`` is its plain form)."""
    phase = st.phase
    if phase is Phase.OVER:
        return None
    decision = NAMES[phase]
    seats = [st.actor]
    if phase is Phase.SETUP:
        return Pending(decision=decision, seats=seats)
    final = st.caller >= 0
    if phase is Phase.DISCARD and st.taken >= 0:
        return Pending(
            decision=decision,
            seats=seats,
            final_turn=final,
            taken=st.content.code[st.taken],
            may_discard_taken=st.rediscard,
        )
    return Pending(decision=decision, seats=seats, final_turn=final)


def typed_view(st: SixteenCandiesState, seat: int | None) -> SixteenCandiesView:
    """What ``seat`` may know, typed; ``state.view(seat)`` is its plain form."""
    over = st.phase is Phase.OVER
    typed = SixteenCandiesView(
        game=st.game_id,
        variant=st.variant,
        players=st.num_players,
        seat=seat,
        candies=dict(zip(st.content.deck.candy_codes, st.content.deck.candy_names, strict=True)),
        round=st.round,
        rounds_played=st.rounds_played,
        rounds=st.rounds_limit,
        turn=st.turns,
        turn_in_round=turns_in_round(st),
        max_turns=st.max_turns,
        marker=st.marker,
        active=None if over else st.active,
        pending=pending(st),
        caller=st.caller if st.caller >= 0 else None,
        final_turns=list(st.queue) if st.caller >= 0 and not over else [],
        draw_pile=len(st.draw),
        discard_pile=[st.content.code[card] for card in st.discard],
        seats=[_player(st, owner, seat, over) for owner in range(st.num_players)],
        over=over,
        content=st.content.pack,
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


def describe(st: SixteenCandiesState) -> str:
    """The pending decision in words."""
    phase = st.phase
    if phase is Phase.OVER:
        return "the game is over"
    who = f"seat {st.actor}"
    final = " (final turn)" if st.caller >= 0 else ""
    if phase is Phase.SETUP:
        return f"{who} is to pick up and orient the dealt cards ('top ...')"
    if phase is Phase.DRAW:
        return f"{who} is to draw from the draw pile or the discard pile{final}"
    if phase is Phase.DISCARD:
        return f"{who} is to discard one of four cards{final}"
    if phase is Phase.ROTATE:
        return f"{who} is to choose which halves of the three cards are on top ('top ...'){final}"
    return f'{who} is to call "I\'ve got candy!" or end the turn'
