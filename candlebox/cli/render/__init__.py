"""The terminal's words and pictures of a game: its ``renderer`` and ``text`` capabilities
(``candlebox.game_info(id).renderer()`` and ``.text()``), with the generic fallback for any game.

A game's log sentences are its own text (the same the server sends to the pages), marked up here with
rich: component codes in the renderer's colours, emphasis in bold or dim.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from candlebox.cli.render import generic
from candlebox.engine import GameInfo, State, game_info
from candlebox.engine.plugin import GameText, Marks, Renderer, View


def _strong(text: str) -> str:
    return f"[bold]{text}[/]"


def _faint(text: str) -> str:
    return f"[dim]{text}[/]"


_GENERIC = Marks(code=escape, strong=_strong, faint=_faint, literal=escape)
# Per game id: (the GameInfo, its renderer, its text, the marks), looked up once per registered game.
_SEEN: dict[str, tuple[GameInfo, Renderer | None, GameText | None, Marks]] = {}


def _game(game_id: str) -> tuple[Renderer | None, GameText | None, Marks]:
    """The game's renderer, text and rich marks (none for an unknown game: the generic ones)."""
    try:
        info = game_info(game_id)
    except ValueError:
        return None, None, _GENERIC
    seen = _SEEN.get(game_id)
    if seen is None or seen[0] is not info:  # a game registered anew (tests) is looked up anew
        renderer = info.renderer()
        code = renderer.code if renderer is not None and renderer.code is not None else escape
        marks = Marks(code=code, strong=_strong, faint=_faint, literal=escape)
        seen = _SEEN[game_id] = (info, renderer, info.text(), marks)
    return seen[1], seen[2], seen[3]


def render_view(game_id: str, view: View, console: Console, prompt: str) -> None:
    """Print a view, in the form the game's renderer reads (``GameInfo.viewer()``), with the game's
    renderer; the generic one prints a plain view of any game. ``prompt`` is the pending decision in
    the game's words (``State.prompt`` of the view's seat), printed as the "▶" line."""
    renderer = _game(game_id)[0]
    (renderer.render if renderer is not None else generic.render)(view, console, prompt)


def render_state(state: State, seat: int | None, console: Console) -> None:
    """Print what ``seat`` (None: a spectator) sees of a game, with its prompt (``State.prompt``)."""
    renderer = _game(state.game_id)[0]
    prompt = state.prompt(seat)
    if renderer is None:
        generic.render(state.view(seat), console, prompt)
    else:
        renderer.render(game_info(state.game_id).viewer()(state, seat), console, prompt)


def action_markup(game_id: str, action: str) -> str:
    """An action as rich markup, for the numbered list of legal actions."""
    renderer = _game(game_id)[0]
    if renderer is None or renderer.action is None:
        return escape(action)
    return renderer.action(action)


def read_action(game_id: str, typed: str, legal: list[str]) -> str:
    """What a person typed, as the game's renderer reads it (e.g. halves in any order); unchanged
    when it reads it no differently."""
    renderer = _game(game_id)[0]
    if renderer is None or renderer.read is None:
        return typed
    found = renderer.read(typed, legal)
    return typed if found is None else found


def event_markup(game_id: str, entry: dict[str, Any]) -> str:
    """One log entry as rich markup: the game's sentence, or the generic line from its fields."""
    _renderer, text, marks = _game(game_id)
    line = text.event(entry, marks) if text is not None else None
    return generic.event_line(entry) if line is None else line


def event_text(game_id: str, entry: dict[str, Any]) -> Text:
    """One log entry as styled text (``str()`` of it is the plain English line)."""
    return Text.from_markup(event_markup(game_id, entry))


def event_line(game_id: str, entry: dict[str, Any]) -> str:
    """One log entry as a plain English line, e.g. 'seat 1 buys R7 for 7'."""
    return event_text(game_id, entry).plain


__all__ = [
    "action_markup",
    "event_line",
    "event_markup",
    "event_text",
    "read_action",
    "render_state",
    "render_view",
]
