"""Game Play: a turn is draw, discard, rotate, and optionally call "I've got candy!".

"On a Players turn they may Draw and can optionally Call. Draw: Draw the top Card from the Draw Pile or
Discard Pile to your hand, then discard 1 Card. Call: If you think you have a Higher Hand than at least
one other Player, say 'I'VE GOT CANDY!' Opponents then get one final turn before everyone reveals their
Cards." "On your turn, you may rotate Cards in your hand to be any orientation you want."

Rulings (docs/rulings.md, 16 Candies): drawing is part of every turn (``draw="optional"`` lets a
player skip it, and then the discard too); the rotations of a turn come down to the orientation of the
three cards kept, chosen once after the discard; the call ends the turn; the card just taken from the
discard pile may go straight back (``rediscard=False`` forbids it); final turns have no call; an empty
draw pile is rebuilt from the discard pile but its top card, shuffled.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from candlebox.games.sixteen_candies import rounds
from candlebox.games.sixteen_candies.decision import Phase
from candlebox.games.sixteen_candies.notation import (
    CALL,
    DRAW_DISCARD,
    DRAW_PILE,
    END,
    SKIP,
)

if TYPE_CHECKING:
    from candlebox.games.sixteen_candies.state import SixteenCandiesState

_BOTH = [DRAW_PILE, DRAW_DISCARD]
_DISCARD_ONLY = [DRAW_DISCARD]
_PILE_ONLY = [DRAW_PILE]
_BOTH_SKIP = [DRAW_PILE, DRAW_DISCARD, SKIP]
_DISCARD_SKIP = [DRAW_DISCARD, SKIP]
_PILE_SKIP = [DRAW_PILE, SKIP]
_CALL_OR_END = [CALL, END]


# ----------------------------------------------------------------------------- orientation
def rotate_actions(st: SixteenCandiesState, seat: int) -> list[str]:
    return st.notation.rotations(st.hands[seat]).actions


def shows_instant(st: SixteenCandiesState, seat: int) -> bool:
    """Whether the seat's hand triggers an Instant Round Win now (turning it up in 'held' mode)."""
    rot = st.notation.rotations(st.hands[seat])
    if st.held_mode:
        if rot.held is None:
            return False
        st.ups[seat] = list(rot.held)
        return True
    return tuple(st.ups[seat]) in rot.winning


def do_setup(st: SixteenCandiesState, seat: int, action: str) -> None:
    """A player picks up the dealt cards and orients them; after the last, instant wins are checked."""
    st.ups[seat] = list(st.notation.rotations(st.hands[seat]).bits[action])
    queue = st.queue
    del queue[0]
    if queue:
        st.active = st.actor = queue[0]
        return
    winners = []
    seat = st.marker
    while True:  # clockwise from the marker, for the log's order
        if shows_instant(st, seat):
            winners.append(seat)
        seat = st.next_seat[seat]
        if seat == st.marker:
            break
    if winners:
        st.turns += 1  # an instant win at the pick-up counts as a turn (rulings SC-18)
        rounds.instant_win(st, tuple(winners))
        return
    st.active = st.actor = st.marker
    st.phase = Phase.DRAW


def do_rotate(st: SixteenCandiesState, seat: int, action: str) -> None:
    rot = st.notation.rotations(st.hands[seat])
    st.ups[seat] = list(rot.bits[action])
    if rot.instant[action]:  # in 'held' mode such a hand already won at the discard
        finish_turn(st, seat, instant=True)
    elif st.caller >= 0:  # a final turn: no call (rulings SC-9)
        finish_turn(st, seat)
    else:
        st.phase = Phase.CALL


# ----------------------------------------------------------------------------- draw
def draw_actions(st: SixteenCandiesState, seat: int) -> list[str]:
    pile = bool(st.draw) or len(st.discard) > 1
    if not st.discard:  # pragma: no cover - every turn ends with a card on the discard pile
        return _PILE_SKIP if st.optional_draw else _PILE_ONLY
    if st.optional_draw:
        return _BOTH_SKIP if pile else _DISCARD_SKIP
    return _BOTH if pile else _DISCARD_ONLY


def reshuffle(st: SixteenCandiesState) -> None:
    """The draw pile ran out: the discard pile but its top card, shuffled, is the new draw pile."""
    moved = st.discard[:-1]
    del st.discard[:-1]
    st.rng.shuffle(moved)
    st.draw = moved
    st.epoch += 1
    st.events.append(("reshuffle", len(moved)))


def do_draw(st: SixteenCandiesState, seat: int, action: str) -> None:
    if action == DRAW_PILE:
        if not st.draw:
            reshuffle(st)
        card = st.draw.pop()
        source = "pile"
        st.taken = -1
    elif action == DRAW_DISCARD:
        card = st.discard.pop()
        source = "discard"
        st.taken = card
    else:  # skip: no draw, so no discard (rulings SC-5)
        st.events.append(("skip", seat))
        st.taken = -1
        st.phase = Phase.ROTATE
        return
    st.srcs[seat].append(len(st.events))
    st.events.append(("draw", seat, source, st.content.code[card]))
    st.hands[seat].append(card)
    st.ups[seat].append(0)
    st.phase = Phase.DISCARD


# ----------------------------------------------------------------------------- discard
def discard_actions(st: SixteenCandiesState, seat: int) -> list[str]:
    hand = st.hands[seat]
    # The card just taken from the discard pile is the last in hand.
    cards = hand[:-1] if st.taken >= 0 and not st.rediscard else hand
    discard = st.notation.discard
    actions = [discard[t] for t in cards]
    if cards.count(st.content.wild) > 1:
        actions = list(dict.fromkeys(actions))
    return actions


def _wild_slot(st: SixteenCandiesState, seat: int) -> int:
    """Which of several Wilds leaves the hand. They are alike, but what the others know differs: a Wild
    known to be in hand (taken from the discard pile) goes first, unless it was just taken and may not
    go back."""
    hand = st.hands[seat]
    wild = st.content.wild
    last = len(hand) - 1 if st.taken == wild and not st.rediscard else len(hand)
    slots = [i for i in range(last) if hand[i] == wild]
    for i in slots:
        event = st.events[st.srcs[seat][i]]
        if event[0] == "draw" and event[2] == "discard":
            return i
    return slots[0]


def do_discard(st: SixteenCandiesState, seat: int, action: str) -> None:
    card = st.notation.discard_type[action]
    wild = st.content.wild
    hand = st.hands[seat]
    ups = st.ups[seat]
    srcs = st.srcs[seat]
    i = _wild_slot(st, seat) if card == wild and hand.count(wild) > 1 else hand.index(card)
    del hand[i]
    del ups[i]
    del srcs[i]
    st.discard.append(card)
    st.events.append(("discard", seat, st.content.code[card]))
    st.taken = -1
    j = len(hand) - 1  # keep the hand sorted: only the drawn card can be out of place
    while j > 0 and hand[j - 1] > hand[j]:
        hand[j - 1], hand[j] = hand[j], hand[j - 1]
        ups[j - 1], ups[j] = ups[j], ups[j - 1]
        srcs[j - 1], srcs[j] = srcs[j], srcs[j - 1]
        j -= 1
    if st.held_mode and shows_instant(st, seat):
        finish_turn(st, seat, instant=True)
        return
    st.phase = Phase.ROTATE


# ----------------------------------------------------------------------------- call, turn's end
def call_actions(st: SixteenCandiesState, seat: int) -> list[str]:
    return _CALL_OR_END


def do_call(st: SixteenCandiesState, seat: int, action: str) -> None:
    if action == CALL:
        st.caller = seat
        st.events.append(("call", seat))
        queue = []
        other = st.next_seat[seat]
        while other != seat:
            queue.append(other)
            other = st.next_seat[other]
        st.queue = queue
    finish_turn(st, seat)


def finish_turn(st: SixteenCandiesState, seat: int, instant: bool = False) -> None:
    st.turns += 1
    st.events.append(("end-turn", seat, st.turns))
    if instant:
        rounds.instant_win(st, (seat,))
        return
    if st.caller >= 0 and not st.queue:  # every final turn is over: reveal and score
        rounds.end_round(st, ())
        return
    if st.turns >= st.max_turns:
        rounds.end_game(st, "max-turns", reveal_hands=True)
        return
    if st.caller >= 0:
        st.active = st.actor = st.queue.pop(0)
    else:
        st.active = st.actor = st.next_seat[st.active]
    st.phase = Phase.DRAW


# The phase machine: the state dispatches through these (wired in by the game's __init__).
DO = {
    Phase.SETUP: do_setup,
    Phase.DRAW: do_draw,
    Phase.DISCARD: do_discard,
    Phase.ROTATE: do_rotate,
    Phase.CALL: do_call,
}
LEGAL = {
    Phase.SETUP: rotate_actions,
    Phase.DRAW: draw_actions,
    Phase.DISCARD: discard_actions,
    Phase.ROTATE: rotate_actions,
    Phase.CALL: call_actions,
}
