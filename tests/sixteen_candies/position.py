"""16 Candies: a position set up from an edited snapshot, for rules tests: what a replay cannot rebuild
(see tests/position.py). Its snapshot read back with every count checked; this was the game's restore
code before saved games became replays.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec

from candlebox.engine import State
from candlebox.games.sixteen_candies.cards import CODE, FULL_SET, HALF_CODE, TYPE_OF, WILD
from candlebox.games.sixteen_candies.decision import Phase
from candlebox.games.sixteen_candies.state import GAME_ID, SixteenCandiesState
from candlebox.games.sixteen_candies.view import EVENT_FIELDS
from tests import position


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


def _types(codes: list[str], where: str) -> list[int]:
    for code in codes:
        if code not in TYPE_OF:
            raise ValueError(f"saved game: {where} holds {code!r}, which is not a card code")
    return [TYPE_OF[code] for code in codes]


def _seat(value: int, n: int, what: str) -> None:
    if not 0 <= value < n:
        raise ValueError(f"saved game: {what} ({value}) is not a seat of this {n}-player game")


def restore(data: dict[str, Any], like: State) -> SixteenCandiesState:
    """The snapshot in ``data`` (from ``like.to_json()``, edited) as a state, with ``like``'s
    generator and events."""
    saved = position.read(data, GAME_ID, Snapshot)
    if saved.options["deck"] is not None:
        _types(saved.options["deck"], "option 'deck'")
    st = SixteenCandiesState(saved.variant, saved.players, saved.seed, saved.options)
    n = saved.players
    snap = saved.snapshot
    for name in ("hands", "tops", "sources", "pools"):
        if len(getattr(snap, name)) != n:
            raise ValueError(f"saved game: {name} must have one entry per player ({n})")
    for index, event in enumerate(like.events):
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
    position.finish(st, saved, like)
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
