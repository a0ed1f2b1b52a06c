"""The terminal's coach: ``hint`` during ``candlebox play`` and ``candlebox review FILE --seat N``
(candlebox/analysis.py does the searching)."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

import candlebox
from candlebox import analysis
from candlebox.cli import saving
from candlebox.cli.errors import CliError, user_errors
from candlebox.engine import State

SHOWN = 5  # a hint lists the search's best few actions


def print_hint(
    state: State, seat: int, console: Console, seconds: float | None, iterations: int | None
) -> None:
    """The seat's best actions by the search, with their win chances; seeded by the position, so
    asking twice gives the same hint (with an iteration budget)."""
    console.print(f"[dim]Thinking ({_budget(seconds, iterations)})…[/]")
    budget = None if iterations is not None else seconds
    tip = analysis.hint(
        state, seat, budget, iterations=iterations, seed=state.seed + len(state.history)
    )
    # Each move by its number in the action list, the number that plays it: a rank of its own
    # ("2." for the second best) would be read as one, and play another move.
    number = {action: i for i, action in enumerate(state.legal_actions(seat), start=1)}
    for option in tip.options[:SHOWN]:
        star = "[bold green]★[/]" if option.action == tip.best else " "
        console.print(
            f"{star} [bold cyan]{number[option.action]:>5}[/] [bold]{escape(option.action)}[/]  "
            f"{escape(option.label)}  [cyan]{option.win:.0%}[/] [dim]({option.visits} tries)[/]"
        )
    if len(tip.options) > SHOWN:
        console.print(f"[dim]  … and {len(tip.options) - SHOWN} more.[/]")
    console.print(
        "[dim]★ the search's choice, the move it tried most. "
        "Type a move's number (as in the list of actions) to play it.[/]"
    )


def _count(count: int, name: str) -> str:
    if count == 1:
        return f"1 {name}"
    return f"{count} {name[:-1] + 'ies' if name.endswith('y') else name + 's'}"


def _chance(d: analysis.Decision, win: float, tries: int) -> str:
    """A chance with its tries, as the page shows it (a review from before tries were kept: the
    figure alone; a move the search never tried: no estimate)."""
    if not d.best_visits:
        return f"{win:.0%}"
    if not tries:
        return "not tried"
    return f"{win:.0%} ({_count(tries, 'try')})"


def _budget(seconds: float | None, iterations: int | None) -> str:
    if iterations is not None:
        return f"{iterations} searches"
    return f"up to {seconds:g} s"


def review(
    path: Path, seat: int, seconds: float | None, iterations: int | None, console: Console
) -> None:
    """``candlebox review``: each of the seat's decisions with a choice, the search's preference,
    the win chance before and after, and the costliest ones marked."""
    data = saving.read(path)
    with user_errors(f"{path}: "):
        state = candlebox.load(data)
    if not 0 <= seat < state.num_players:
        raise CliError(f"--seat {seat}: this game has seats 0–{state.num_players - 1}")
    columns = (TextColumn("reviewing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("review", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        result = analysis.review(
            data, seat, seconds, iterations=iterations, seed=state.seed, progress=progress
        )
    table = Table(title=f"Review of seat {seat} ({_budget(seconds, iterations)} per decision)")
    # the moves in words (the labels a player saw), the chances as the search saw them
    headers = ("move", "chosen", "the search's choice", "its chance", "the chosen's", "mark")
    for header in headers:
        table.add_column(header, overflow="fold")
    for d in result.decisions:
        style = {"blunder": "bold red", "mistake": "red", "inaccuracy": "yellow"}.get(d.mark, "")
        table.add_row(
            str(d.move),
            escape(d.chosen_label),
            "the same" if d.best == d.chosen else escape(d.best_label),
            _chance(d, d.before, d.best_visits),
            _chance(d, d.after, d.chosen_visits),
            f"[{style}]{d.mark}[/]" if d.mark else "",
        )
    console.print(table)
    console.print(
        f"[dim]A chance is seat {seat}'s chance of winning after each move, as the search "
        "estimated it by playing on from there (each a try): 0% means every try was lost; an "
        "estimate, rough when the tries are few.[/]"
    )
    counts = {
        name: sum(1 for d in result.decisions if d.mark == name) for name, _ in analysis.MARKS
    }
    console.print(
        f"{_count(len(result.decisions), 'decision')}: "
        + ", ".join(_count(count, name) for name, count in counts.items())
        + "."
    )
    if result.stood_in:
        console.print(
            f"Left out: {_count(result.stood_in, 'decision')} a bot made for this seat's player "
            "(the server's file records when a bot played for them)."
        )
    costliest = analysis.worst(result)
    if costliest and not costliest[0].mark:
        console.print(
            "Nothing the search can call a mistake with confidence (a loss of "
            f"{analysis.MARKS[-1][1] * 100:.0f} points of the chance of winning or more, beyond "
            "what its estimates could be off by); what cost the most:"
        )
    for d in costliest:
        console.print(
            f"[bold]Move {d.move}[/]: {escape(d.chosen_label)} — the search preferred "
            f"{escape(d.best_label)}: {_chance(d, d.before, d.best_visits)} against "
            f"{_chance(d, d.after, d.chosen_visits)}."
        )
