"""``candlebox replay``: rebuild a saved game from its seed and moves, show it, and check it matches."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.text import Text

import candlebox
from candlebox.cli import render, saving
from candlebox.cli.errors import FAILED, CliError, user_errors
from candlebox.engine import State
from candlebox.engine.saving import position_differences

PAUSE = "[dim]Enter: next step · c: run to the end · q: stop[/] "


def rebuild(data: dict[str, Any], path: Path) -> State:
    """The game at its start, from the settings the file records."""
    with user_errors(f"{path}: "):
        return candlebox.new_game(
            data["game"],
            players=data["players"],
            variant=data["variant"],
            seed=data["seed"],
            **data["options"],
        )


class Replay:
    def __init__(self, path: Path, seat: int | None, console: Console) -> None:
        self.path = path
        self.data = saving.read(path)
        self.state = rebuild(self.data, path)
        self.seat = seat
        self.console = console
        self.shown = 0
        if seat is not None and not 0 <= seat < self.state.num_players:
            raise CliError(f"--seat {seat}: this game has seats 0–{self.state.num_players - 1}")

    def print_news(self) -> None:
        entries = self.state.log(self.seat)
        for entry in entries[self.shown :]:
            self.console.print(Text("      ") + render.event_text(self.state.game_id, entry))
        self.shown = len(entries)

    def apply(self, number: int, seat: int, action: str) -> None:
        try:
            self.state.apply(seat, action)
        except candlebox.IllegalAction as exc:
            raise CliError(
                f"{self.path} does not replay: step {number} (seat {seat}: {action!r}) is not "
                f"legal: {exc}",
                FAILED,
            ) from None
        self.console.print(f"[dim]{number:>4}[/]  [cyan]seat {seat}: {escape(action)}[/]")
        self.print_news()

    def check(self) -> None:
        wrong = position_differences(self.state, self.data)
        if wrong:
            raise CliError(
                f"{self.path} does not replay: after its {len(self.data['history'])} moves the "
                f"rebuilt game differs in {', '.join(wrong)}",
                FAILED,
            )

    def print_end(self) -> None:
        state = self.state
        render.render_view(state.game_id, state.view(self.seat), self.console)
        if not state.is_over:
            self.console.print(f"The game is not over: {escape(state.describe_pending())}.")
        elif state.truncated:
            self.console.print("[yellow]The game was cut short by the turn limit (truncated).[/]")


def replay(
    path: Path, seat: int | None, step: bool, console: Console, ask: Callable[[str], str]
) -> None:
    show = Replay(path, seat, console)
    state, history = show.state, show.data["history"]
    viewer = "a spectator" if seat is None else f"seat {seat}"
    console.print(
        f"Replaying [bold]{escape(str(path))}[/]: {escape(candlebox.game_info(state.game_id).title)} "
        f"({state.variant}), {state.num_players} players, seed {state.seed}, "
        f"{len(history)} steps, seen by {viewer}"
    )
    show.print_news()
    for number, (actor, action) in enumerate(history, start=1):
        show.apply(number, actor, action)
        if step and number < len(history):
            try:
                answer = ask(PAUSE).strip().lower()
            except EOFError:
                answer = "c"
            if answer == "q":
                console.print(f"Stopped at step {number} of {len(history)}.")
                return
            step = answer != "c"
    show.print_end()
    show.check()
    console.print(f"[green]✓[/] {escape(str(path))} replays exactly.")
