"""Candle Quest: collect eight Lit candles of different colours (basic, advanced and junior games)."""

from __future__ import annotations

from typing import Any

from candlebox.engine import GameInfo, Option, Variant, load, register
from candlebox.games.candle_quest.candles import CANDLES
from candlebox.games.candle_quest.notation import MAX_AMOUNT
from candlebox.games.candle_quest.setup import set_up
from candlebox.games.candle_quest.state import GAME_ID, CandleQuestState

MAX_TURNS = 1000  # bots finish in 30–120 turns; random players almost never do (rulings CQ-17)

COMMON = (
    Option(
        "deck",
        "codes",
        None,
        "the draw stack after setup, top first (the rest shuffled below); "
        "skips the start-player draw",
    ),
    Option(
        "first_player",
        "int",
        None,
        "the seat that starts (skips the start-player draw)",
        minimum=0,
        maximum=4,
    ),
    Option(
        "max_turns",
        "int",
        MAX_TURNS,
        "end the game after this many turns (truncated)",
        minimum=1,
        nullable=False,
    ),
    Option(
        "bank",
        "int",
        100,
        "shekels in the game, bank and players together (the box: 100)",
        minimum=24,
        maximum=MAX_AMOUNT,
        nullable=False,
    ),
)
ADVANCED = (
    Option(
        "dancing",
        "choice",
        "menorah",
        "how Dancing candles score: 'menorah' (each fills one "
        "of the eight colours) or 'all' (every one counts)",
        choices=("menorah", "all"),
        nullable=False,
    ),
    Option(
        "tiebreak",
        "choice",
        "shared",
        "a tied highest score: 'shared' (all tied win) or "
        "'shekels' (most shekels wins, then shared)",
        choices=("shared", "shekels"),
        nullable=False,
    ),
)

VARIANTS = (
    Variant("basic", 2, 5, COMMON, "the first to collect eight colours wins"),
    Variant(
        "advanced",
        2,
        5,
        COMMON + ADVANCED,
        "the most valuable collection when someone completes their Menorah wins",
    ),
    Variant(
        "junior",
        2,
        5,
        COMMON,
        "no auctions or looting; the 6-value Unlit candles are out; an "
        "Unlit candle can force another player to give you a candle",
    ),
)


def facts() -> dict[str, Any]:
    """Every candle code with its kind, colour, face and sell value; the colours in order."""
    return {
        "colours": list(CANDLES.colour_names),
        "candles": {
            t.code: {
                "kind": t.kind.name.lower(),
                "colour": CANDLES.colour_names[t.colour] if t.colour >= 0 else None,
                "face": t.face,
                "sell": t.sell,
            }
            for t in CANDLES.types
        },
        "loot_cost": "face + sell",
    }


def create(variant: str, players: int, seed: int, options: dict[str, Any]) -> CandleQuestState:
    state = CandleQuestState(variant, players, seed, options)
    set_up(state, options["deck"], options["first_player"])
    return state


def restore(data: dict[str, Any]) -> CandleQuestState:
    """The saved game in ``data``, which must be this game's (the engine replays it)."""
    state = load(data, GAME_ID)
    assert isinstance(state, CandleQuestState)
    return state


register(
    GameInfo(
        id=GAME_ID,
        title="Candle Quest",
        variants=VARIANTS,
        default_variant=lambda players: "basic",
        max_turns=MAX_TURNS,
        create=create,
        facts=facts(),
    )
)
