"""What a page needs to show a thinking bot (issue 16): each bot seat's level and time budget."""

from __future__ import annotations

from typing import Any

from candlebox.server import bots as botlib
from tests.server.conftest import create, state


def test_bot_seats_carry_their_level_and_time_budget(client: Any) -> None:
    seats = [
        {"kind": "human"},
        {"kind": "bot", "level": "medium"},
        {"kind": "bot", "bot": "random"},
        {"kind": "bot", "bot": "ismcts", "strength": 1.0},
        {"kind": "bot", "level": "hard"},
    ]
    created = create(client, seats, you=0, bot_delay=0.5)
    shown = state(client, created["id"], created["token"])["seats"]
    assert [(s["level"], s["budget"]) for s in shown] == [
        (None, None),
        ("medium", 0.5),  # the heuristic bot answers at once: the table's delay is the wait
        ("beginner", 0.5),
        ("hard", 1.0),  # its own thinking time, longer than the delay
        ("hard", 1.0),  # a search by iterations, within the server's cap on thinking time
    ]


def test_levels_from_strengths() -> None:
    assert botlib.level_of("heuristic", {"epsilon": 0.65}) == "easy"
    assert botlib.level_of("heuristic", {"epsilon": 0.3}) == "medium"
    assert botlib.level_of("heuristic", {"epsilon": 0.1}) == "medium"
    assert botlib.level_of("heuristic", {"epsilon": 0.0}) == "hard"
    assert botlib.level_of("random", {}) == "beginner"
    assert botlib.budget_of({"seconds": 0.25}, 0.8) == 0.8
    assert botlib.budget_of({"seconds": 2}, 0.8) == 2.0
