"""``candlebox check GAME``: the conformance kit (``candlebox.testing``) on one registered game, one
line per check as it finishes, the failures again at the end with what went wrong."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.markup import escape

from candlebox import testing
from candlebox.cli.errors import FAILED, CliError, user_errors

MARK = {"passed": "[green]ok[/]", "failed": "[bold red]FAILED[/]", "skipped": "[yellow]skipped[/]"}


def line(outcome: testing.Outcome) -> str:
    case = outcome.case
    said = f"{MARK[outcome.status]} {escape(case.part)}: {escape(case.name)}"
    said += f" [dim]({outcome.seconds:.1f}s)[/]"
    if outcome.status == "skipped":
        said += f" — {escape(outcome.detail)}"
    return said


def run(game: str, parts: Sequence[str] | None, quick: bool, console: Console) -> None:
    """Check ``game`` and print the report; a CliError (exit 1) when a check fails."""
    with user_errors():
        testing.cases(game, parts, quick=True)  # an unknown game or part is refused before any work
    report = testing.check(game, parts, quick, progress=lambda o: console.print(line(o)))
    failures = [o for o in report.outcomes if o.status == "failed"]
    for outcome in failures:
        console.print(f"\n[bold red]{escape(outcome.case.part)}: {escape(outcome.case.name)}[/]")
        console.print(escape(outcome.detail), markup=True)
    console.print(
        ("[bold green]" if report.ok else "[bold red]") + escape(report.summary()) + "[/]"
    )
    if not report.ok:
        raise CliError(f"{game} does not pass the conformance kit", FAILED)
