"""Candle Quest: collect eight Lit candles of different colours (basic, advanced and junior games)."""

from __future__ import annotations

from typing import Any

from candlebox.engine import Capabilities, Fixed, GameInfo, Lazy, Option, Variant
from candlebox.engine.levels import Record, ladder
from candlebox.engine.plugin import PackageData
from candlebox.engine.wiring import PhaseRules
from candlebox.games.candle_quest import rules, save, view
from candlebox.games.candle_quest.candles import CANDLES
from candlebox.games.candle_quest.notation import MAX_AMOUNT
from candlebox.games.candle_quest.setup import set_up
from candlebox.games.candle_quest.state import GAME_ID, WIRING, CandleQuestState
from candlebox.games.candle_quest.views import CandleQuestView

MAX_TURNS = 1000  # bots finish in 30–120 turns; random players almost never do (rulings CQ-17)
MAX_TURNS_LIMIT = 100_000  # the largest max_turns accepted: a bound for hostile input

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
        maximum=MAX_TURNS_LIMIT,
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
        label="Shekels in the game",
    ),
    Option(
        "content",
        "path",
        None,
        "a folder holding your own content pack (candles.json, from candlebox content export "
        "candle-quest); default: the printed candles",
    ),
    Option(
        "design",
        "bool",
        False,
        "play the 'content' pack in design mode: its candles' face and sell values and the "
        "Dancing and Unlit faces may differ from the rulebook's, while the structure stays "
        "(candlebox simulate --design)",
        nullable=False,
    ),
)
ADVANCED = (
    Option(
        "tiebreak",
        "choice",
        "shared",
        "a tied highest score: all tied win ('shared') or the most shekels wins, then all still "
        "tied win ('shekels')",
        choices=("shared", "shekels"),
        nullable=False,
        label="A tie for the highest score",
        choice_labels=("every tied player wins", "the most Shekels wins (still tied: all win)"),
    ),
)
# Basic and junior have no advanced score, but the two choices it offers have a value there all the
# same: a Dancing candle fills one place of the Menorah, and tied players all win (rulings CQ-14, CQ-17).
SIMPLE_SCORING = (Fixed(ADVANCED[0], "shared", "without the advanced score tied players all win"),)

# 'dancing' ('menorah' or 'all') could never change a score (rulings CQ-14): retired in every variant,
# so games and configurations that name it, at either value, still load.
RETIRED = ("dancing",)

VARIANTS = (
    Variant(
        "basic",
        2,
        5,
        COMMON,
        "the first to collect eight colours wins",
        SIMPLE_SCORING,
        retired=RETIRED,
    ),
    Variant(
        "advanced",
        2,
        5,
        COMMON + ADVANCED,
        "the most valuable collection when someone completes their Menorah wins",
        retired=RETIRED,
    ),
    Variant(
        "junior",
        2,
        5,
        COMMON,
        "no auctions or looting; the 6-value Unlit candles are out; an "
        "Unlit candle can force another player to give you a candle",
        SIMPLE_SCORING,
        retired=RETIRED,
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


# state.py is a leaf the rule modules import; the state reaches them through what is wired in here.
WIRING.wire(
    PhaseRules(
        do=rules.DO,
        legal=rules.LEGAL,
        view=view.typed_view,
        event_view=view.event_view,
        describe=view.describe,
        resample=save.resample,
        snapshot=save.snapshot,
    )
)

# The rules inside the app (engine/howto.py) and the policy bot's trained network (docs/rl.md).
HOW_TO = PackageData(__name__, "content")
NETWORK = PackageData("candlebox.bots", f"policies/{GAME_ID}.npz")

# The game's plug-in object, declared in pyproject.toml's "candlebox.games" entry points.
INFO: GameInfo[CandleQuestState, CandleQuestView] = GameInfo(
    id=GAME_ID,
    title="Candle Quest",
    variants=VARIANTS,
    default_variant=lambda players: "basic",
    max_turns=MAX_TURNS,
    create=create,
    typed_view=view.typed_view,
    facts=facts(),
    capabilities=Capabilities(
        view=CandleQuestView,
        text=Lazy("candlebox.games.candle_quest.text", "TEXT"),
        heuristic=Lazy("candlebox.games.candle_quest.heuristic", "policy"),
        search=Lazy("candlebox.games.candle_quest.search", "SEARCH_HOOKS"),
        renderer=Lazy("candlebox.games.candle_quest.render", "RENDERER"),
        encoding=Lazy("candlebox.games.candle_quest.encoder", "ENCODING"),
        scoring=Lazy("candlebox.games.candle_quest.standings", "SCORING"),
        uses=Lazy("candlebox.games.candle_quest.uses", "uses"),
        content=Lazy("candlebox.games.candle_quest.pack", "PACKS"),
        words=Lazy("candlebox.games.candle_quest.words", "components"),
        how_to=HOW_TO,
        network=NETWORK,
        conformance=Lazy("candlebox.games.candle_quest.conformance", "CONFORMANCE"),
        jax=Lazy("candlebox.games.candle_quest.jax_rules", "JAX_RULES"),
    ),
    page=GAME_ID,
    # Opponent levels, measured in bench/levels.py (docs/simulation.md, "Levels").
    levels=ladder(
        easy_epsilon=0.65,
        hard_iterations=100,
        # measured against the level below, 100 two-player games each (docs/simulation.md,
        # "Levels"; 2026-12-02)
        ahead={
            "easy": Record(92.5, 100, players=2),
            "medium": Record(99.0, 100, players=2),
            "hard": Record(69.0, 100, players=2),
        },
    ),
)
