"""The engine contract shared by every game: State, IllegalAction, the seeded RNG, the registry and
the plug-in object (GameInfo and its capabilities)."""

from candlebox.engine.errors import IllegalAction
from candlebox.engine.options import Fixed, Option
from candlebox.engine.plugin import Capabilities
from candlebox.engine.registry import (
    GameInfo,
    Variant,
    game_ids,
    game_info,
    load,
    new_game,
    register,
    unregister,
    variants,
)
from candlebox.engine.rng import Rng
from candlebox.engine.state import HIDDEN_ACTION, State, summarize

__all__ = [
    "HIDDEN_ACTION",
    "Capabilities",
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
    "unregister",
    "variants",
]
