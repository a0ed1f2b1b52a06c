"""The engine contract shared by every game: State, IllegalAction, the seeded RNG and the registry."""

from candlebox.engine.errors import IllegalAction
from candlebox.engine.options import Fixed, Option
from candlebox.engine.registry import (
    GameInfo,
    Variant,
    game_ids,
    game_info,
    load,
    new_game,
    register,
    variants,
)
from candlebox.engine.rng import Rng
from candlebox.engine.state import HIDDEN_ACTION, State, summarize

__all__ = [
    "HIDDEN_ACTION",
    "Fixed",
    "GameInfo",
    "IllegalAction",
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
