"""``candlebox play``: one person at the terminal against bots, seeing only their own seat's view."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.columns import Columns
from rich.console import Console
from rich.markup import escape
from rich.text import Text

import candlebox
from candlebox import bots
from candlebox.cli import render, saving
from candlebox.cli.actions import NotInList, numbered, pick
from candlebox.engine import State

HELP = """\
Type the [bold]number[/] of an action or the action itself ([italic]buy[/], [italic]auction 3[/]); \
a unique beginning is enough ([italic]fl[/] for flip).
A range such as [cyan]3–14[/] auction 1–12 means 3 is auction 1, 4 is auction 2, and so on.
  [bold]help[/]   this text
  [bold]log[/]    the whole game log so far
  [bold]view[/]   what you can see, as raw JSON
  [bold]quit[/]   save the game and stop"""

RECENT = 12  # log entries shown when a saved game is resumed


@dataclass
class Session:
    """One game at the terminal: the state, who is who, and where it is saved."""

    state: State
    human: int
    robots: dict[int, bots.Bot]
    path: Path
    console: Console
    ask: Callable[[str], str]  # reads one line from the person (console.input; scripted in tests)
    shown: int = 0  # log entries of the human's seat already printed

    @property
    def game_id(self) -> str:
        return self.state.game_id


# ----------------------------------------------------------------------------- output
def print_news(session: Session) -> None:
    """The log entries the person has not seen yet: what the bots (and they) just did."""
    entries = session.state.log(session.human)
    for entry in entries[session.shown :]:
        print_entry(session, entry)
    session.shown = len(entries)


def skip_old_news(session: Session, keep: int = RECENT) -> None:
    """On resuming, show only the last few log entries; ``log`` shows the rest."""
    total = len(session.state.log(session.human))
    session.shown = max(0, total - keep)
    if session.shown:
        session.console.print(
            f"[dim]({session.shown} earlier log entries; type log to see them)[/]"
        )


def print_entry(session: Session, entry: dict[str, Any]) -> None:
    mark = "» " if entry.get("seat") == session.human else "  "
    session.console.print(Text(mark, style="bold") + render.event_text(session.game_id, entry))


def print_actions(session: Session, actions: list[str]) -> None:
    items = [
        f"[bold cyan]{entry.numbers}[/] {render.action_markup(session.game_id, entry.text)}"
        for entry in numbered(actions)
    ]
    session.console.print(Columns(items, padding=(0, 3)))


def print_whole_log(session: Session) -> None:
    session.console.rule("log so far", style="dim")
    for entry in session.state.log(session.human):
        print_entry(session, entry)


# ----------------------------------------------------------------------------- the person's turn
def handle_command(session: Session, command: str, actions: list[str]) -> bool:
    """Carry out help/log/view; False when ``command`` is not one of them."""
    console = session.console
    if command == "help":
        console.print(HELP)
    elif command == "log":
        print_whole_log(session)
        print_actions(session, actions)
    elif command == "view":
        console.print_json(data=session.state.view(session.human))
    else:
        return False
    return True


def prompt_text(seat: int, actions: list[str]) -> str:
    if len(actions) == 1:
        return f"[bold]seat {seat}[/] [dim](Enter: {escape(actions[0])})[/][bold]>[/] "
    return f"[bold]seat {seat}>[/] "


def human_turn(session: Session) -> str | None:
    """Ask until the person makes a legal move (applied here); None when they quit."""
    state, seat, console = session.state, session.human, session.console
    print_news(session)
    render.render_state(state, seat, console)
    actions = state.legal_actions(seat)
    print_actions(session, actions)
    prompt = prompt_text(seat, actions)
    while True:
        try:
            text = session.ask(prompt)
        except EOFError:
            return None
        command = text.strip().lower()
        if not command:
            if len(actions) != 1:
                continue
            text = actions[0]  # nothing to choose: Enter takes the only action
        if command not in actions:  # a game's own action named like a command wins
            if command in ("quit", "exit"):
                return None
            if handle_command(session, command, actions):
                continue
        try:
            action = pick(text, actions)
            state.apply(seat, action)
        except (NotInList, candlebox.IllegalAction) as exc:
            console.print(f"[red]{escape(str(exc))}[/]")
            continue
        return action


# ----------------------------------------------------------------------------- the game
def step(session: Session, seat: int) -> bool:
    """One decision of ``seat``; False when the person quits."""
    if seat == session.human:
        return human_turn(session) is not None
    robot = session.robots[seat]
    session.state.apply(seat, robot.choose(session.state, seat))
    return True


def run(session: Session) -> bool:
    """Play to the end, saving after every step; False when the person quit first."""
    state = session.state
    while not state.is_over:
        # Several seats may owe a decision at once: each answers in seat order, the person included.
        for seat in sorted(state.to_act):
            if seat not in state.to_act:
                continue
            if not step(session, seat):
                saving.save(state, session.path)
                return False
            saving.save(state, session.path)
    return True


def print_result(session: Session) -> None:
    state, console = session.state, session.console
    print_news(session)
    render.render_state(state, session.human, console)
    winners = state.winners
    if session.human not in winners:
        verdict = "[bold]You lost.[/]"
    elif len(winners) == 1:
        verdict = "[bold green]You win![/]"
    else:
        verdict = "[bold green]You share the win.[/]"
    scores = ", ".join(f"seat {seat}: {score:g}" for seat, score in enumerate(state.scores))
    console.print(f"{verdict}  Scores: {scores}.")
    if state.truncated:
        console.print("[yellow]The game was cut short by the turn limit (truncated).[/]")


def print_saved(session: Session, finished: bool) -> None:
    path = escape(str(session.path))
    if finished:
        session.console.print(
            f"Saved to {path}; watch it again with [bold]candlebox replay {path}[/]"
        )
    else:
        session.console.print(
            f"Saved to {path}; carry on with [bold]candlebox play {escape(session.game_id)} "
            f"--resume {path}[/]"
        )


def play(session: Session) -> None:
    try:
        finished = run(session)
    except KeyboardInterrupt:  # the file already holds the last complete step
        session.console.print()
        finished = False
    if finished:
        print_result(session)
    print_saved(session, finished)
