"""16 Candies in words: the log's sentences, plain strings shared by the terminal, the server and the
pages (the terminal colours the card codes through :class:`candlebox.engine.plugin.Marks`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from candlebox.engine import game_info
from candlebox.engine.plugin import PLAIN, GameText, Marks, seats_text

CANDIES: dict[str, str] = game_info("sixteen-candies").facts["candies"]


def _c(m: Marks, code: Any) -> str:
    """A card or half code, marked (a dash when there is none)."""
    return "—" if code is None else m.code(str(code))


def winners_text(view: dict[str, Any]) -> str:
    winners = view.get("winners", [])
    if not winners:
        return "nobody wins"
    if len(winners) == 1:
        return f"seat {winners[0]} wins"
    return seats_text(winners) + " share the win"


# ----------------------------------------------------------------------------- the log
def _seat(entry: dict[str, Any]) -> str:
    return f"seat {entry.get('seat')}"


def _draw(e: dict[str, Any], m: Marks) -> str:
    if e.get("source") == "discard":
        return f"{_seat(e)} takes {_c(m, e.get('card'))} from the discard pile"
    if "card" in e:
        return f"{_seat(e)} draws {_c(m, e.get('card'))}"
    return f"{_seat(e)} draws from the draw pile"


def _reveal(e: dict[str, Any], m: Marks) -> str:
    tops = " ".join(_c(m, t) for t in e.get("tops", []))
    candy = CANDIES.get(e.get("candy", ""), e.get("candy"))
    return (
        f"{_seat(e)} reveals {tops}: {e.get('value')} {m.literal(str(candy))}, "
        f"penalty {e.get('penalty')}"
    )


def _score(e: dict[str, Any], m: Marks) -> str:
    due = e.get("due", 0)
    role = {"caller": "the caller", "instant": "the instant winner", "other": ""}.get(
        e.get("role", ""), ""
    )
    rank = e.get("rank")
    who = f"{_seat(e)} ({', '.join(x for x in (role, str(rank)) if x)})"
    if due > 0:
        change = f"adds {due}"
    elif due < 0:
        change = f"loses {-due}"
    else:
        change = "nothing happens"
    return f"{who}: {change} → {e.get('pool')} candy"


def _game_over(e: dict[str, Any], m: Marks) -> str:
    reasons = {
        "last-candy": "only one player has candy left",
        "rounds": "the last round is played",
        "max-turns": "the turn limit is reached",
    }
    reason = reasons.get(e.get("reason", ""), str(e.get("reason")))
    return m.strong(f"Game over: {reason}; {winners_text(e)}.")


LINES: dict[str, Callable[[dict[str, Any], Marks], str]] = {
    "round": lambda e, m: (
        m.strong(f"Round {e.get('round')}") + f": seat {e.get('marker')} holds the marker"
    ),
    "deal": lambda e, m: (
        f"{_seat(e)} is dealt {_c(m, e['card'])}" if "card" in e else f"{_seat(e)} is dealt a card"
    ),
    "flip": lambda e, m: f"{_c(m, e.get('card'))} starts the discard pile",
    "draw": _draw,
    "skip": lambda e, m: f"{_seat(e)} does not draw",
    "reshuffle": lambda e, m: (
        f"the discard pile is shuffled into a new draw pile of {e.get('count')}"
    ),
    "discard": lambda e, m: f"{_seat(e)} discards {_c(m, e.get('card'))}",
    "call": lambda e, m: m.strong(f'{_seat(e)}: "I\'ve got candy!"'),
    "end-turn": lambda e, m: m.faint(f"end of turn {e.get('turn')}"),
    "instant-win": lambda e, m: m.strong(f"{_seat(e)} wins the round instantly!"),
    "reveal": _reveal,
    "score": _score,
    "out": lambda e, m: m.strong(f"{_seat(e)} is out of candy"),
    "game-over": _game_over,
}


def event_line(entry: dict[str, Any], marks: Marks = PLAIN) -> str | None:
    """One log entry as a sentence, e.g. 'seat 1 discards G6-K1'; None for an unknown event."""
    line = LINES.get(entry.get("event", ""))
    return None if line is None else line(entry, marks)


TEXT = GameText(event=event_line)
