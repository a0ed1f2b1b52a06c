"""The fallback renderer: any game's view and log entries, printed from their fields alone.

It knows nothing about a game, so a new game is playable at the terminal before it has a renderer of
its own; it relies only on the contract (a JSON-safe view with an optional ``pending`` dict and log
entries with an ``event`` field).
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.rule import Rule
from rich.table import Table

from candlebox.engine.plugin import fields_sentence, plain

# Fields every view carries that the header already says, so the body does not repeat them.
_HEADER_FIELDS = ("game", "variant", "players", "seat", "pending")


def title(view: dict[str, Any]) -> str:
    parts = [str(view.get("game", "game"))]
    if "variant" in view:
        parts.append(str(view["variant"]))
    if view.get("players") is not None:
        parts.append(f"{view['players']} players")
    if view.get("seat") is not None:
        parts.append(f"you are seat {view['seat']}")
    return " · ".join(parts)


def is_table(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def rows_table(name: str, rows: list[dict[str, Any]]) -> Table:
    """A list of dicts (typically one per seat) as a table with one column per key."""
    columns: list[str] = []
    for row in rows:
        columns.extend(key for key in row if key not in columns)
    table = Table(title=name, title_justify="left", header_style="bold")
    for column in columns:
        table.add_column(column.replace("_", " "))
    for row in rows:
        table.add_row(*(escape(plain(row.get(column, ""))) for column in columns))
    return table


def render(view: dict[str, Any], console: Console, prompt: str) -> None:
    """The view's fields, then ``prompt`` (the game's words for the pending decision)."""
    console.print(Rule(escape(title(view))))
    fields = {k: v for k, v in view.items() if k not in _HEADER_FIELDS}
    simple = Table.grid(padding=(0, 2))
    simple.add_column(style="bold")
    simple.add_column()
    for key, value in fields.items():
        if not is_table(value):
            simple.add_row(key.replace("_", " "), escape(plain(value)))
    console.print(simple)
    for key, value in fields.items():
        if is_table(value):
            console.print(rows_table(key.replace("_", " "), value))
    console.print(f"[bold]▶ {escape(prompt)}[/]")


def event_line(entry: dict[str, Any]) -> str:
    """One log entry as rich markup: who, what, then the remaining fields."""
    return escape(fields_sentence(entry))
