"""``candlebox play``: one person at the terminal against bots, seeing only their own seat's view."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.text import Text

import candlebox
from candlebox import bots
from candlebox.cli import coach, render, saving
from candlebox.cli.actions import NotInList, numbered, pick
from candlebox.cli.standings import print_standings
from candlebox.engine import State
from candlebox.engine.howto import explain_options, how_to_play, rule_link
from candlebox.engine.words import WordsError, components

COMMANDS = """\
Type the [bold]number[/] of an action or the action itself as listed; a unique beginning is enough.
A range such as [cyan]3–14[/] means its actions in order: 3 is the first, 4 the next, and so on.
  [bold]help[/]        this text
  [bold]rules[/]       a short summary of the game
  [bold]info CODE[/]   what a component is (a card, a candle, a term), by its code or name
  [bold]log[/]         the whole game log so far
  [bold]view[/]        what you can see, as raw JSON
  [bold]hint[/]        the search's best actions for you, with their chances of winning
  [bold]quit[/]        save the game and stop"""

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
    learn: bool = False  # learn mode: options explained, rules linked, bot moves given a reason
    # ``hint``'s search budget (every other seat is a bot here, so hints are always allowed).
    hint_seconds: float | None = 1.0
    hint_iterations: int | None = None
    # What each bot seat is called while it thinks ("Hard bot" for a level); else its bot's name.
    bot_names: dict[int, str] = field(default_factory=dict)

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
    if session.learn and entry.get("seat") not in (None, session.human):
        why = how_to_play(session.game_id).why(entry)
        if why:
            session.console.print(f"    [italic dim]why: {escape(why)}[/]")


def run_label(first: str, last: str) -> str:
    """The label of a run of actions (``auction 1–12``) from its first and last labels: what they
    share, and where they differ, the first's words … the last's."""
    a, b = first.split(" "), last.split(" ")
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    middle = f"{' '.join(a[head : len(a) - tail])} … {' '.join(b[head : len(b) - tail])}"
    return " ".join([*a[:head], middle, *a[len(a) - tail :]])


def print_actions(session: Session, actions: list[str]) -> None:
    """The legal actions, numbered, each with its label in words (in learn mode, what it does and
    the rule behind it too)."""
    if session.learn:
        print_options_explained(session, actions)
        return
    state, seat = session.state, session.human
    for entry in numbered(actions):
        first = state.label(seat, actions[entry.first - 1])
        said = (
            first
            if entry.first == entry.last
            else run_label(first, state.label(seat, actions[entry.last - 1]))
        )
        session.console.print(
            f"[bold cyan]{entry.numbers:>5}[/] {render.action_markup(session.game_id, entry.text)}"
            f"  [dim]{escape(said)}[/]"
        )


def print_options_explained(session: Session, actions: list[str]) -> None:
    """Learn mode's list: each action (a run such as ``auction 1–12`` once) with its label, what it
    does and the section of the game's How to play it rests on."""
    explained = {o.action: o for o in explain_options(session.state, session.human)}
    for entry in numbered(actions):
        first = explained[actions[entry.first - 1]]
        said = (
            first.label
            if entry.first == entry.last
            else run_label(first.label, explained[actions[entry.last - 1]].label)
        )
        session.console.print(
            f"[bold cyan]{entry.numbers:>5}[/] {render.action_markup(session.game_id, entry.text)}"
            f"  {escape(said)}"
        )
        session.console.print(f"        [dim]{escape(first.explained())}[/]")
        if first.section:
            session.console.print(f"        [dim]Rule: {escape(first.section)}[/]")


def print_prompt(session: Session) -> None:
    """The pending decision in words (in learn mode, with the rule behind it), for where the view
    is not printed again (after the whole log): the view ends with it already."""
    session.console.print(f"[bold]▶ {escape(session.state.prompt(session.human))}[/]")
    print_rule_link(session)


def print_rule_link(session: Session) -> None:
    """In learn mode, the rule behind the pending decision."""
    if session.learn:
        link = rule_link(session.state)
        if link is not None:
            session.console.print(
                f"  [dim]Rule: {escape(link['title'])} (type rules to read it)[/]"
            )


def help_text(state: State) -> str:
    """The game's own help on its actions, then the terminal's commands."""
    text = candlebox.game_info(state.game_id).text()
    own = "" if text is None else text.for_variant(text.help, state.variant)
    return (escape(own) + "\n\n" if own else "") + COMMANDS


def rules_text(state: State) -> str:
    text = candlebox.game_info(state.game_id).text()
    summary = "" if text is None else text.for_variant(text.rules, state.variant)
    return escape(summary) if summary else "This game has no summary of its rules."


def rule_section_text(state: State) -> str:
    """Learn mode's ``rules``: the How to play section behind the pending decision."""
    link = rule_link(state)
    if link is None:
        return ""
    text = how_to_play(state.game_id).section_text(link["anchor"])
    return escape(text.replace("**", "")) + "\n"


def game_words(state: State) -> dict[str, dict[str, str]]:
    """Every component this game can show, with its name and text ({} when the game has none)."""
    try:
        return components(state.game_id, state.variant, players=state.num_players, **state.options)
    except (WordsError, ValueError, ImportError):
        return {}


def info_text(state: State, wanted: str) -> str:
    """``info CODE``: a component's name and text, found by its code (any case), its name, or a
    code without its ``kind:`` prefix (``menorah`` for ``term:menorah``), in that order."""
    words = game_words(state)
    key = wanted.strip().lower()
    tests = (
        lambda code, entry: code.lower() == key,
        lambda code, entry: entry["name"].lower() == key,
        lambda code, entry: ":" in code and code.partition(":")[2].lower() == key,
    )
    for test in tests:
        for code, entry in words.items():
            if test(code, entry):
                return f"[bold]{escape(entry['name'])}[/] ({escape(code)}): {escape(entry['text'])}"
    return (
        f"[red]No component {escape(wanted.strip())} in this game.[/] "
        "Codes are as shown in the view and the actions."
    )


def print_whole_log(session: Session) -> None:
    session.console.rule("log so far", style="dim")
    for entry in session.state.log(session.human):
        print_entry(session, entry)


# ----------------------------------------------------------------------------- the person's turn
def handle_command(session: Session, typed: str, actions: list[str]) -> bool:
    """Carry out help/rules/info/log/view; False when ``typed`` is not one of them."""
    console = session.console
    command = typed.lower()
    if command == "help":
        console.print(help_text(session.state))
    elif command == "rules":
        if session.learn:
            console.print(rule_section_text(session.state))
        console.print(rules_text(session.state))
    elif command == "info" or command.startswith("info "):
        wanted = typed[5:]
        if not wanted.strip():
            console.print("Type [bold]info[/] and a code, e.g. info " + escape(_some_code(session)))
        else:
            console.print(info_text(session.state, wanted))
    elif command == "log":
        print_whole_log(session)
        print_prompt(session)
        print_actions(session, actions)
    elif command == "view":
        console.print_json(data=session.state.view(session.human))
    elif command == "hint":
        coach.print_hint(
            session.state, session.human, console, session.hint_seconds, session.hint_iterations
        )
    else:
        return False
    return True


def _some_code(session: Session) -> str:
    codes = [code for code in game_words(session.state) if ":" not in code]
    return codes[0] if codes else "CODE"


def prompt_text(seat: int, actions: list[str]) -> str:
    if len(actions) == 1:
        return f"[bold]seat {seat}[/] [dim](Enter: {escape(actions[0])})[/][bold]>[/] "
    return f"[bold]seat {seat}>[/] "


def human_turn(session: Session) -> str | None:
    """Ask until the person makes a legal move (applied here); None when they quit."""
    state, seat, console = session.state, session.human, session.console
    print_news(session)
    render.render_state(state, seat, console)  # ends with the prompt, in the game's words
    actions = state.legal_actions(seat)
    print_rule_link(session)
    print_actions(session, actions)
    prompt = prompt_text(seat, actions)
    while True:
        try:
            text = session.ask(prompt)
        except EOFError:
            return None
        command = " ".join(text.split()).lower()
        if not command:
            if len(actions) != 1:
                continue
            text = actions[0]  # nothing to choose: Enter takes the only action
        if command not in actions:  # a game's own action named like a command wins
            if command in ("quit", "exit"):
                return None
            if handle_command(session, " ".join(text.split()), actions):
                continue
        try:
            action = pick(render.read_action(session.game_id, text, actions), actions)
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
    # a spinner while the bot decides (rich shows it only on a terminal, and clears it after)
    said = thinking_text(seat, robot, session.bot_names.get(seat))
    with session.console.status(said, spinner="dots"):
        action = robot.choose(session.state, seat)
    session.state.apply(seat, action)
    return True


def thinking_text(seat: int, robot: bots.Bot, name: str | None = None) -> str:
    """What the spinner says while ``robot`` decides for ``seat``: who (``name``, else the bot's
    kind), and its budget."""
    seconds = getattr(robot, "seconds", None)
    iterations = getattr(robot, "iterations", None)
    if isinstance(seconds, int | float):
        budget = f"up to {seconds:g} s"
    elif isinstance(iterations, int):
        budget = f"{iterations} playouts"
    else:
        budget = "a moment"
    return f"Seat {seat} ({escape(name or f'{robot.name} bot')}) is thinking… {budget}"


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
    console.print(verdict)
    print_standings(console, state, session.human)  # rank order, each score's breakdown
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
