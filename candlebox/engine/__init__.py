"""The engine contract shared by every game: State, IllegalAction, the seeded RNG, the registry and
the plug-in object (GameInfo and its capabilities), and saved games."""

from candlebox.engine import undoing  # noqa: F401  (installs State.undoable and State.undo)
from candlebox.engine.errors import IllegalAction, MalformedAction
from candlebox.engine.lazy import Lazy
from candlebox.engine.options import Fixed, Option
from candlebox.engine.plugin import Capabilities
from candlebox.engine.registry import (
    GameInfo,
    Variant,
    game_ids,
    game_info,
    new_game,
    register,
    unregister,
    variants,
)
from candlebox.engine.rng import Rng
from candlebox.engine.saving import load
from candlebox.engine.state import HIDDEN_ACTION, MoveKind, State, summarize

__all__ = [
    "HIDDEN_ACTION",
    "Capabilities",
    "Fixed",
    "GameInfo",
    "IllegalAction",
    "Lazy",
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
    "unregister",
    "variants",
]
