"""A rated game lost on time (issue 35; docs/server.md, "Clocks"): what is stored and what is shown.

The game is stored with the status ``lost-on-time`` (``storage.LOST_ON_TIME``) and the result
``{"winners": [...], "scores": [...], "out_of_time": SEAT}``: the seat out of time last (score 0),
every other seat sharing the win (score 1), as the ratings count it (``ratings.lost_on_time``). It
is no resignation, and nothing says it is: the saved game records ``out_of_time`` (``candlebox
replay --verify`` accepts a game that ends there), the end screen's standings say who ran out of
time, and the profile's recent games say "lost on time".
"""

from __future__ import annotations

from typing import Any

from candlebox.engine.leaving import resignation, standings_after
from candlebox.server.live import LiveGame
from candlebox.server.storage import LOST_ON_TIME


def outcome(players: int, seat: int) -> dict[str, Any]:
    """The stored result of a game ``seat`` lost on time."""
    return {
        "winners": [n for n in range(players) if n != seat],
        "scores": [0.0 if n == seat else 1.0 for n in range(players)],
        "out_of_time": seat,
    }


def lost_on_time(live: LiveGame) -> int | None:
    """The seat that lost the game on time (None: the game did not end so)."""
    result = live.record.result or {}
    if live.record.status != LOST_ON_TIME or not isinstance(result.get("out_of_time"), int):
        return None
    return int(result["out_of_time"])


def standings(live: LiveGame, late: int) -> dict[str, Any]:
    """The end screen's standings of a game seat ``late`` lost on time: every other seat first,
    ``late`` last, and a sentence saying so (the engine's words for a seat that left early)."""
    name = [seat.name or f"seat {seat.seat + 1}" for seat in live.record.seats]
    left = resignation(live.record.players, late)
    return standings_after(left, live.moves, lambda n: name[n], out_of_time=True).as_data()
