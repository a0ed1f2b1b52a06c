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

from candlebox.games.sixteen_candies.cards import CODE, DECK, HALF_CODE
from candlebox.games.sixteen_candies.decision import Phase
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
            known.append(CODE[card])
    return known


def hand_info(st: SixteenCandiesState, owner: int) -> dict[str, Any]:
    """A hand as its owner sees it: each card with its top and bottom half, and its worth."""
    hand = st.hands[owner]
    cards = []
    halves = []
    for card, up in zip(hand, st.ups[owner], strict=True):
        top = 2 * card + up
        halves.append(top)
        cards.append({"card": CODE[card], "top": HALF_CODE[top], "bottom": HALF_CODE[top ^ 1]})
    info: dict[str, Any] = {"hand": cards}
    if len(hand) == 3:
        value, candy = hand_value(halves)
        info.update(value=value, candy=DECK.candy_codes[candy], penalty=hand_penalty(halves))
    return info


def _player(st: SixteenCandiesState, owner: int, viewer: int | None) -> dict[str, Any]:
    info: dict[str, Any] = {
        "seat": owner,
        "pool": st.pools[owner],
        "out": st.pools[owner] == 0,
        "cards": len(st.hands[owner]),
        "known": known_cards(st, owner),
    }
    if viewer == owner or st.phase is Phase.OVER:
        info.update(hand_info(st, owner))
    return info


def view(st: SixteenCandiesState, seat: int | None) -> dict[str, Any]:
    over = st.phase is Phase.OVER
    result: dict[str, Any] = {
        "game": st.game_id,
        "variant": st.variant,
        "players": st.num_players,
        "seat": seat,
        "candies": dict(zip(DECK.candy_codes, DECK.candy_names, strict=True)),
        "round": st.round,
        "rounds_played": st.rounds_played,
        "rounds": st.rounds_limit,
        "turn": st.turns,
        "turn_in_round": sum(1 for e in st.events[st.round_start :] if e[0] == "end-turn"),
        "max_turns": st.max_turns,
        "marker": st.marker,
        "active": None if over else st.active,
        "pending": st.pending(),
        "caller": st.caller if st.caller >= 0 else None,
        "final_turns": list(st.queue) if st.caller >= 0 and not over else [],
        "draw_pile": len(st.draw),
        "discard_pile": [CODE[card] for card in st.discard],
        "seats": [_player(st, owner, seat) for owner in range(st.num_players)],
        "over": over,
    }
    if over:
        result.update(
            winners=list(st.winners),
            scores=list(st.final),
            end_reason=st.end_reason,
            truncated=st.truncated,
        )
    return result


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
