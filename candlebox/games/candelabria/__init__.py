"""The Curse of Candelabria, 3–5 players: three years of Mist, Kindling and War (issue 4).

Registered as ``"candelabria"`` (variant ``"standard"``, 3–5 players)::

    import candlebox
    game = candlebox.new_game("candelabria", players=4, seed=7)
    seat = game.to_act[0]
    game.apply(seat, game.legal_actions(seat)[0])

and variant ``"two-player"`` (2 players; the default for 2). ``new_game`` here does the same without the
registry.
"""

from __future__ import annotations

from typing import Any

from candlebox.engine import Capabilities, GameInfo, Lazy, Variant
from candlebox.engine.levels import Record, ladder
from candlebox.engine.options import validate_options
from candlebox.engine.plugin import PackageData
from candlebox.engine.saving import load as load_saved
from candlebox.engine.wiring import StackRules
from candlebox.games.candelabria import flow, save, setup, view, war
from candlebox.games.candelabria.checks import ContentError
from candlebox.games.candelabria.components import Content, load_content
from candlebox.games.candelabria.decay import CODES as DECAY_CODES
from candlebox.games.candelabria.missions import MISSIONS
from candlebox.games.candelabria.notation import MAX_WAREHOUSE
from candlebox.games.candelabria.options import (
    FIXED_TWO_PLAYER,
    MAX_TURNS,
    OPTIONS,
    OPTIONS_TWO_PLAYER,
)
from candlebox.games.candelabria.schema import EFFECTS, ICONS
from candlebox.games.candelabria.state import GAME_ID, WIRING, CandelabriaState
from candlebox.games.candelabria.views import CandelabriaView

# state.py is a leaf the rule modules import; its contract methods reach the rules through this.
WIRING.wire(
    StackRules(
        legal=flow.legal,
        do=flow.do,
        waiting=war.waiting,
        secret_actions=war.secret_actions,
        view=view.typed_view,
        event_view=view.event_view,
        pending=view.pending,
        describe=view.describe,
        snapshot=save.snapshot,
        saved_snapshot=save.current_keys,
        resample=save.resample,
        steps={"start_year": setup.start_year},
    )
)

VARIANTS = (
    Variant(
        "standard",
        3,
        5,
        OPTIONS,
        "3–5 players: 3 on the 8-region side of the board, 4–5 on the 10-region side",
    ),
    Variant(
        "two-player",
        2,
        2,
        OPTIONS_TWO_PLAYER,
        "the 2-player mode: a house choice, curses that mark the battles and move, disposable "
        "tactic cards",
        FIXED_TWO_PLAYER,
    ),
)


def default_variant(players: int) -> str:
    return "two-player" if players == 2 else "standard"


def variant(name: str) -> Variant:
    for v in VARIANTS:
        if v.name == name:
            return v
    raise ValueError(
        f"The Curse of Candelabria has no variant {name!r}; variants: "
        f"{', '.join(v.name for v in VARIANTS)}"
    )


def resolve(
    players: int, name: str | None, options: dict[str, Any]
) -> tuple[Variant, dict[str, Any]]:
    """Check a configuration as the registry does: (variant, validated options)."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError(f"players must be a whole number, got {players!r}")
    var = variant(name or default_variant(players))
    if players not in var.players:
        raise ValueError(
            f"The Curse of Candelabria ({var.name}) is for {var.min_players}–{var.max_players} "
            f"players, not {players}"
        )
    return var, validate_options(var.options, options, var.fixed)


def create(variant: str, players: int, seed: int, options: dict[str, Any]) -> CandelabriaState:
    """A new game in its first decision (GameInfo's ``create``: the options already validated)."""
    state = CandelabriaState(variant, players, seed, options)
    flow.start_game(state, options)
    return state


def new_game(
    players: int = 4, seed: int = 0, variant: str | None = None, **options: Any
) -> CandelabriaState:
    """Like ``candlebox.new_game("candelabria", ...)``."""
    var, opts = resolve(players, variant, options)
    return create(var.name, players, seed, opts)


def restore(data: dict[str, Any]) -> CandelabriaState:
    """The saved game in ``data``, which must be this game's (the engine replays it)."""
    state = load_saved(data, GAME_ID)
    assert isinstance(state, CandelabriaState)
    return state


load = restore


def facts() -> dict[str, Any]:
    """Public facts about the shipped components, as plain data."""
    content = load_content()
    return {
        "houses": _house_facts(content),
        "candles": {
            c.code: {"cost": c.cost, "year": c.year, "house": c.house} for c in content.candles
        },
        "tactics": [t.code for t in content.tactics],
        "tactic_cards": _tactic_facts(content),
        "upgrades": {
            t.code: {
                "year": t.year,
                "effect": t.effect,
                "icon": ICONS[t.icon] if t.icon >= 0 else None,
            }
            for t in content.tiles
        },
        "upgrade_piles": setup.UPGRADE_PILES,
        "curses": {k.code: {"region": k.region, "effect": k.effect} for k in content.curses},
        "sides": _side_facts(content),
        "warehouse": MAX_WAREHOUSE,  # gold and wax a house can hold together
        "missions": [m[0] for m in MISSIONS],
        "decay_cards": list(DECAY_CODES),
    }


def _house_facts(content: Content) -> dict[str, dict[str, Any]]:
    return {
        h.code: {
            "name": h.name,
            "colour": h.colour,
            "turn_order": h.turn_order,
            "region": h.region,
            "powers": [  # Year I first
                {"year": year, "effect": effect, "icon": ICONS[icon] if icon >= 0 else None}
                for year, effect, _amount, icon in h.powers
            ],
        }
        for h in content.houses
    }


def _tactic_facts(content: Content) -> dict[str, dict[str, Any]]:
    """Every tactic card type: its house (None: common), copies in the box, the cannot-cancel mark."""
    houses = [h.code for h in content.houses]
    return {
        t.code: {
            "house": houses[t.house] if t.house >= 0 else None,
            "copies": content.common_tactics.count(i) if t.house < 0 else 1,
            "no_cancel": t.no_cancel,
            "effects": {EFFECTS[icon]: n for icon, n in t.effects},
        }
        for i, t in enumerate(content.tactics)
    }


def _side_facts(content: Content) -> dict[str, dict[str, Any]]:
    """The two sides of the board: who plays on each, its regions and territories (board order)."""
    return {
        key: {
            "players": list(side.players),
            "regions": [r.number for r in side.regions],
            "territories": [t.id for r in side.regions for t in r.territories],
            "icons": {t.id: t.icon for r in side.regions for t in r.territories},
        }
        for key, side in content.sides.items()
    }


# The rules inside the app (engine/howto.py) and the policy bot's trained network (docs/rl.md).
HOW_TO = PackageData(__name__, "content")
NETWORK = PackageData("candlebox.bots", f"policies/{GAME_ID}.npz")

INFO: GameInfo[CandelabriaState, CandelabriaView] = GameInfo(
    id=GAME_ID,
    title="The Curse of Candelabria",
    variants=VARIANTS,
    default_variant=default_variant,
    max_turns=MAX_TURNS,
    create=create,
    typed_view=view.typed_view,
    facts=facts(),
    capabilities=Capabilities(
        view=CandelabriaView,
        text=Lazy("candlebox.games.candelabria.text", "TEXT"),
        heuristic=Lazy("candlebox.games.candelabria.heuristic", "policy"),
        renderer=Lazy("candlebox.games.candelabria.render", "RENDERER"),
        encoding=Lazy("candlebox.games.candelabria.encoder", "ENCODING"),
        policy_view=Lazy("candlebox.games.candelabria.sight", "glance"),
        scoring=Lazy("candlebox.games.candelabria.standings", "SCORING"),
        uses=Lazy("candlebox.games.candelabria.uses", "uses"),
        content=Lazy("candlebox.games.candelabria.pack", "PACKS"),
        words=Lazy("candlebox.games.candelabria.words", "components"),
        how_to=HOW_TO,
        network=NETWORK,
        conformance=Lazy("candlebox.games.candelabria.conformance", "CONFORMANCE"),
    ),
    page=GAME_ID,
    playout_target=(40_000, None),  # a heavier game: no pure-Python peer to beat (bench/README.md)
    # Opponent levels, measured in bench/levels.py (docs/simulation.md, "Levels").
    levels=ladder(
        easy_epsilon=0.65,
        hard_iterations=30,  # 10 did not clear Medium at 4-player tables (docs/simulation.md)
        # measured against the level below, 100 two-player games each (docs/simulation.md,
        # "Levels"; 2026-12-02)
        ahead={
            "easy": Record(84.0, 100, players=2),
            "medium": Record(82.0, 100, players=2),
            "hard": Record(96.0, 100, players=2),
        },
    ),
)

__all__ = [
    "GAME_ID",
    "INFO",
    "VARIANTS",
    "CandelabriaState",
    "ContentError",
    "create",
    "load",
    "new_game",
    "restore",
]
