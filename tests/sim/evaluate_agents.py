"""Tiny outside agents for tests/sim/test_evaluate.py, loaded by name as a user's would be."""

from __future__ import annotations

from typing import Any

from candlebox import bots
from candlebox.engine import State


class FirstLegal:
    """Plays the first legal action, and remembers every seat it was asked to play."""

    def __init__(self) -> None:
        self.seats: list[int] = []

    def choose(self, state: State, seat: int) -> str:
        self.seats.append(seat)
        return state.legal_actions(seat)[0]


def first_legal() -> FirstLegal:
    return FirstLegal()


def heuristic() -> Any:
    return bots.make("heuristic", seed=1)


def no_choose() -> object:
    return object()


class Cheater:
    def choose(self, state: State, seat: int) -> str:
        return "take every candle"


NOT_A_FACTORY = 3
