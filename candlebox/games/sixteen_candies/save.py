"""Saving and restoring a 16 Candies state, and resampling what a seat cannot know."""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from typing import Any

import msgspec

from candlebox.engine import Rng
from candlebox.engine.registry import resolve
from candlebox.engine.state import FORMAT, SavedGame, events_from_json
from candlebox.games.sixteen_candies.cards import CODE, FULL_SET, HALF_CODE, TYPE_OF, WILD
from candlebox.games.sixteen_candies.decision import Phase
from candlebox.games.sixteen_candies.instant_win import shows_four_five_six
from candlebox.games.sixteen_candies.notation import rotations
from candlebox.games.sixteen_candies.state import GAME_ID, SixteenCandiesState
from candlebox.games.sixteen_candies.view import EVENT_FIELDS, is_private


class Snapshot(msgspec.Struct, forbid_unknown_fields=True):
    draw: list[str]  # top first
    discard: list[str]  # bottom to top
    hands: list[list[str]]
    tops: list[list[str]]  # the top half of each card in hand
    sources: list[list[int]]  # the event that put each card in hand
    pools: list[int]
    marker: int
    active: int
    actor: int
    phase: str
    queue: list[int]
    caller: int
    taken: str | None
    epoch: int
    round: int
    round_start: int
    turns: int
    rounds_played: int
    winners: list[int]
    final: list[float]
    end_reason: str


def _codes(cards: list[int]) -> list[str]:
    return [CODE[card] for card in cards]


def snapshot(st: SixteenCandiesState) -> dict[str, Any]:
    return {
        "draw": _codes(st.draw[::-1]),
        "discard": _codes(st.discard),
        "hands": [_codes(hand) for hand in st.hands],
        "tops": [
            [HALF_CODE[2 * card + up] for card, up in zip(hand, ups, strict=True)]
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
        "taken": CODE[st.taken] if st.taken >= 0 else None,
        "epoch": st.epoch,
        "round": st.round,
        "round_start": st.round_start,
        "turns": st.turns,
        "rounds_played": st.rounds_played,
        "winners": list(st.winners),
        "final": list(st.final),
        "end_reason": st.end_reason,
    }


def _types(codes: list[str], where: str) -> list[int]:
    for code in codes:
        if code not in TYPE_OF:
            raise ValueError(f"saved game: {where} holds {code!r}, which is not a card code")
    return [TYPE_OF[code] for code in codes]


def _seat(value: int, n: int, what: str) -> None:
    if not 0 <= value < n:
        raise ValueError(f"saved game: {what} ({value}) is not a seat of this {n}-player game")


def restore(data: dict[str, Any]) -> SixteenCandiesState:
    try:
        saved = msgspec.convert(data, type=SavedGame[Snapshot])
    except msgspec.ValidationError as exc:
        raise ValueError(f"saved 16 Candies game is malformed: {exc}") from None
    if saved.format != FORMAT:
        raise ValueError(f"saved game format {saved.format} is not supported (expected {FORMAT})")
    if saved.game != GAME_ID:
        raise ValueError(f"saved game is {saved.game!r}, not {GAME_ID!r}")
    _, variant, options = resolve(GAME_ID, saved.players, saved.variant, saved.options)
    if options["deck"] is not None:
        _types(options["deck"], "option 'deck'")
    st = SixteenCandiesState(variant.name, saved.players, saved.seed, options)
    n = saved.players
    snap = saved.state
    for name in ("hands", "tops", "sources", "pools"):
        if len(getattr(snap, name)) != n:
            raise ValueError(f"saved game: {name} must have one entry per player ({n})")
    st.events = events_from_json(saved.events)
    for index, event in enumerate(st.events):
        if not event or event[0] not in EVENT_FIELDS:
            raise ValueError(f"saved game: event {index} is not a 16 Candies event: {event!r}")
        if len(event) != 1 + len(EVENT_FIELDS[event[0]]):
            raise ValueError(f"saved game: event {index} ({event[0]}) has the wrong fields")
    st.draw = _types(snap.draw, "the draw pile")[::-1]
    st.discard = _types(snap.discard, "the discard pile")
    st.hands = [_types(hand, f"seat {s}'s hand") for s, hand in enumerate(snap.hands)]
    st.ups = []
    for seat, (hand, tops) in enumerate(zip(st.hands, snap.tops, strict=True)):
        if len(tops) != len(hand):
            raise ValueError(f"saved game: seat {seat} needs one top half per card in hand")
        ups = []
        for card, top in zip(hand, tops, strict=True):
            if top not in (HALF_CODE[2 * card], HALF_CODE[2 * card + 1]):
                raise ValueError(f"saved game: {top!r} is not a half of seat {seat}'s {CODE[card]}")
            ups.append(0 if card == WILD or top == HALF_CODE[2 * card] else 1)
        st.ups.append(ups)
    st.srcs = [list(srcs) for srcs in snap.sources]
    st.pools = list(snap.pools)
    try:
        st.phase = Phase[snap.phase.upper()]
    except KeyError:
        raise ValueError(f"saved game: unknown phase {snap.phase!r}") from None
    for name in (
        "marker",
        "active",
        "actor",
        "caller",
        "epoch",
        "round",
        "round_start",
        "turns",
        "rounds_played",
        "end_reason",
    ):
        setattr(st, name, getattr(snap, name))
    st.queue = list(snap.queue)
    st.taken = _types([snap.taken], "the card taken")[0] if snap.taken is not None else -1
    st.winners = tuple(snap.winners)
    st.final = tuple(snap.final)
    st.rng.state = saved.rng
    st.history = [(seat, action) for seat, action in saved.history]
    for seat in range(n):
        following = (seat + 1) % n
        while st.pools[following] == 0 and following != seat:
            following = (following + 1) % n
        st.next_seat[seat] = following
    check_consistent(st)
    return st


def check_consistent(st: SixteenCandiesState) -> None:
    """Conservation of the cards, pools that make sense, and a pending decision that fits."""
    everything = st.draw + st.discard
    for hand in st.hands:
        everything += hand
    if Counter(everything) != Counter(FULL_SET):
        missing = Counter(FULL_SET) - Counter(everything)
        extra = Counter(everything) - Counter(FULL_SET)
        raise ValueError(
            f"saved game: the cards do not add up to the game's {len(FULL_SET)} "
            f"(missing {dict((CODE[c], k) for c, k in missing.items())}, "
            f"extra {dict((CODE[c], k) for c, k in extra.items())})"
        )
    n = st.num_players
    if any(pool < 0 for pool in st.pools):
        raise ValueError("saved game: a negative Health Pool")
    for what in ("marker", "active"):
        _seat(getattr(st, what), n, what)
    if not 0 <= st.round_start < len(st.events) or st.events[st.round_start][0] != "round":
        raise ValueError("saved game: round_start does not point at the round's first event")
    for seat, (hand, srcs) in enumerate(zip(st.hands, st.srcs, strict=True)):
        if len(srcs) != len(hand):
            raise ValueError(f"saved game: seat {seat} needs one source per card in hand")
        for card, src in zip(hand, srcs, strict=True):
            if not st.round_start <= src < len(st.events):
                raise ValueError(f"saved game: seat {seat}'s {CODE[card]} has no source event")
            event = st.events[src]
            ok = (event[0] == "deal" and event[1:] == (seat, CODE[card])) or (
                event[0] == "draw" and event[1] == seat and event[3] == CODE[card]
            )
            if not ok:
                raise ValueError(
                    f"saved game: event {src} did not put {CODE[card]} in seat {seat}'s hand"
                )
    if st.phase is Phase.OVER:
        if st.actor != -1 or not st.winners or len(st.final) != n:
            raise ValueError("saved game: a finished game needs winners, scores and nobody to act")
        return
    _seat(st.actor, n, "the seat to act")
    reshuffles = sum(1 for event in st.events[st.round_start :] if event[0] == "reshuffle")
    if st.epoch != reshuffles:
        raise ValueError(f"saved game: epoch {st.epoch} but {reshuffles} reshuffles this round")
    playing = [seat for seat in range(n) if st.pools[seat] > 0]
    if len(playing) < 2:
        raise ValueError("saved game: a game in progress needs two players with candy")
    for seat in range(n):
        want = 0 if st.pools[seat] == 0 else 3
        if seat == st.actor and st.phase is Phase.DISCARD:
            want = 4
        if len(st.hands[seat]) != want:
            raise ValueError(
                f"saved game: seat {seat} holds {len(st.hands[seat])} cards, not {want}"
            )
    if st.actor not in playing or any(seat not in playing for seat in st.queue):
        raise ValueError("saved game: a player who is out is to act")
    if st.caller != -1 and st.caller not in playing:
        raise ValueError(f"saved game: the caller ({st.caller}) is not a player in the round")
    if st.phase is Phase.SETUP and (not st.queue or st.queue[0] != st.actor):
        raise ValueError("saved game: the seat orienting its cards is not first in the queue")
    if st.phase is Phase.CALL and st.caller >= 0:
        raise ValueError("saved game: a second call in the same round")
    if st.taken >= 0 and (st.phase is not Phase.DISCARD or st.hands[st.actor][-1] != st.taken):
        raise ValueError("saved game: the card taken from the discard pile is not the last drawn")
    if not st.discard and st.phase is not Phase.DISCARD:
        raise ValueError("saved game: the discard pile is empty")


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
    rng = Rng(seed)
    twin = _deal(st, seat, rng)
    for _ in range(MAX_DEALS - 1):
        if possible(twin):
            break
        twin = _deal(st, seat, rng)
    twin.rng = rng
    return twin


def _deal(st: SixteenCandiesState, seat: int, rng: Rng) -> SixteenCandiesState:
    twin = st.clone()
    assert isinstance(twin, SixteenCandiesState)
    twin._cache_seat = -1
    if twin.phase is Phase.OVER:  # every hand is shown; only the draw pile's order is unknown
        rng.shuffle(twin.draw)
        return twin
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
            events[src] = (*events[src][:-1], CODE[card])
        if pool == twin.epoch:
            twin.draw = cards[len(places) :]
    for owner, hand in enumerate(twin.hands):
        if owner == seat or not hand:
            continue
        _sort_hand(twin, owner)
        twin.ups[owner] = [0 if card == WILD else rng.below(2) for card in hand]
    return twin


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
    if not st.held_mode:
        for owner, hand in enumerate(st.hands):
            if not hand or (owner == st.actor and st.phase is Phase.ROTATE):
                continue  # the actor's new hand is checked once it is turned
            ups = st.ups[owner]
            if owner == st.actor and st.phase is Phase.DISCARD:  # the hand before its draw
                hand, ups = hand[:-1], ups[:-1]
            halves = [2 * card + up for card, up in zip(hand, ups, strict=True)]
            if shows_four_five_six(halves):
                return False
        return True
    hands: list[list[int]] = [[] for _ in st.hands]
    for event in st.events[st.round_start :]:
        kind = event[0]
        if kind == "deal" or kind == "draw":
            hands[event[1]].append(TYPE_OF[event[-1]])
        elif kind == "discard":
            hand = hands[event[1]]
            hand.remove(TYPE_OF[event[2]])
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
