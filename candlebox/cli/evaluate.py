"""``candlebox evaluate``'s table (the games are played by candlebox/sim/evaluate.py)."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from candlebox.sim.evaluate import Evaluation


def print_evaluation(found: Evaluation, console: Console) -> None:
    # A heading line, not the table's title: rich capitalises a title, and the agent's name is code.
    console.print(
        f"{escape(found.agent)} in {found.game} ({found.variant}, {found.players} players), "
        f"seats rotated, seeds from {found.seed}"
    )
    table = Table()
    for column in ("level", "bot", "games", "agent's wins", "win rate", "95% interval"):
        table.add_column(column, justify="left" if column in ("level", "bot") else "right")
    for record in found.levels:
        rate = record.rate
        table.add_row(
            record.level,
            escape(record.bot),
            str(record.games),
            f"{record.wins:g}",
            f"{rate.rate:.1%}",
            f"{rate.low:.1%}–{rate.high:.1%}",
        )
    console.print(table)
    console.print(
        f"An agent as strong as its rivals wins {found.fair_share:.1%} (one game in {found.players})."
    )
