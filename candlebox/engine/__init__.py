"""The engine contract shared by every game: State, IllegalAction, the seeded RNG, the registry and
saved games."""

from candlebox.engine.errors import IllegalAction, MalformedAction
from candlebox.engine.options import Option
from candlebox.engine.registry import (
    GameInfo,
    Variant,
    game_ids,
    game_info,
    new_game,
    register,
    variants,
)
from candlebox.engine.rng import Rng
from candlebox.engine.saving import load
from candlebox.engine.state import HIDDEN_ACTION, MoveKind, State, summarize

__all__ = [
    "HIDDEN_ACTION",
    "GameInfo",
    "IllegalAction",
    "MalformedAction",
    "MoveKind",
    "Option",
    "Rng",
    "State",
    "Variant",
    "game_ids",
    "game_info",
    "load",
    "new_game",
    "register",
    "summarize",
    "variants",
]
