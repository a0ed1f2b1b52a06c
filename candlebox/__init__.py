"""Candlebox: faithful rules engines for Candle Quest, 16 Candies and The Curse of Candelabria.

>>> import candlebox
>>> game = candlebox.new_game("candle-quest", players=3, seed=7)
>>> seat = game.to_act[0]
>>> game.apply(seat, game.legal_actions(seat)[0])
"""

from candlebox.engine import (
    HIDDEN_ACTION,
    IllegalAction,
    MalformedAction,
    MoveKind,
    Option,
    State,
    Variant,
    game_info,
    load,
    new_game,
    variants,
)
from candlebox.engine.registry import discovered_games, game_ids, plugin_problems
from candlebox.engine.words import components


def __getattr__(name: str) -> tuple[str, ...]:
    # ``GAMES``: the games found through the entry points (built-in and installed plug-ins), looked
    # for on first use rather than at import, so that a plug-in's package can import candlebox.
    if name == "GAMES":
        return discovered_games()
    raise AttributeError(f"module 'candlebox' has no attribute {name!r}")


__all__ = [
    "GAMES",
    "HIDDEN_ACTION",
    "IllegalAction",
    "MalformedAction",
    "MoveKind",
    "Option",
    "State",
    "Variant",
    "components",
    "game_ids",
    "game_info",
    "load",
    "new_game",
    "plugin_problems",
    "variants",
]
__version__ = "0.1.0"
