"""Building Candle Quest positions for tests: fixed decks, scripted turns, and crafted saves."""

from __future__ import annotations

from typing import Any

import candlebox
from candlebox import State
from tests.candle_quest import position


def game(players: int = 2, deck: list[str] | None = None, first: int = 0, **options: Any) -> State:
    return candlebox.new_game(
        "candle-quest", players=players, seed=1, deck=deck or [], first_player=first, **options
    )


def play(state: State, *steps: tuple[int, str]) -> State:
    for seat, action in steps:
        state.apply(seat, action)
    return state


def seat_info(state: State, seat: int) -> dict[str, Any]:
    return state.view(seat)["seats"][seat]


def craft(
    state: State,
    screens: dict[int, list[str]] | None = None,
    piles: dict[int, list[str]] | None = None,
    shekels: dict[int, int] | None = None,
) -> State:
    """The same position with candles moved from the stack behind screens or onto discard piles,
    and shekels moved between the bank and players; read back with every count checked (tests/candle_quest/position.py)."""
    data = state.to_json()
    snap = data["state"]
    for where, moves in (("screens", screens or {}), ("piles", piles or {})):
        for seat, codes in moves.items():
            for code in codes:
                stack = snap["stack"]  # taken from the bottom, so a fixed deck's top stays put
                del stack[len(stack) - 1 - stack[::-1].index(code)]
                snap[where][seat].append(code)
    for seat, amount in (shekels or {}).items():
        snap["bank"] += snap["shekels"][seat] - amount
        snap["shekels"][seat] = amount
    for seat, screen in enumerate(snap["screens"]):
        snap["screens"][seat] = sorted(screen, key=_type_order)
    return position.restore(data, state)


def _type_order(code: str) -> int:
    return list(candlebox.game_info("candle-quest").facts["candles"]).index(code)
