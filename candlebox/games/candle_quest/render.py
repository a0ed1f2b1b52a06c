"""Candle Quest at the terminal: coloured candle codes, the table, the screens and the log in words.
Every candle on the board is shown by its name with its code, the one typed ("Red candle (value 7)
(R7)"), its name from the game's words (words.json), never a bare code (issue 14).

Everything here reads the seat's typed view (views.py), log entries (plain dicts) and the game's public
facts, never the game's rules, so the renderer shows exactly what the seat is allowed to know.
"""

from __future__ import annotations

from typing import Any

from msgspec import UNSET
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.rule import Rule
from rich.table import Table

from candlebox.engine import game_info
from candlebox.engine.plugin import NARROW_TERMINAL, Renderer, winners_text
from candlebox.games.candle_quest.views import (
    CandleQuestView,
    FinishedView,
    OpenSeat,
    Seat,
)
from candlebox.games.candle_quest.words import table as words

GAME_ID = "candle-quest"
_FACTS = game_info(GAME_ID).facts
CANDLES: dict[str, dict[str, Any]] = _FACTS["candles"]
COLOURS: list[str] = _FACTS["colours"]

COLOUR_STYLE = {
    "Yellow": "bold yellow",
    "Orange": "bold dark_orange",
    "Green": "bold green3",
    "White": "bold black on grey85",  # a chip: plain white text vanishes on light terminals
    "Red": "bold red",
    "Blue": "bold dodger_blue1",
    "Purple": "bold medium_purple1",
    "Silver": "bold grey66",
}
DANCING_STYLE = "bold black on gold1"  # wild: stands out from every colour
UNLIT_STYLE = "grey50"
PILE_SHOWN = 6  # discard pile candles shown (the top ones); the count says how many more


# ----------------------------------------------------------------------------- candles
def candle_style(code: str) -> str:
    info = CANDLES.get(code)
    if info is None:
        return ""
    if info["kind"] == "dancing":
        return DANCING_STYLE
    if info["kind"] == "unlit":
        return UNLIT_STYLE
    return COLOUR_STYLE.get(info["colour"], "bold")


def candle(code: str | None) -> str:
    """A candle code as rich markup in its colour."""
    if code is None:
        return "—"
    style = candle_style(code)
    return f"[{style}]{code}[/]" if style else code


def action_text(action: str) -> str:
    """An action with its candle code coloured: 'discard R7' -> 'discard [red]R7[/]'."""
    return " ".join(candle(word) if word in CANDLES else escape(word) for word in action.split(" "))


def named(code: str) -> str:
    """A candle by its name and its coloured code: 'Red candle (value 7) (R7)'."""
    entry = words().get(code)
    return candle(code) if entry is None else f"{escape(entry.name)} ({candle(code)})"


def candles(codes: list[str], between: str = ", ") -> str:
    """Candles by name and code, ``between`` each (a newline in a table cell: one candle a line)."""
    return between.join(named(code) for code in codes) if codes else "[dim]—[/]"


def describe_candle(code: str) -> str:
    """'Red candle (value 7) (R7), sells for 3': what a player needs to decide about a candle on
    the table."""
    info = CANDLES.get(code)
    if info is None:
        return named(code)
    if info["kind"] == "unlit":
        return f"{named(code)}: guard your Menorah"
    return f"{named(code)}, sells for {info['sell']}"


def loot_cost(code: str) -> int | None:
    info = CANDLES.get(code)
    return None if info is None else int(info["face"]) + int(info["sell"])


# ----------------------------------------------------------------------------- the view
def header(view: CandleQuestView) -> str:
    turn = view.turn
    now = f"{turn} turns played" if view.over else f"turn {turn + 1}"
    parts = [f"Candle Quest · {view.variant}", now]
    parts.append(f"stack {view.stack}")
    parts.append(f"bank {view.bank}")
    if view.seat is not None:
        parts.append(f"you are seat {view.seat}")
    return " · ".join(parts)


def table_lines(view: CandleQuestView) -> list[str]:
    lines = []
    table = view.table
    lines.append("On the table: " + (describe_candle(table) if table else "[dim]nothing[/]"))
    if view.set_aside:
        lines.append("Set aside this turn: " + candles(view.set_aside))
    if view.removed:
        counts = {code: view.removed.count(code) for code in view.removed}  # in order shown
        out = [named(c) + (f" ×{n}" if n > 1 else "") for c, n in counts.items()]
        lines.append("Out of the game: " + ", ".join(out))
    return lines


def pile_text(pile: list[str]) -> str:
    """A discard pile for a table cell: its top candles, one a line, the top first (beside its
    loot cost)."""
    if not pile:
        return "[dim]—[/]"
    hidden = len(pile) - PILE_SHOWN
    shown = candles(pile[::-1][:PILE_SHOWN], "\n")
    return f"{shown}\n[dim](+{hidden} below)[/]" if hidden > 0 else shown


def screen_text(player: Seat) -> str:
    if isinstance(player, OpenSeat):
        return candles(player.candles, "\n")
    count = player.candles_behind_screen
    return f"[dim]{count} candle{'s' if count != 1 else ''}[/]"


def seat_cells(view: CandleQuestView) -> tuple[list[str], list[list[str]]]:
    """The seats as columns and one row each: who, screen, shekels, colours, (value), pile, (loot
    cost), (score)."""
    viewer = view.seat
    over = view.over
    active = view.active
    advanced = any(isinstance(p, OpenSeat) and p.candle_value is not UNSET for p in view.seats)
    looting = view.variant != "junior"  # the junior game has no looting
    columns = ["seat", "screen", "shekels", "colours"]
    columns += ["value"] * advanced + ["pile (top first)"] + ["loot"] * looting
    columns += ["score"] * over
    scores = view.scores if isinstance(view, FinishedView) else []
    rows = []
    for player in view.seats:
        seat = player.seat
        label = f"{'▶ ' if seat == active else '  '}{seat}{' you' if seat == viewer else ''}"
        pile = player.discard_pile
        cost = loot_cost(pile[-1]) if pile else None
        open_seat = player if isinstance(player, OpenSeat) else None
        row = [
            f"[bold]{label}[/]" if seat == viewer else label,
            screen_text(player),
            str(open_seat.shekels) if open_seat else "[dim]?[/]",
            f"{open_seat.colours}/{len(COLOURS)}" if open_seat else "[dim]?[/]",
        ]
        if advanced:
            value = open_seat.candle_value if open_seat else UNSET
            row.append("[dim]?[/]" if value is UNSET else str(value))
        row.append(pile_text(pile))
        if looting:
            row.append(str(cost) if cost is not None else "")
        if over:
            row.append(f"{scores[seat]:g}" if seat < len(scores) else "")
        rows.append(row)
    return columns, rows


def seats_table(view: CandleQuestView) -> Table:
    columns, rows = seat_cells(view)
    table = Table(header_style="bold", box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1))
    for name in columns:
        right = name in ("shekels", "colours", "value", "loot", "score")
        table.add_column(name, justify="right" if right else "left", no_wrap=name == "seat")
    for row in rows:
        table.add_row(*row)
    return table


def seats_lines(view: CandleQuestView) -> list[str]:
    """The seats table as lines, for a narrow terminal: a seat's numbers on its first line, then
    its screen and its pile (a cell's candles joined with commas)."""
    columns, rows = seat_cells(view)
    lines = []
    for player, row in zip(view.seats, rows, strict=True):
        cells = dict(zip(columns, row, strict=True))
        # every number but the pile's; an empty pile has no loot cost
        numbers = [
            f"{name} {cells[name]}"
            for name in columns[2:]
            if cells[name] and name != "pile (top first)"
        ]
        seat = player.seat
        label = f"{'▶ ' if seat == view.active else ''}Seat {seat}"
        label = f"[bold]{label} (you)[/]" if seat == view.seat else label
        lines.append(f"{label} — " + " · ".join(numbers))
        lines.append("    screen: " + cells["screen"].replace("\n", ", "))
        lines.append("    pile (top first): " + cells["pile (top first)"].replace("\n", ", "))
    return lines


def dancing_text(wild: list[str], missing: list[str]) -> str:
    """Which places the Dancing candles fill: each fills one colour still missing, any of them
    (rulings CQ-14); with more Dancing candles than gaps the rest fill nothing."""
    if not missing:
        return f"Dancing {candles(wild)}: no gap left to fill"
    if len(wild) >= len(missing):
        parts = [
            f"{named(code)} fills {colour}" for code, colour in zip(wild, missing, strict=False)
        ]
        spare = wild[len(missing) :]
        if spare:
            parts.append(f"{candles(spare)} fill nothing (no gap left)")
        return "Dancing: " + ", ".join(parts)
    return f"Dancing {candles(wild)} fill{'s' if len(wild) == 1 else ''} {len(wild)} of the gaps: {', '.join(missing)}"


def menorah_text(codes: list[str]) -> str:
    """The eight colour slots of the viewer's Menorah: the best candle held of each, or a gap."""
    best: dict[str, str] = {}
    extras: list[str] = []
    for code in codes:
        info = CANDLES.get(code, {})
        colour = info.get("colour")
        if info.get("kind") != "lit" or colour is None:
            extras.append(code)
            continue
        if colour not in best or CANDLES[best[colour]]["face"] < info["face"]:
            best[colour] = code
    slots = []
    for colour in COLOURS:
        if colour in best:
            slots.append(named(best[colour]))
        else:
            slots.append(f"[{COLOUR_STYLE.get(colour, '')} dim]no {colour}[/]")
    text = "Your Menorah: " + " · ".join(slots)
    wild = [code for code in extras if CANDLES.get(code, {}).get("kind") == "dancing"]
    unlit = [code for code in extras if code not in wild]
    if wild:
        text += "  · " + dancing_text(wild, [c for c in COLOURS if c not in best])
    if unlit:
        text += "  · unlit " + candles(unlit)
    return text


def render(view: CandleQuestView, console: Console, prompt: str) -> None:
    """The table, the seats and the viewer's Menorah, then ``prompt`` (the game's words for the
    pending decision) or how the game ended."""
    if console.width < NARROW_TERMINAL:  # a rule would cut the header to fit one line
        console.print(f"[bold]{escape(header(view))}[/]")
    else:
        console.print(Rule(header(view), style="dim"))
    for line in table_lines(view):
        console.print(line)
    if console.width < NARROW_TERMINAL:
        for line in seats_lines(view):
            console.print(line)
    else:
        console.print(seats_table(view))
    viewer = view.seat
    seats = view.seats
    if viewer is not None and viewer < len(seats):
        mine = seats[viewer]
        if isinstance(mine, OpenSeat):
            console.print(menorah_text(mine.candles))
    if isinstance(view, FinishedView):
        winners = winners_text({"winners": view.winners})
        console.print(f"[bold]Game over[/]: {winners}.")  # why it ended: the log's last line
    else:
        console.print(f"[bold]▶ {escape(prompt)}[/]")


RENDERER = Renderer(render=render, code=candle, action=action_text)
