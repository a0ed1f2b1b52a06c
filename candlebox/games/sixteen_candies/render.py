"""16 Candies at the terminal: two-halved cards with the top half lit, the piles, the pools, the log.

Everything here reads the seat's typed view (views.py), log entries (plain dicts) and the game's public
facts, never the game's rules, so the renderer shows exactly what the seat is allowed to know. Rotation is easy to
judge: every ``top ...`` action in the list says what the hand would be worth turned that way. Every card
and half on the board is shown by its name with its code, the one typed ("6 Gummy Bears / 1 Chocolate
(G6-C1)"), its name from the game's words (words.json), never a bare code (issue 14).
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.columns import Columns
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table

from candlebox.engine import game_info
from candlebox.engine.plugin import NARROW_TERMINAL, Renderer, winners_text
from candlebox.games.sixteen_candies.text import counted
from candlebox.games.sixteen_candies.views import (
    Card,
    FinishedView,
    HandSeat,
    Seat,
    SixteenCandiesView,
    ValuedSeat,
)
from candlebox.games.sixteen_candies.words import table as words

GAME_ID = "sixteen-candies"
_FACTS = game_info(GAME_ID).facts
CANDIES: dict[str, str] = _FACTS["candies"]
CARDS: dict[str, dict[str, Any]] = _FACTS["cards"]
WILD: dict[str, Any] = _FACTS["wild"]
HALVES: dict[str, dict[str, Any]] = {
    half["code"]: half for card in CARDS.values() for half in card["halves"]
}

CANDY_STYLE = {
    "G": "bold red",
    "C": "bold orange4",  # brown
    "K": "bold dark_orange",
    "H": "bold hot_pink",
}
WILD_STYLE = "bold black on gold1"
PILE_SHOWN = 6  # discard pile cards listed (the top ones); the count says how many more
PANEL = 27  # a card's width: its halves' names and codes fit ('6 Heart Candies (H6) ▲')


# ----------------------------------------------------------------------------- cards and halves
def half_style(code: str) -> str:
    info = HALVES.get(code)
    if info is None:
        return ""
    return WILD_STYLE if info["candy"] is None else CANDY_STYLE.get(info["candy"], "bold")


def half(code: str | None) -> str:
    """A half code (``G6``) or the Wild (``W``) as rich markup in its candy's colour."""
    if code is None:
        return "—"
    style = half_style(code)
    return f"[{style}]{escape(code)}[/]" if style else escape(code)


def card(code: str | None) -> str:
    """A card code (``G6-K1``) as markup, each half in its colour."""
    if code is None:
        return "—"
    if code not in CARDS:
        return escape(code)
    if CARDS[code]["wild"]:
        return half(code)
    a, b = (h["code"] for h in CARDS[code]["halves"])
    return f"{half(a)}[dim]-[/]{half(b)}"


def name(code: str) -> str:
    """A card's or a half's name in the game's words ('6 Gummy Bears / 1 Chocolate')."""
    entry = words().get(code)
    return code if entry is None else entry.name


def named(code: str) -> str:
    """A card or a half by its name and its coloured code: '6 Gummy Bears / 1 Chocolate (G6-C1)'."""
    return f"{escape(name(code))} ({code_markup(code)})" if code in words() else code_markup(code)


def cards(codes: list[str], between: str = ", ") -> str:
    """Cards by name and code, ``between`` each (a newline in a table cell: one card a line)."""
    return between.join(named(code) for code in codes) if codes else "[dim]—[/]"


def worth(tops: list[str]) -> tuple[int, str | None, int]:
    """(value, candy counted, penalty) of top halves: the most of one candy, a Wild adding three."""
    totals: dict[str, int] = {}
    wild = penalty = 0
    for code in tops:
        info = HALVES.get(code)
        if info is None:
            continue
        penalty += info["penalty"]
        if info["candy"] is None:
            wild += info["count"]
        else:
            totals[info["candy"]] = totals.get(info["candy"], 0) + info["count"]
    best = max(CANDIES, key=lambda c: totals.get(c, 0)) if CANDIES else None
    return totals.get(best, 0) + wild if best else wild, best, penalty


def instant(tops: list[str]) -> bool:
    infos = [HALVES.get(code) for code in tops]
    if len(infos) != 3 or any(i is None or i["candy"] is None for i in infos):
        return False
    candies = {i["candy"] for i in infos if i}
    return len(candies) == 1 and sorted(i["count"] for i in infos if i) == [4, 5, 6]


def action_text(action: str) -> str:
    """An action with its cards coloured; ``top ...`` says what the hand would be worth."""
    words = action.split(" ")
    verb = words[0]
    if verb == "top":
        tops = words[1:]
        value, candy, penalty = worth(tops)
        note = "instant win!" if instant(tops) else f"{counted(value, candy)}, penalty {penalty}"
        return f"top {' '.join(half(w) for w in tops)} [dim]({escape(note)})[/]"
    if verb == "discard" and len(words) == 2:
        return f"discard {card(words[1])}"
    return escape(action)


def card_panel(entry: Card) -> Panel:
    """One card drawn with two halves: the top half lit, the bottom half dim (it points down)."""
    top, bottom = entry.top, entry.bottom
    if CARDS.get(entry.card, {}).get("wild"):
        body = (
            f"{escape(name('W'))} ({half('W')}) [bold]×{WILD['count']}[/]\n"
            f"[bold]pen {WILD['penalty']}[/]\n[dim]{'┄' * 8}[/]\n[dim]  any ↓[/]"
        )
        return Panel(body, box=box.ROUNDED, width=PANEL, padding=(0, 1), border_style="gold1")
    up, down = HALVES[top], HALVES[bottom]
    body = (
        f"{named(top)} [bold]▲[/]\n[bold]pen {up['penalty']}[/]\n[dim]{'┄' * 8}[/]\n"
        f"[dim]{escape(name(bottom))} ({escape(bottom)}) ↓ p{down['penalty']}[/]"
    )
    return Panel(body, box=box.ROUNDED, width=PANEL, padding=(0, 1), border_style=half_style(top))


def legend() -> str:
    """Which letter is which candy, in colour."""
    parts = [
        f"[{CANDY_STYLE.get(code, 'bold')}]{code}[/] {escape(name)}"
        for code, name in CANDIES.items()
    ]
    parts.append(f"{escape(name('W'))} ({half('W')}): {WILD['count']} of the best candy")
    return " [dim]·[/] ".join(parts)


def hand_lines(player: Seat, console: Console, mine: bool) -> None:
    panels = [card_panel(entry) for entry in player.hand] if isinstance(player, HandSeat) else []
    if not panels:
        return
    console.print(Columns(panels, padding=(0, 0)))
    if mine:
        console.print(legend())
    if isinstance(player, ValuedSeat):
        who = "Your hand" if mine else f"Seat {player.seat}'s hand"
        console.print(
            f"{who}: [bold]{player.value}[/] {escape(counted(player.value, player.candy)[len(str(player.value)) + 1 :])}"
            f" · penalty {player.penalty}"
        )


# ----------------------------------------------------------------------------- the view
def header(view: SixteenCandiesView) -> str:
    turn = view.turn
    now = f"{turn} turns played" if view.over else f"turn {turn + 1}"
    parts = [f"16 Candies · round {view.round}", now, f"draw pile {view.draw_pile}"]
    if view.seat is not None:
        parts.append(f"you are seat {view.seat}")
    return " · ".join(parts)


def pile_text(pile: list[str]) -> str:
    if not pile:
        return "[dim]empty[/]"
    hidden = len(pile) - PILE_SHOWN
    shown = cards(pile[-PILE_SHOWN:])
    return f"[dim](+{hidden})[/] {shown}" if hidden > 0 else shown


def seat_notes(view: SixteenCandiesView, player: Seat) -> list[str]:
    """What marks a seat: the First Player Marker, its call, a final turn to come, out."""
    seat = player.seat
    notes = []
    if seat == view.marker:
        notes.append("marker")
    if seat == view.caller:
        notes.append("[bold]called![/]")
    if seat in view.final_turns:
        notes.append("final turn to come")
    if player.out:
        notes.append("[dim]out[/]")
    return notes


def seat_label(view: SixteenCandiesView, seat: int) -> str:
    label = f"{'▶ ' if seat == view.active else '  '}{seat}{' you' if seat == view.seat else ''}"
    return f"[bold]{label}[/]" if seat == view.seat else label


def seats_table(view: SixteenCandiesView) -> Table:
    table = Table(header_style="bold", box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1))
    table.add_column("seat", no_wrap=True)
    table.add_column("candy", justify="right")
    table.add_column("cards", justify="right")
    table.add_column("known to hold")
    table.add_column("")
    for player in view.seats:
        table.add_row(
            seat_label(view, player.seat),
            str(player.pool),
            str(player.cards),
            cards(player.known, "\n") if player.known else "",
            ", ".join(seat_notes(view, player)),
        )
    return table


def seats_lines(view: SixteenCandiesView) -> list[str]:
    """The seats table as lines, for a narrow terminal."""
    lines = []
    for player in view.seats:
        parts = [f"candy {player.pool}", f"cards {player.cards}", *seat_notes(view, player)]
        if player.known:
            parts.append("known to hold " + cards(player.known))
        seat = player.seat
        label = f"{'▶ ' if seat == view.active else ''}Seat {seat}"
        label = f"[bold]{label} (you)[/]" if seat == view.seat else label
        lines.append(f"{label} — " + " · ".join(parts))
    return lines


def render(view: SixteenCandiesView, console: Console, prompt: str) -> None:
    """The discard pile, the seats and the viewer's hand, then ``prompt`` (the game's words for the
    pending decision) or every hand and how the game ended."""
    if console.width < NARROW_TERMINAL:  # a rule would cut the header to fit one line
        console.print(f"[bold]{escape(header(view))}[/]")
    else:
        console.print(Rule(header(view), style="dim"))
    console.print("Discard pile (top last): " + pile_text(view.discard_pile))
    if console.width < NARROW_TERMINAL:
        for line in seats_lines(view):
            console.print(line)
    else:
        console.print(seats_table(view))
    viewer = view.seat
    seats = view.seats
    if isinstance(view, FinishedView):
        for player in seats:
            hand_lines(player, console, player.seat == viewer)
        winners = winners_text({"winners": view.winners})
        console.print(f"[bold]Game over[/]: {winners}.")  # why it ended: the log's last line
        return
    if viewer is not None and viewer < len(seats):
        hand_lines(seats[viewer], console, True)
    console.print(f"[bold]▶ {escape(prompt)}[/]")


def code_markup(code: str) -> str:
    """A card code or a half code as rich markup in its candies' colours."""
    return card(code) if code in CARDS else half(code)


def read_typed(typed: str, legal: list[str]) -> str | None:
    """An orientation typed with its halves in any order (``top c5 g4 g5``) read as the one legal
    ``top`` action showing those halves, when exactly one does; None otherwise (the engine then
    explains). Other actions are left as typed."""
    words = typed.split()
    if len(words) < 2 or words[0].lower() != "top":
        return None
    wanted = sorted(word.upper() for word in words[1:])
    found = {
        action
        for action in legal
        if action.startswith("top ") and sorted(action.split()[1:]) == wanted
    }
    return found.pop() if len(found) == 1 else None


RENDERER = Renderer(render=render, code=code_markup, action=action_text, read=read_typed)
