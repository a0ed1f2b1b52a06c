"""What the games' position readers (``tests/<game>/position.py``) share.

The engine loads a saved game by replaying its history. A rules test that wants a position no short
history reaches (a candle behind a screen, a card in a hand) edits the snapshot of a real game and reads
it back with its game's reader, which checks every count. The outline of that saved game (the engine's
own ``SavedGame``: configuration, history, snapshot) is read the same way for every game, and so is the
end: the new state takes the generator and events of the game it came from.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import msgspec

from candlebox.engine import State, game_info
from candlebox.engine.registry import resolve
from candlebox.engine.saving import SavedGame

Snap = TypeVar("Snap")


@dataclass(frozen=True)
class Saved(Generic[Snap]):
    """A saved game's outline, read and checked: its configuration, resolved as the registry would,
    its history, and its snapshot as the game's reader's ``Snapshot``."""

    players: int
    seed: int
    variant: str
    options: dict[str, Any]
    history: list[tuple[int, str]]
    snapshot: Snap


def read(data: dict[str, Any], game_id: str, snapshot: type[Snap]) -> Saved[Snap]:
    """``data`` (a ``to_json()``, edited) as a saved game of ``game_id`` with its snapshot typed."""
    title = game_info(game_id).title
    try:
        saved = msgspec.convert(data, type=SavedGame)
        snap = msgspec.convert(saved.state, type=snapshot)
    except msgspec.ValidationError as exc:
        raise ValueError(f"saved {title} game is malformed: {exc}") from None
    if saved.game != game_id:
        raise ValueError(f"saved game is {saved.game!r}, not {game_id!r}")
    _, variant, options = resolve(game_id, saved.players, saved.variant, saved.options)
    return Saved(saved.players, saved.seed, variant.name, options, list(saved.history), snap)


def finish(state: State, saved: Saved[Any], like: State) -> None:
    """Give ``state`` the history read and the generator and events of ``like``, the game it was
    edited from (a snapshot holds neither)."""
    state.rng.state = like.rng.state
    state.history = [(seat, action) for seat, action in saved.history]
    state.events = list(like.events)
