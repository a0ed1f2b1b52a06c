"""Per-game terminal renderers, looked up by game id, with a generic fallback for any game.

To add a game: write ``render/<game>.py`` with ``render(view, console)``, ``event_line(entry)`` and
optionally ``action_text(action)`` (both rich markup), import it below and add it to the dicts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from candlebox.cli.render import candelabria, candle_quest, generic, sixteen_candies

Renderer = Callable[[dict[str, Any], Console], None]
EventLine = Callable[[dict[str, Any]], str]

RENDERERS: dict[str, Renderer] = {
    candelabria.GAME_ID: candelabria.render,
    candle_quest.GAME_ID: candle_quest.render,
    sixteen_candies.GAME_ID: sixteen_candies.render,
}
EVENT_LINES: dict[str, EventLine] = {
    candelabria.GAME_ID: candelabria.event_line,
    candle_quest.GAME_ID: candle_quest.event_line,
    sixteen_candies.GAME_ID: sixteen_candies.event_line,
}
# Optional: an action as rich markup (e.g. candle codes in colour); plain text otherwise.
ACTION_TEXTS: dict[str, Callable[[str], str]] = {
    candelabria.GAME_ID: candelabria.action_text,
    candle_quest.GAME_ID: candle_quest.action_text,
    sixteen_candies.GAME_ID: sixteen_candies.action_text,
}


def render_view(game_id: str, view: dict[str, Any], console: Console) -> None:
    """Print what a seat sees, with the game's renderer or the generic one."""
    RENDERERS.get(game_id, generic.render)(view, console)


def action_markup(game_id: str, action: str) -> str:
    """An action as rich markup, for the numbered list of legal actions."""
    return ACTION_TEXTS.get(game_id, escape)(action)


def event_text(game_id: str, entry: dict[str, Any]) -> Text:
    """One log entry as styled text (``str()`` of it is the plain English line)."""
    return Text.from_markup(EVENT_LINES.get(game_id, generic.event_line)(entry))


def event_line(game_id: str, entry: dict[str, Any]) -> str:
    """One log entry as a plain English line, e.g. 'seat 1 buys R7 for 7'."""
    return event_text(game_id, entry).plain


__all__ = [
    "ACTION_TEXTS",
    "EVENT_LINES",
    "RENDERERS",
    "action_markup",
    "event_line",
    "event_text",
    "render_view",
]
