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

from candlebox.engine import GameInfo, Variant, register
from candlebox.engine.options import validate_options
from candlebox.games.candelabria.components import ContentError, load_content
from candlebox.games.candelabria.options import MAX_TURNS, OPTIONS, OPTIONS_TWO_PLAYER
from candlebox.games.candelabria.state import GAME_ID, CandelabriaState

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
    return var, validate_options(var.options, options)


def create(variant: str, players: int, seed: int, options: dict[str, Any]) -> CandelabriaState:
    """A new game in its first decision (GameInfo's ``create``: the options already validated)."""
    from candlebox.games.candelabria.setup import start_game

    state = CandelabriaState(variant, players, seed, options)
    start_game(state, options)
    return state


def new_game(
    players: int = 4, seed: int = 0, variant: str | None = None, **options: Any
) -> CandelabriaState:
    """Like ``candlebox.new_game("candelabria", ...)``."""
    var, opts = resolve(players, variant, options)
    return create(var.name, players, seed, opts)


def restore(data: dict[str, Any]) -> CandelabriaState:
    from candlebox.games.candelabria.save import restore as _restore

    return _restore(data)


load = restore


def facts() -> dict[str, Any]:
    """Public facts about the shipped components, as plain data."""
    content = load_content()
    return {
        "houses": {
            h.code: {
                "name": h.name,
                "colour": h.colour,
                "turn_order": h.turn_order,
                "region": h.region,
            }
            for h in content.houses
        },
        "candles": {
            c.code: {"cost": c.cost, "year": c.year, "house": c.house} for c in content.candles
        },
        "tactics": [t.code for t in content.tactics],
        "upgrades": {t.code: {"year": t.year, "effect": t.effect} for t in content.tiles},
    }


INFO = GameInfo(
    id=GAME_ID,
    title="The Curse of Candelabria",
    variants=VARIANTS,
    default_variant=default_variant,
    max_turns=MAX_TURNS,
    create=create,
    restore=restore,
    facts=facts(),
)
register(INFO)

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
