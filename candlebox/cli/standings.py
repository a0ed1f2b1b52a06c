"""The standings at the terminal: every seat in rank order with its score's breakdown by source, and
the sentence saying who won and why (``State.standings``, the same data the browser's end screen shows)."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from candlebox.engine import State
from candlebox.engine.standings import Standings, number


def seat_names(state: State, human: int | None) -> list[str]:
    return [
        f"seat {seat} (you)" if seat == human else f"seat {seat}"
        for seat in range(state.num_players)
    ]


def print_standings(console: Console, state: State, human: int | None) -> None:
    names = seat_names(state, human)
    for line in render(state.standings(names), names):
        console.print(line)


def render(standings: Standings, names: list[str]) -> list[str]:
    """The summary, then one line per seat in rank order, its note after it:
    ``1. seat 0 (you)  56 = 44 Candle value + 9 Shekels … + 3 Menorah completer bonus``."""
    width = max(len(name) for name in names)
    score_width = max(len(number(row.score)) for row in standings.rows)
    lines = [f"[bold]{escape(standings.summary)}[/]"]
    for row in standings.rows:
        if not standings.points:  # a race: how far each got, and how the winner won
            how = "".join(f" · {escape(part.source)}" for part in row.parts)
            note = escape(row.note) if row.note else ""
            star = " [bold green]★ winner[/]" if row.winner else ""
            lines.append(
                f"{row.rank:>2}. {escape(names[row.seat]).ljust(width)}  {note}{how}{star}"
            )
            continue
        parts = ""
        for i, part in enumerate(row.parts):
            sign = "-" if part.points < 0 else "+"
            joiner = f"{sign} " if i else ("-" if part.points < 0 else "")
            parts += f" {joiner}{number(abs(part.points))} {escape(part.source)}"
        breakdown = f" =[dim]{parts}[/]" if parts else " [dim](nothing scored)[/]"
        note = f" [dim]· {escape(row.note)}[/]" if row.note else ""
        star = " [bold green]★ winner[/]" if row.winner else ""
        lines.append(
            f"{row.rank:>2}. {escape(names[row.seat]).ljust(width)}  "
            f"[bold]{number(row.score).rjust(score_width)}[/]{breakdown}{note}{star}"
        )
    return lines
