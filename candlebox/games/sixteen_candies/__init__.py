"""16 Candies: match the most candies of one type on the top halves of three cards; call "I've got
candy!" when you think you beat someone; the last player with candy in their Health Pool wins."""

from __future__ import annotations

from typing import Any

from candlebox.engine import Capabilities, GameInfo, Lazy, Option, Variant
from candlebox.engine.levels import Record, ladder
from candlebox.engine.plugin import PackageData
from candlebox.engine.wiring import PhaseRules
from candlebox.games.sixteen_candies import gameplay, save, view
from candlebox.games.sixteen_candies.cards import (
    COPIES,
    DATA,
    DECK,
    FULL_SET,
    HALF_CODE,
    HALF_PENALTY,
    MAX_SEATS,
    WILD,
)
from candlebox.games.sixteen_candies.rounds import start_round
from candlebox.games.sixteen_candies.setup import set_up
from candlebox.games.sixteen_candies.state import GAME_ID, WIRING, SixteenCandiesState
from candlebox.games.sixteen_candies.views import SixteenCandiesView

MAX_TURNS = 2000  # far above any natural game (rulings SC-18)
MAX_TURNS_LIMIT = 100_000  # the largest max_turns accepted: a bound for hostile input
START_POOL = 16  # "Deal each player 16 Licorice Pieces"

OPTIONS = (
    Option(
        "deck",
        "codes",
        None,
        "the first round's cards, top first: dealt one at a time from the first player clockwise, "
        "three times around, then the first discard, then the draw pile (the rest shuffled beneath)",
    ),
    Option(
        "first_player",
        "int",
        None,
        "the seat holding the First Player Marker in the first round (by default the first "
        "seat, the youngest player)",
        minimum=0,
        maximum=MAX_SEATS - 1,
    ),
    Option(
        "max_turns",
        "int",
        MAX_TURNS,
        "end the game after this many turns (truncated; the most candy wins)",
        minimum=1,
        maximum=MAX_TURNS_LIMIT,
        nullable=False,
    ),
    Option(
        "rounds",
        "int",
        None,
        "end the game after this many scored rounds (the most candy wins)",
        minimum=1,
        label="Rounds",
    ),
    Option(
        "pool",
        "int",
        START_POOL,
        "each player's starting Health Pool",
        minimum=1,
        maximum=1000,
        nullable=False,
        label="Starting Health Pool",
    ),
    Option(
        "pool_cap",
        "bool",
        False,
        "a gain cannot take a Health Pool above the starting pool",
        nullable=False,
        label="Health Pools capped at the start",
    ),
    Option(
        "draw",
        "choice",
        "required",
        "'required': every turn draws a card (then discards one); 'optional': a player may skip "
        "the draw, and the discard with it",
        choices=("required", "optional"),
        nullable=False,
        label="Drawing",
        choice_labels=("every turn draws a card", "a player may skip the draw"),
    ),
    Option(
        "rediscard",
        "bool",
        True,
        "the card just taken from the discard pile may be discarded again in the same turn",
        nullable=False,
        label="A card taken from the discard pile may go straight back",
    ),
    Option(
        "instant_win",
        "choice",
        "top",
        "'top': the 4, 5 and 6 of one candy must be the top halves; 'held': holding the three "
        "halves is enough (they are turned up for the player)",
        choices=("top", "held"),
        nullable=False,
        label="Instant Round Win",
        choice_labels=("the 4, 5 and 6 on top", "holding the three halves is enough"),
    ),
    Option(
        "instant_gain",
        "choice",
        "two",
        "what an Instant Round Win gains: 'two' (2 candies, as a caller with the highest hand) or "
        "'none' (the round is won, nothing is added)",
        choices=("two", "none"),
        nullable=False,
        label="An Instant Round Win gains",
        choice_labels=("2 candies", "nothing"),
    ),
    Option(
        "all_tied",
        "choice",
        "caller-loses",
        "when every hand is equal, the caller is scored as tied for lowest ('caller-loses') or "
        "as tied for highest ('caller-wins')",
        choices=("caller-loses", "caller-wins"),
        nullable=False,
        label="When every hand is equal",
        choice_labels=("the caller pays as the lowest", "the caller gains as the highest"),
    ),
    Option(
        "content",
        "path",
        None,
        "a folder holding your own content pack (deck.json, from candlebox content export "
        "sixteen-candies); default: the printed deck",
    ),
    Option(
        "design",
        "bool",
        False,
        "play the 'content' pack in design mode: its penalties and the Wild's count and penalty "
        "may differ from the rulebook's, while the structure stays (candlebox simulate --design)",
        nullable=False,
    ),
)

VARIANTS = (
    Variant(
        "standard",
        2,
        MAX_SEATS,
        OPTIONS,
        "the rulebook's game with the publisher's end: the last player with candy wins",
    ),
)


def facts() -> dict[str, Any]:
    """The candies, every card code with its two halves (candy, count, penalty) and copies."""
    cards: dict[str, Any] = {}
    for t in sorted(set(FULL_SET)):
        halves = []
        for o in (0, 1):
            half = 2 * t + o
            candy, count, _ = DECK.halves[half]
            halves.append(
                {
                    "code": HALF_CODE[half],
                    "candy": candy or None,
                    "count": count,
                    "penalty": HALF_PENALTY[half],
                }
            )
        cards[DECK.codes[t]] = {"halves": halves, "wild": t == WILD, "copies": COPIES[t]}
    return {
        "candies": {
            code: name for code, name in zip(DECK.candy_codes, DECK.candy_names, strict=True)
        },
        "colours": dict(zip(DECK.candy_codes, DECK.candy_colours, strict=True)),
        "cards": cards,
        "wild": {"code": DATA.wild.code, "count": DATA.wild.count, "penalty": DATA.wild.penalty},
        "hand": 3,
        "deck_size": len(FULL_SET),
        "start_pool": START_POOL,
        "reconstructed": DATA.reconstructed,
    }


def create(variant: str, players: int, seed: int, options: dict[str, Any]) -> SixteenCandiesState:
    state = SixteenCandiesState(variant, players, seed, options)
    start_round(state, set_up(state, options["deck"], options["first_player"]))
    return state


# state.py is a leaf the rule modules import; the state reaches them through what is wired in here.
WIRING.wire(
    PhaseRules(
        do=gameplay.DO,
        legal=gameplay.LEGAL,
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
INFO: GameInfo[SixteenCandiesState, SixteenCandiesView] = GameInfo(
    id=GAME_ID,
    title="16 Candies",
    variants=VARIANTS,
    default_variant=lambda players: "standard",
    max_turns=MAX_TURNS,
    create=create,
    typed_view=view.typed_view,
    facts=facts(),
    capabilities=Capabilities(
        view=SixteenCandiesView,
        text=Lazy("candlebox.games.sixteen_candies.text", "TEXT"),
        heuristic=Lazy("candlebox.games.sixteen_candies.heuristic", "policy"),
        search=Lazy("candlebox.games.sixteen_candies.search", "SEARCH_HOOKS"),
        renderer=Lazy("candlebox.games.sixteen_candies.render", "RENDERER"),
        encoding=Lazy("candlebox.games.sixteen_candies.encoder", "ENCODING"),
        scoring=Lazy("candlebox.games.sixteen_candies.standings", "SCORING"),
        uses=Lazy("candlebox.games.sixteen_candies.uses", "uses"),
        content=Lazy("candlebox.games.sixteen_candies.pack", "PACKS"),
        words=Lazy("candlebox.games.sixteen_candies.words", "components"),
        how_to=HOW_TO,
        network=NETWORK,
        conformance=Lazy("candlebox.games.sixteen_candies.conformance", "CONFORMANCE"),
        jax=Lazy("candlebox.games.sixteen_candies.jax_rules", "JAX_RULES"),
    ),
    page=GAME_ID,
    # Opponent levels, measured in bench/levels.py (docs/simulation.md, "Levels").
    levels=ladder(
        easy_epsilon=0.65,
        hard_iterations=60,
        # measured against the level below, 100 two-player games each (docs/simulation.md,
        # "Levels"; 2026-12-02)
        ahead={
            "easy": Record(82.0, 100, players=2),
            "medium": Record(99.0, 100, players=2),
            "hard": Record(71.0, 100, players=2),
        },
    ),
)
