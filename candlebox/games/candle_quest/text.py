"""Candle Quest in words: the log's sentences, plain strings shared by the terminal, the server and the
pages (the terminal colours the candle codes through :class:`candlebox.engine.plugin.Marks`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from candlebox.engine.plugin import PLAIN, GameText, Marks, seats_text


def _c(m: Marks, code: Any) -> str:
    """A candle code, marked (a dash when there is none)."""
    return "—" if code is None else m.code(str(code))


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


def _auction_won(e: dict[str, Any], m: Marks) -> str:
    payee = "the bank" if e.get("paid_to") == "bank" else _seat(e, "paid_to")
    return f"{_seat(e)} wins the auction for {_c(m, e.get('candle'))}, paying {e.get('price')} to {payee}"


def _discard(e: dict[str, Any], m: Marks) -> str:
    where = "out of the game" if e.get("to") == "removed" else "onto their discard pile"
    return f"{_seat(e)} discards {_c(m, e.get('candle'))} {where}"


def _game_over(e: dict[str, Any], m: Marks) -> str:
    reasons = {
        "menorah": "a Menorah is complete",
        "max-turns": "the turn limit is reached",
        "stalled": "nobody can do anything",
    }
    reason = reasons.get(e.get("reason", ""), str(e.get("reason")))
    return m.strong(f"Game over: {reason}; {winners_text(e)}.")


LINES: dict[str, Callable[[dict[str, Any], Marks], str]] = {
    "start-draw": lambda e, m: f"{_seat(e)} draws {_c(m, e.get('candle'))} for the start",
    "start-player": lambda e, m: f"{_seat(e)} starts",
    "flip": lambda e, m: f"{_seat(e)} flips {_c(m, e.get('candle'))}",
    "set-aside": lambda e, m: f"{_seat(e)} flips {_c(m, e.get('candle'))} and sets it aside",
    "no-candle": lambda e, m: f"{_seat(e)} has no candle to flip",
    "rebuild": lambda e, m: (
        f"the discard piles are shuffled into a new stack of {_count(e.get('count'), 'candle')}"
    ),
    "mix-back": lambda e, m: (
        f"{_count(e.get('count'), 'set-aside candle')} shuffled back into the stack"
    ),
    "buy": lambda e, m: f"{_seat(e)} buys {_c(m, e.get('candle'))} for {e.get('price')}",
    "sell": lambda e, m: f"{_seat(e)} sells {_c(m, e.get('candle'))} for {e.get('received')}",
    "auction": lambda e, m: (
        f"{_seat(e)} auctions {_c(m, e.get('candle'))}, opening at {e.get('bid')}"
    ),
    "bid": lambda e, m: f"{_seat(e)} bids {e.get('amount')}",
    "pass-bid": lambda e, m: f"{_seat(e)} passes",
    "auction-won": _auction_won,
    "loot": lambda e, m: (
        f"{_seat(e)} loots {_c(m, e.get('candle'))} from {_seat(e, 'from')}'s pile "
        f"(costs {e.get('cost')})"
    ),
    "looted": lambda e, m: f"{_seat(e)} puts {_c(m, e.get('candle'))} behind the screen",
    "discard": _discard,
    "pay": lambda e, m: f"{_seat(e)} pays {e.get('amount')}",
    "guard": lambda e, m: f"{_seat(e)} guards their Menorah and keeps {_c(m, e.get('candle'))}",
    "unlit-removed": lambda e, m: (
        f"{_c(m, e.get('candle'))} leaves the game ({_seat(e)} could not pay)"
    ),
    "bonus-turn": lambda e, m: f"{_seat(e)} takes a bonus turn",
    "force": lambda e, m: (
        f"{_seat(e)} discards {_c(m, e.get('candle'))} to make "
        f"{_seat(e, 'target')} give them a candle"
    ),
    "give": lambda e, m: f"{_seat(e)} gives {_c(m, e.get('candle'))} to {_seat(e, 'to')}",
    "pass": lambda e, m: f"{_seat(e)} passes (nothing to do)",
    "end-turn": lambda e, m: m.faint(f"end of turn {e.get('turn')}"),
    "menorah": lambda e, m: m.strong(f"{_seat(e)} completes the Menorah!"),
    "game-over": _game_over,
}


def event_line(entry: dict[str, Any], marks: Marks = PLAIN) -> str | None:
    """One log entry as a sentence, e.g. 'seat 1 buys R7 for 7'; None for an unknown event."""
    line = LINES.get(entry.get("event", ""))
    return None if line is None else line(entry, marks)


TEXT = GameText(event=event_line)
