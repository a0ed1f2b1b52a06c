"""The 16 Candies position as readable data (what a saved game's replay is checked against), and
resampling what a seat cannot know."""

from __future__ import annotations

from bisect import bisect_left
from typing import Any

from candlebox.engine import Rng
from candlebox.games.sixteen_candies.decision import Phase
from candlebox.games.sixteen_candies.instant_win import shows_four_five_six
from candlebox.games.sixteen_candies.state import SixteenCandiesState
from candlebox.games.sixteen_candies.view import is_private


def snapshot(st: SixteenCandiesState) -> dict[str, Any]:
    code, half_code = st.content.code, st.content.half_code

    def _codes(cards: list[int]) -> list[str]:
        return [code[card] for card in cards]

    return {
        "draw": _codes(st.draw[::-1]),
        "discard": _codes(st.discard),
        "hands": [_codes(hand) for hand in st.hands],
        "tops": [
            [half_code[2 * card + up] for card, up in zip(hand, ups, strict=True)]
            for hand, ups in zip(st.hands, st.ups, strict=True)
        ],
        "sources": [list(srcs) for srcs in st.srcs],
        "pools": list(st.pools),
        "marker": st.marker,
        "active": st.active,
        "actor": st.actor,
        "phase": st.phase.name.lower(),
        "queue": list(st.queue),
        "caller": st.caller,
        "taken": code[st.taken] if st.taken >= 0 else None,
        "epoch": st.epoch,
        "round": st.round,
        "round_start": st.round_start,
        "turns": st.turns,
        "rounds_played": st.rounds_played,
        "winners": list(st.winners),
        "final": list(st.final),
        "end_reason": st.end_reason,
    }


# ----------------------------------------------------------------------------- resample
# A resample deals again until the world is possible; the chance that a deal is not is a few percent
# at most (measured: tests/sixteen_candies/test_resample.py), so this bound is never met in practice.
MAX_DEALS = 1000


def resample(st: SixteenCandiesState, seat: int, seed: int) -> SixteenCandiesState:
    """A state ``seat`` cannot tell from this one.

    What ``seat`` cannot know: the cards of other players' hands that it has not seen taken from the
    discard pile, how every other player's cards are turned, and the order of the draw pile. Unknown
    cards are dealt anew *within their pool*: cards dealt or drawn before the first reshuffle of the
    round could be any card never seen this round; cards drawn after the k-th reshuffle come from that
    reshuffled pile (whose contents were public). The logged deals and draws of the cards moved are
    rewritten to match, so the new state's log is a possible one. Every seat also knows that nobody
    has won instantly this round: a deal in which someone would have (rulings SC-10: a 4-5-6 turned
    up, or held under ``instant_win="held"``, at a moment it was checked) is dealt again, so the
    result is uniform over the possible worlds (rejection from the uniform deal). It depends only on
    what the seat knows and the seed (states the seat cannot tell apart resample alike). The engine
    then hides the others' ``top`` actions in the history (``State.resample``).
    """
    twin = st.clone()
    assert isinstance(twin, SixteenCandiesState)
    _deal_possible(twin, seat, Rng(seed))
    return twin


def redeal(world: SixteenCandiesState, seat: int, seed: int) -> None:
    """Deal ``world``'s unknowns anew in place: ``world`` becomes exactly what ``resample(st, seat,
    seed)`` returns for any state ``st`` that ``world`` was resampled from for ``seat`` (a deal
    depends only on which cards each pool holds, and a determinization's pools hold the same
    cards). For rejection sampling, which throws most deals away: no copy of the state for each.
    The caller forgets what it kept of the old deal (``State._forget_legal``)."""
    _deal_possible(world, seat, Rng(seed))


def _deal_possible(twin: SixteenCandiesState, seat: int, rng: Rng) -> None:
    _deal(twin, seat, rng)
    for _ in range(MAX_DEALS - 1):
        if possible(twin):
            break
        _deal(twin, seat, rng)
    twin.rng = rng


def _deal(twin: SixteenCandiesState, seat: int, rng: Rng) -> None:
    """One deal of what ``seat`` cannot know, in place (the cards of each pool sorted, then shuffled:
    the result does not depend on how the pools were dealt before)."""
    if twin.phase is Phase.OVER:  # every hand is shown; only the draw pile's order is unknown
        twin.draw.sort()
        rng.shuffle(twin.draw)
        return
    events = twin.events
    reshuffles = [i for i in range(twin.round_start, len(events)) if events[i][0] == "reshuffle"]
    # pool number -> the unknown slots (seat, source event) whose card came from that pool. Slots
    # are named by their source event and cards are sorted before the shuffle, so the result
    # depends on nothing but what the seat knows and the seed.
    slots: dict[int, list[tuple[int, int]]] = {twin.epoch: []}
    where: dict[tuple[int, int], int] = {}
    for owner, srcs in enumerate(twin.srcs):
        if owner == seat:
            continue
        for index, src in enumerate(srcs):
            if is_private(events[src]):
                slots.setdefault(bisect_left(reshuffles, src), []).append((owner, src))
                where[owner, src] = index
    for pool in sorted(slots):
        places = sorted(slots[pool])
        cards = [twin.hands[owner][where[owner, src]] for owner, src in places]
        if pool == twin.epoch:
            cards += twin.draw
        cards.sort()
        rng.shuffle(cards)
        for (owner, src), card in zip(places, cards, strict=False):
            twin.hands[owner][where[owner, src]] = card
            events[src] = (*events[src][:-1], twin.content.code[card])
        if pool == twin.epoch:
            twin.draw = cards[len(places) :]
    for owner, hand in enumerate(twin.hands):
        if owner == seat or not hand:
            continue
        _sort_hand(twin, owner)
        twin.ups[owner] = [0 if card == twin.content.wild else rng.below(2) for card in hand]


def possible(st: SixteenCandiesState) -> bool:
    """Whether no Instant Round Win would have been called this round (rulings SC-10).

    The checks: every hand once all are picked up, and each player's hand at the end of each of its
    turns (in ``"held"`` mode at its discard, whatever the orientation; in ``"top"`` mode at its
    rotation, as turned). In ``"top"`` mode only the latest orientation is still on the table (each
    turn's is chosen afresh, and no hand is ever forced to show a 4-5-6), so it is the current tops of
    every hand checked since it last changed that must not win.
    """
    if st.phase is Phase.OVER or st.phase is Phase.SETUP:
        return True  # over: the hands are shown; setup: nothing has been checked this round
    return _held_possible(st) if st.held_mode else _tops_possible(st)


def _tops_possible(st: SixteenCandiesState) -> bool:
    """``"top"`` mode: no hand checked since it last changed shows a 4-5-6 on its current tops."""
    for owner, hand in enumerate(st.hands):
        if not hand or (owner == st.actor and st.phase is Phase.ROTATE):
            continue  # the actor's new hand is checked once it is turned
        ups = st.ups[owner]
        if owner == st.actor and st.phase is Phase.DISCARD:  # the hand before its draw
            hand, ups = hand[:-1], ups[:-1]
        halves = [2 * card + up for card, up in zip(hand, ups, strict=True)]
        if shows_four_five_six(st.content, halves):
            return False
    return True


def _held_possible(st: SixteenCandiesState) -> bool:
    """``"held"`` mode: no hand, as dealt or after any discard this round, could show a 4-5-6."""
    hands: list[list[int]] = [[] for _ in st.hands]
    type_of = st.content.type_of
    rotations = st.notation.rotations
    for event in st.events[st.round_start :]:
        kind = event[0]
        if kind == "deal" or kind == "draw":
            hands[event[1]].append(type_of[event[-1]])
        elif kind == "discard":
            hand = hands[event[1]]
            hand.remove(type_of[event[2]])
            if rotations(sorted(hand)).held is not None:
                return False
        elif kind == "flip" and any(
            rotations(sorted(hand)).held is not None for hand in hands if hand
        ):
            return False  # the hands as dealt: checked once all are picked up (not yet a turn)
    return True


def _sort_hand(st: SixteenCandiesState, owner: int) -> None:
    """Hands are kept sorted, but for the card just drawn, which stays last (orientations are dealt
    afresh after this)."""
    hand = st.hands[owner]
    keep = len(hand) - 1 if owner == st.actor and st.phase is Phase.DISCARD else len(hand)
    pairs = sorted(zip(hand[:keep], st.srcs[owner][:keep], strict=True))
    for i, (card, src) in enumerate(pairs):
        hand[i] = card
        st.srcs[owner][i] = src
