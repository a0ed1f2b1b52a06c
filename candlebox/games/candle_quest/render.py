"""Candle Quest at the terminal: coloured candle codes, the table, the screens and the log in words.

Everything here reads the view and log entries (plain dicts) and the game's public facts, never the
game's modules, so the renderer shows exactly what the seat is allowed to know.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.rule import Rule
from rich.table import Table

import candlebox
from candlebox.cli.render.generic import seats_text

GAME_ID = "candle-quest"
_FACTS = candlebox.game_info(GAME_ID).facts
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


def candles(codes: list[str]) -> str:
    return " ".join(candle(code) for code in codes) if codes else "[dim]—[/]"


def describe_candle(code: str) -> str:
    """'R7 (Red 7, sells for 3)': what a player needs to decide about a candle on the table."""
    info = CANDLES.get(code)
    if info is None:
        return candle(code)
    if info["kind"] == "unlit":
        return f"{candle(code)} (Unlit {info['face']}: guard your Menorah)"
    kind = info["colour"] if info["kind"] == "lit" else "Dancing"
    return f"{candle(code)} ({kind} {info['face']}, sells for {info['sell']})"


def loot_cost(code: str) -> int | None:
    info = CANDLES.get(code)
    return None if info is None else int(info["face"]) + int(info["sell"])


# ----------------------------------------------------------------------------- the view
def pending_text(pending: dict[str, Any] | None, viewer: int | None) -> str:
    if not pending:
        return "The game is over."
    seats = pending.get("seats", [])
    who = seats_text(seats) + (" (you)" if viewer is not None and viewer in seats else "")
    code = pending.get("candle")
    decision = pending.get("decision")
    if decision == "turn":
        kind = "a bonus turn" if pending.get("bonus_turn") else "a turn"
        return f"{who} to take {kind}"
    if decision == "buy-sell-auction":
        return f"{who} to buy, sell or auction {candle(code)}"
    if decision == "bid":
        return (
            f"{who} to bid on {candle(code)} or pass "
            f"(high bid {pending.get('high_bid')} by seat {pending.get('high_bidder')})"
        )
    if decision == "pay":
        purpose = "guarding against" if pending.get("paying_for") == "guard" else "looting"
        return f"{who} paying for {purpose} {candle(code)}: {pending.get('due')} still owed"
    if decision == "guard-short":
        return f"{who} cannot pay for {candle(code)}: discard the highest candle or all shekels"
    if decision == "give":
        return f"{who} to give seat {pending.get('to')} a candle"
    return f"{who}: {decision}"


def header(view: dict[str, Any]) -> str:
    turn = view.get("turn", 0)
    now = f"{turn} turns played" if view.get("over") else f"turn {turn + 1}/{view.get('max_turns')}"
    parts = [f"Candle Quest · {view.get('variant')}", now]
    parts.append(f"stack {view.get('stack')}")
    parts.append(f"bank {view.get('bank')}")
    if view.get("seat") is not None:
        parts.append(f"you are seat {view['seat']}")
    return " · ".join(parts)


def table_lines(view: dict[str, Any]) -> list[str]:
    lines = []
    table = view.get("table")
    lines.append("On the table: " + (describe_candle(table) if table else "[dim]nothing[/]"))
    if view.get("set_aside"):
        lines.append("Set aside this turn: " + candles(view["set_aside"]))
    if view.get("removed"):
        lines.append("Out of the game: " + candles(view["removed"]))
    return lines


def pile_text(pile: list[str]) -> str:
    if not pile:
        return "[dim]—[/]"
    hidden = len(pile) - PILE_SHOWN
    shown = candles(pile[-PILE_SHOWN:])
    return f"[dim](+{hidden})[/] {shown}" if hidden > 0 else shown


def screen_text(player: dict[str, Any]) -> str:
    if "candles" in player:
        return candles(player["candles"])
    count = player.get("candles_behind_screen", 0)
    return f"[dim]{count} candle{'s' if count != 1 else ''}[/]"


def seats_table(view: dict[str, Any]) -> Table:
    viewer = view.get("seat")
    over = view.get("over", False)
    active = view.get("active")
    advanced = any("candle_value" in p for p in view.get("seats", []))
    looting = view.get("variant") != "junior"  # the junior game has no looting
    table = Table(header_style="bold", box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1))
    table.add_column("seat", no_wrap=True)
    table.add_column("screen")
    table.add_column("shekels", justify="right")
    table.add_column("colours", justify="right")
    if advanced:
        table.add_column("value", justify="right")
    table.add_column("pile (top last)")
    if looting:
        table.add_column("loot", justify="right")
    if over:
        table.add_column("score", justify="right")
    for player in view.get("seats", []):
        seat = player.get("seat")
        label = f"{'▶ ' if seat == active else '  '}{seat}{' you' if seat == viewer else ''}"
        pile = player.get("discard_pile", [])
        cost = loot_cost(pile[-1]) if pile else None
        row = [
            f"[bold]{label}[/]" if seat == viewer else label,
            screen_text(player),
            str(player["shekels"]) if "shekels" in player else "[dim]?[/]",
            f"{player['colours']}/{len(COLOURS)}" if "colours" in player else "[dim]?[/]",
        ]
        if advanced:
            row.append(str(player.get("candle_value", "[dim]?[/]")))
        row.append(pile_text(pile))
        if looting:
            row.append(str(cost) if cost is not None else "")
        if over:
            scores = view.get("scores", [])
            row.append(f"{scores[seat]:g}" if seat < len(scores) else "")
        table.add_row(*row)
    return table


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
            slots.append(candle(best[colour]))
        else:
            slots.append(f"[{COLOUR_STYLE.get(colour, '')} dim]{colour[:2].lower()}[/]")
    text = "Your Menorah: " + " ".join(slots)
    wild = [code for code in extras if CANDLES.get(code, {}).get("kind") == "dancing"]
    unlit = [code for code in extras if code not in wild]
    if wild:
        text += "  · wild " + candles(wild)
    if unlit:
        text += "  · unlit " + candles(unlit)
    return text


def render(view: dict[str, Any], console: Console) -> None:
    console.print(Rule(header(view), style="dim"))
    for line in table_lines(view):
        console.print(line)
    console.print(seats_table(view))
    viewer = view.get("seat")
    seats = view.get("seats", [])
    if viewer is not None and viewer < len(seats) and "candles" in seats[viewer]:
        console.print(menorah_text(seats[viewer]["candles"]))
    if view.get("over"):
        console.print(f"[bold]Game over[/] ({view.get('end_reason')}): {winners_text(view)}")
    else:
        console.print(f"[bold]▶ {pending_text(view.get('pending'), viewer)}[/]")


def winners_text(view: dict[str, Any]) -> str:
    winners = view.get("winners", [])
    if not winners:
        return "nobody wins"
    if len(winners) == 1:
        return f"seat {winners[0]} wins"
    return seats_text(winners) + " share the win"


# ----------------------------------------------------------------------------- the log
def _seat(entry: dict[str, Any], key: str = "seat") -> str:
    return f"seat {entry.get(key)}"


def _count(n: Any, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _auction_won(e: dict[str, Any]) -> str:
    payee = "the bank" if e.get("paid_to") == "bank" else _seat(e, "paid_to")
    return f"{_seat(e)} wins the auction for {candle(e.get('candle'))}, paying {e.get('price')} to {payee}"


def _discard(e: dict[str, Any]) -> str:
    where = "out of the game" if e.get("to") == "removed" else "onto their discard pile"
    return f"{_seat(e)} discards {candle(e.get('candle'))} {where}"


def _game_over(e: dict[str, Any]) -> str:
    reasons = {
        "menorah": "a Menorah is complete",
        "max-turns": "the turn limit is reached",
        "stalled": "nobody can do anything",
    }
    reason = reasons.get(e.get("reason", ""), str(e.get("reason")))
    return f"[bold]Game over: {reason}; {winners_text(e)}.[/]"


LINES: dict[str, Callable[[dict[str, Any]], str]] = {
    "start-draw": lambda e: f"{_seat(e)} draws {candle(e.get('candle'))} for the start",
    "start-player": lambda e: f"{_seat(e)} starts",
    "flip": lambda e: f"{_seat(e)} flips {candle(e.get('candle'))}",
    "set-aside": lambda e: f"{_seat(e)} flips {candle(e.get('candle'))} and sets it aside",
    "no-candle": lambda e: f"{_seat(e)} has no candle to flip",
    "rebuild": lambda e: (
        f"the discard piles are shuffled into a new stack of {_count(e.get('count'), 'candle')}"
    ),
    "mix-back": lambda e: (
        f"{_count(e.get('count'), 'set-aside candle')} shuffled back into the stack"
    ),
    "buy": lambda e: f"{_seat(e)} buys {candle(e.get('candle'))} for {e.get('price')}",
    "sell": lambda e: f"{_seat(e)} sells {candle(e.get('candle'))} for {e.get('received')}",
    "auction": lambda e: (
        f"{_seat(e)} auctions {candle(e.get('candle'))}, opening at {e.get('bid')}"
    ),
    "bid": lambda e: f"{_seat(e)} bids {e.get('amount')}",
    "pass-bid": lambda e: f"{_seat(e)} passes",
    "auction-won": _auction_won,
    "loot": lambda e: (
        f"{_seat(e)} loots {candle(e.get('candle'))} from {_seat(e, 'from')}'s pile "
        f"(costs {e.get('cost')})"
    ),
    "looted": lambda e: f"{_seat(e)} puts {candle(e.get('candle'))} behind the screen",
    "discard": _discard,
    "pay": lambda e: f"{_seat(e)} pays {e.get('amount')}",
    "guard": lambda e: f"{_seat(e)} guards their Menorah and keeps {candle(e.get('candle'))}",
    "unlit-removed": lambda e: (
        f"{candle(e.get('candle'))} leaves the game ({_seat(e)} could not pay)"
    ),
    "bonus-turn": lambda e: f"{_seat(e)} takes a bonus turn",
    "force": lambda e: (
        f"{_seat(e)} discards {candle(e.get('candle'))} to make "
        f"{_seat(e, 'target')} give them a candle"
    ),
    "give": lambda e: f"{_seat(e)} gives {candle(e.get('candle'))} to {_seat(e, 'to')}",
    "pass": lambda e: f"{_seat(e)} passes (nothing to do)",
    "end-turn": lambda e: f"[dim]end of turn {e.get('turn')}[/]",
    "menorah": lambda e: f"[bold]{_seat(e)} completes the Menorah![/]",
    "game-over": _game_over,
}


def event_line(entry: dict[str, Any]) -> str:
    """One log entry as rich markup, e.g. 'seat 1 buys R7 for 7'; unknown events fall back."""
    line = LINES.get(entry.get("event", ""))
    if line is None:
        from candlebox.cli.render.generic import event_line as generic_line

        return generic_line(entry)
    return line(entry)
