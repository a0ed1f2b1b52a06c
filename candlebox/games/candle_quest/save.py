"""The Candle Quest position as readable data (what a saved game's replay is checked against), and
resampling what a seat cannot know."""

from __future__ import annotations

from typing import Any

from candlebox.engine import Rng
from candlebox.games.candle_quest.state import CandleQuestState


def snapshot(st: CandleQuestState) -> dict[str, Any]:
    code = st.content.code

    def codes(candles: list[int]) -> list[str]:
        return [code[c] for c in candles]

    return {
        "stack": codes(st.stack[::-1]),
        "piles": [codes(pile) for pile in st.piles],
        "screens": [
            [code[c] for c in sorted(screen) for _ in range(screen[c])] for screen in st.screens
        ],
        "shekels": list(st.shekels),
        "bank": st.bank,
        "table": code[st.table] if st.table >= 0 else None,
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
