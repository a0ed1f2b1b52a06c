"""Candle Quest: a position set up from an edited snapshot, for rules tests: what a replay cannot rebuild
(see tests/position.py). Its snapshot read back with every count checked; this was the game's restore
code before saved games became replays.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec

from candlebox.engine import State
from candlebox.games.candle_quest.candles import CODE, FACE, PRINTED, TYPE_OF
from candlebox.games.candle_quest.decision import Phase
from candlebox.games.candle_quest.setup import candles_in_play
from candlebox.games.candle_quest.state import GAME_ID, CandleQuestState
from tests import position


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


def _types(codes: list[str], where: str) -> list[int]:
    for code in codes:
        if code not in TYPE_OF:
            raise ValueError(f"saved game: {where} holds {code!r}, which is not a candle code")
    return [TYPE_OF[code] for code in codes]


def restore(data: dict[str, Any], like: State) -> CandleQuestState:
    """The snapshot in ``data`` (from ``like.to_json()``, edited) as a state, with ``like``'s
    generator and events."""
    saved = position.read(data, GAME_ID, Snapshot)
    st = CandleQuestState(saved.variant, saved.players, saved.seed, saved.options)
    n = saved.players
    snap = saved.snapshot
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
    position.finish(st, saved, like)
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
    stack, removed = candles_in_play(PRINTED, False)
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
