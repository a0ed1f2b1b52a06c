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
from candlebox.engine import HIDDEN_ACTION, State, fairness
from candlebox.engine.saving import check_pack, position_differences

PAUSE = "[dim]Enter: next step · c: run to the end · q: stop[/] "


def rebuild(data: dict[str, Any], path: Path) -> State:
    """The game at its start, from the settings the file records (and the content pack it
    records, which the options must still give)."""
    with user_errors(f"{path}: "):
        state = candlebox.new_game(
            data["game"],
            players=data["players"],
            variant=data["variant"],
            seed=data["seed"],
            **data["options"],
        )
        check_pack(data.get("pack"), state)
        return state


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

    def apply(self, number: int, seat: int, action: str) -> bool:
        """Replay one move; whether anything was shown (a seat sees only its log's news)."""
        try:
            self.state.apply(seat, action)
        except candlebox.IllegalAction as exc:
            raise CliError(
                f"{self.path} does not replay: step {number} (seat {seat}: {action!r}) is not "
                f"legal: {exc}",
                FAILED,
            ) from None
        before = self.shown
        if self.seat is None:
            # A spectator sees who moved, but not what a seat chose in secret (a hand's turn, a
            # tactic): those read as the engine's hidden action, as in a resampled history.
            kind = self.state.move_kind(action)
            shown = HIDDEN_ACTION if kind is not None and kind.redact else action
            self.console.print(f"[dim]{number:>4}[/]  [cyan]seat {seat}: {escape(shown)}[/]")
        self.print_news()
        # A seat is shown exactly its log(seat) and view(seat), never the raw moves: another
        # seat's move may be secret, and even its count could tell more than the seat saw.
        return self.seat is None or self.shown > before

    def check(self) -> None:
        wrong = position_differences(self.state, self.data)
        if wrong:
            raise CliError(
                f"{self.path} does not replay: after its {len(self.data['history'])} moves the "
                f"rebuilt game differs in {', '.join(wrong)}",
                FAILED,
            )

    def run_silently(self) -> None:
        """Apply every move of the file and check the result against it."""
        for number, (actor, action) in enumerate(self.data["history"], start=1):
            self.apply(number, actor, action)
        self.check()

    def print_end(self) -> None:
        state = self.state
        render.render_state(state, self.seat, self.console)
        if not state.is_over:
            # the view above ends with the pending decision (its "▶" line, State.prompt)
            self.console.print("The game is not over.")
        elif state.truncated:
            self.console.print("[yellow]The game was cut short by the turn limit (truncated).[/]")


def fairness_problems(data: dict[str, Any]) -> tuple[str | None, list[str]]:
    """(the commitment, what is wrong): whether the file's game was dealt from the seed a server
    committed to before the first move (see candlebox/engine/fairness.py)."""
    block = data.get("fairness")
    if not isinstance(block, dict):
        return None, [
            "the file carries no commitment (only a finished game downloaded from a Candlebox "
            "server with verifiable shuffles has one)"
        ]
    table, commitment, scheme = block.get("id"), block.get("commitment"), block.get("scheme")
    if not all(isinstance(value, str) for value in (table, commitment, scheme)):
        return None, ["the file's 'fairness' object lacks its id, commitment or scheme"]
    assert isinstance(table, str) and isinstance(commitment, str) and isinstance(scheme, str)
    if "seed" not in block or "nonce" not in block:
        return commitment, ["the seed and nonce are not revealed (the game was not over)"]
    revealed = block["seed"]
    if not isinstance(revealed, str) or not revealed.isdigit():
        return commitment, [f"the revealed seed {revealed!r:.40} is not decimal digits"]
    problems = fairness.Opening(table, commitment, scheme).check(
        data["game"],
        data["variant"],
        data["players"],
        data["options"],
        int(revealed),
        block["nonce"],
    )
    if not problems and int(revealed) != data["seed"]:
        problems.append(
            f"the game was set up from seed {data['seed']}, not from the committed seed {revealed}"
        )
    return commitment, problems


def ending(show: Replay) -> tuple[str, list[str]]:
    """(how the replayed game ended, what is wrong): a YES is for a whole game only, played to the
    end its rules reach or to a resignation the file records, at the position the file records
    (a file with its history cut short and its position deleted replays without a fault)."""
    data, state = show.data, show.state
    moves = len(data["history"])
    problems = []
    if not isinstance(data.get("state"), dict):
        problems.append("the file has no final position ('state') to check the replay against")
    # the end the file records, when the game ended before its rules' end: a resignation, or a
    # seat out of time at a rated table
    key, said = (
        ("out_of_time", "ran out of time") if "out_of_time" in data else ("resigned", "resigned")
    )
    seat = data.get(key)
    if state.is_over:
        if seat is not None:
            problems.append(
                f"the file says seat {seat!r:.20} {said}, yet the replay reaches the game's end"
            )
        limit = " (its turn limit)" if state.truncated else ""
        return f"they lead to the game's end{limit}", problems
    if seat is None:
        problems.append(
            f"the replay stops after move {moves}, before the game's end: the history is cut "
            "short, or the game was not over"
        )
    elif isinstance(seat, bool) or not isinstance(seat, int) or not (0 <= seat < state.num_players):
        problems.append(f"'{key}' is {seat!r:.20}, not a seat of this game")
    return f"they were played until seat {seat} {said} after move {moves}", problems


def verify(path: Path, console: Console) -> None:
    """``--verify``: the commitment opened, and the whole game replayed from the committed seed."""
    data = saving.read(path)
    commitment, problems = fairness_problems(data)
    ended = ""
    if not problems:  # dealt from the committed seed: the moves replay to the file's game
        show = Replay(path, None, Console(quiet=True))
        try:
            show.run_silently()
        except CliError as exc:
            problems.append(str(exc))
        else:
            ended, problems = ending(show)
    if problems:
        raise CliError(
            f"NO: {path} cannot be shown to be a whole game dealt from a committed seed: "
            + "; ".join(problems),
            FAILED,
        )
    moves = len(data["history"])
    console.print(
        f"[green]✓ YES:[/] {escape(str(path))} was dealt from the committed seed. Proven: the "
        f"revealed seed and nonce hash to the commitment {commitment}; the game was set up from "
        f"that seed; each of its {moves} moves was legal; and {ended}, at the position the file "
        "records. Not proven: that these were the moves played at the table (any legal moves "
        "from this seed would pass). Check that this commitment is the one the game page showed before the first move."
    )


def replay(
    path: Path, seat: int | None, step: bool, console: Console, ask: Callable[[str], str]
) -> None:
    show = Replay(path, seat, console)
    state, history = show.state, show.data["history"]
    viewer = "a spectator" if seat is None else f"seat {seat}"
    steps = f"{len(history)} steps, " if seat is None else ""
    console.print(
        f"Replaying [bold]{escape(str(path))}[/]: {escape(candlebox.game_info(state.game_id).title)} "
        f"({state.variant}), {state.num_players} players, seed {state.seed}, "
        f"{steps}seen by {viewer}"
    )
    show.print_news()
    for number, (actor, action) in enumerate(history, start=1):
        shown = show.apply(number, actor, action)
        if step and shown and number < len(history):
            try:
                answer = ask(PAUSE).strip().lower()
            except EOFError:
                answer = "c"
            if answer == "q":
                where = f" at step {number} of {len(history)}" if seat is None else ""
                console.print(f"Stopped{where}.")
                return
            step = answer != "c"
    show.print_end()
    show.check()
    console.print(f"[green]✓[/] {escape(str(path))} replays exactly.")
