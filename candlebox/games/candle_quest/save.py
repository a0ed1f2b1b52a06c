"""Saving and restoring a Candle Quest state, and resampling what a seat cannot know."""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec

from candlebox.engine import Rng
from candlebox.engine.registry import resolve
from candlebox.engine.state import FORMAT, SavedGame, events_from_json
from candlebox.games.candle_quest.candles import CODE, FACE, TYPE_OF
from candlebox.games.candle_quest.decision import Phase
from candlebox.games.candle_quest.setup import candles_in_play
from candlebox.games.candle_quest.state import GAME_ID, CandleQuestState


class Snapshot(msgspec.Struct, forbid_unknown_fields=True):
    stack: list[str]  # top first
    piles: list[list[str]]  # bottom to top
    screens: list[list[str]]
    shekels: list[int]
    bank: int
    table: str | None
    aside: list[str]
    removed: list[str]
    active: int
    actor: int
    phase: str
    bonus: bool
    due: int
    paying: int
    loot_from: int
    high: int
    high_bidder: int
    turns: int
    passes: int
    winners: list[int]
    final: list[float]
    end_reason: str
    completer: int


def snapshot(st: CandleQuestState) -> dict[str, Any]:
    def codes(candles: list[int]) -> list[str]:
        return [CODE[c] for c in candles]

    return {
        "stack": codes(st.stack[::-1]),
        "piles": [codes(pile) for pile in st.piles],
        "screens": [
            [CODE[c] for c in sorted(screen) for _ in range(screen[c])] for screen in st.screens
        ],
        "shekels": list(st.shekels),
        "bank": st.bank,
        "table": CODE[st.table] if st.table >= 0 else None,
        "aside": codes(st.aside),
        "removed": codes(st.removed),
        "active": st.active,
        "actor": st.actor,
        "phase": st.phase.name.lower(),
        "bonus": st.bonus,
        "due": st.due,
        "paying": st.paying,
        "loot_from": st.loot_from,
        "high": st.high,
        "high_bidder": st.high_bidder,
        "turns": st.turns,
        "passes": st.passes,
        "winners": list(st.winners),
        "final": list(st.final),
        "end_reason": st.end_reason,
        "completer": st.completer,
    }


def _types(codes: list[str], where: str) -> list[int]:
    for code in codes:
        if code not in TYPE_OF:
            raise ValueError(f"saved game: {where} holds {code!r}, which is not a candle code")
    return [TYPE_OF[code] for code in codes]


def restore(data: dict[str, Any]) -> CandleQuestState:
    try:
        saved = msgspec.convert(data, type=SavedGame[Snapshot])
    except msgspec.ValidationError as exc:
        raise ValueError(f"saved Candle Quest game is malformed: {exc}") from None
    if saved.format != FORMAT:
        raise ValueError(f"saved game format {saved.format} is not supported (expected {FORMAT})")
    if saved.game != GAME_ID:
        raise ValueError(f"saved game is {saved.game!r}, not {GAME_ID!r}")
    _, variant, options = resolve(GAME_ID, saved.players, saved.variant, saved.options)
    st = CandleQuestState(variant.name, saved.players, saved.seed, options)
    n = saved.players
    snap = saved.state
    for name in ("piles", "screens", "shekels"):
        if len(getattr(snap, name)) != n:
            raise ValueError(f"saved game: {name} must have one entry per player ({n})")
    st.stack = _types(snap.stack, "the stack")[::-1]
    st.piles = [_types(pile, f"seat {s}'s discard pile") for s, pile in enumerate(snap.piles)]
    st.screens = []
    for seat, screen in enumerate(snap.screens):
        counts: dict[int, int] = {}
        for candle in _types(screen, f"seat {seat}'s screen"):
            counts[candle] = counts.get(candle, 0) + 1
        st.screens.append(counts)
    st.worth = [sum(FACE[c] * k for c, k in screen.items()) for screen in st.screens]
    st.shekels = list(snap.shekels)
    st.bank = snap.bank
    st.table = TYPE_OF.get(snap.table, -1) if snap.table is not None else -1
    if snap.table is not None and st.table < 0:
        raise ValueError(f"saved game: the table holds {snap.table!r}, not a candle code")
    st.aside = _types(snap.aside, "the set-aside candles")
    st.removed = _types(snap.removed, "the removed candles")
    try:
        st.phase = Phase[snap.phase.upper()]
    except KeyError:
        raise ValueError(f"saved game: unknown phase {snap.phase!r}") from None
    for name in (
        "active",
        "actor",
        "bonus",
        "due",
        "paying",
        "loot_from",
        "high",
        "high_bidder",
        "turns",
        "passes",
        "end_reason",
        "completer",
    ):
        setattr(st, name, getattr(snap, name))
    st.winners = tuple(snap.winners)
    st.final = tuple(snap.final)
    st.rng.state = saved.rng
    st.history = [(seat, action) for seat, action in saved.history]
    st.events = events_from_json(saved.events)
    check_consistent(st)
    return st


def check_consistent(st: CandleQuestState) -> None:
    """Conservation of the candles and shekels, and a pending decision that makes sense."""
    everything = list(st.stack) + list(st.aside) + list(st.removed)
    for pile in st.piles:
        everything += pile
    for screen in st.screens:
        everything += [c for c, k in screen.items() for _ in range(k)]
    if st.table >= 0:
        everything.append(st.table)
    stack, removed = candles_in_play(False)
    if Counter(everything) != Counter(stack + removed):
        missing = Counter(stack + removed) - Counter(everything)
        extra = Counter(everything) - Counter(stack + removed)
        raise ValueError(
            "saved game: the candles do not add up to the game's 60 "
            f"(missing {dict((CODE[c], k) for c, k in missing.items())}, "
            f"extra {dict((CODE[c], k) for c, k in extra.items())})"
        )
    if any(s < 0 for s in st.shekels) or st.bank < 0:
        raise ValueError("saved game: negative shekels")
    if sum(st.shekels) + st.bank != st.options["bank"]:
        raise ValueError(
            f"saved game: shekels add up to {sum(st.shekels) + st.bank}, "
            f"not the game's {st.options['bank']}"
        )
    n = st.num_players
    if not 0 <= st.active < n:
        raise ValueError(f"saved game: active seat {st.active} is not a seat")
    if st.phase is not Phase.OVER and not 0 <= st.actor < n:
        raise ValueError(f"saved game: the seat to act ({st.actor}) is not a seat")
    needs_table = st.phase in (Phase.CHOOSE, Phase.BID, Phase.PAY, Phase.SHORT)
    if needs_table != (st.table >= 0):
        raise ValueError(f"saved game: phase {st.phase.name.lower()} and the table disagree")


def resample(st: CandleQuestState, seat: int, seed: int) -> CandleQuestState:
    """Every candle's whereabouts is public in Candle Quest (rulings: 'Screens'); only the order of
    the draw stack and the future of chance are unknown to any seat, so those are dealt anew. The
    candles the option ``deck`` put on top are known to all until they are drawn or shuffled: they
    stay where they are."""
    twin = st.clone()
    assert isinstance(twin, CandleQuestState)
    twin.rng = Rng(seed)
    known = known_on_top(st)
    hidden = sorted(twin.stack[: len(twin.stack) - known])  # forget the real order first: the
    twin.rng.shuffle(hidden)  # result depends only on what the seat knows
    twin.stack[: len(hidden)] = hidden
    return twin


def known_on_top(st: CandleQuestState) -> int:
    """How many candles on top of the stack everyone knows: those the option ``deck`` put there (in
    the open, in order), less each taken since (flipped or set aside); none once a shuffle has mixed
    the stack (Unlit candles mixed back, a rebuild)."""
    deck = st.options.get("deck")
    if not deck:
        return 0
    taken = 0
    for event in st.events:
        if event[0] in ("mix-back", "rebuild"):
            return 0
        if event[0] in ("flip", "set-aside"):
            taken += 1
    return max(0, min(len(deck) - taken, len(st.stack)))
