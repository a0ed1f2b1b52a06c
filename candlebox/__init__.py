"""Candlebox: faithful rules engines for Candle Quest, 16 Candies and The Curse of Candelabria.

>>> import candlebox
>>> game = candlebox.new_game("candle-quest", players=3, seed=7)
>>> seat = game.to_act[0]
>>> game.apply(seat, game.legal_actions(seat)[0])
"""

from candlebox import games as _games  # noqa: F401  (registers every game)
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
from candlebox.engine.registry import game_ids
from candlebox.engine.words import components

GAMES: tuple[str, ...] = game_ids()

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
    "game_info",
    "load",
    "new_game",
    "variants",
]
__version__ = "0.1.0"
