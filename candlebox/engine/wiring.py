"""The rules a game's state dispatches to, handed to it once by the game's package.

A game's ``state.py`` is a leaf that its rule modules import (for the state's type), so it cannot import
them. A game whose decisions are keyed by a phase (Candle Quest, 16 Candies) keeps a :class:`Wiring` in
its state module, and its ``__init__`` fills it with ``wire(PhaseRules(...))`` once every rule module is
loaded; the state's contract methods then call through it. See docs/architecture.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from candlebox.engine.state import State

S = TypeVar("S", bound=State)  # the game's state
P = TypeVar("P")  # the game's phase (an enum): what the pending decision is
H = TypeVar("H")  # how the game applies an action of a phase (its signature is the game's own)
V = TypeVar("V")  # the game's typed view


@dataclass(frozen=True, slots=True)
class PhaseRules(Generic[S, P, H, V]):
    """The rule modules' entry points: per phase, how to apply an action (``do``) and the legal
    actions of a seat (``legal``); and the view, an event's view, the pending decision in words, the
    resampling of hidden information and the snapshot of a saved game."""

    do: Mapping[P, H]
    legal: Mapping[P, Callable[[S, int], list[str]]]
    view: Callable[[S, int | None], V]
    event_view: Callable[[tuple, int | None], dict[str, Any] | None]
    describe: Callable[[S], str]
    resample: Callable[[S, int, int], State]
    snapshot: Callable[[S], dict[str, Any]]


class Wiring(Generic[S, P, H, V]):
    """Where a state module finds its rules once they are wired. ``do`` and ``legal`` are plain dicts,
    filled in place, so the module can bind them to globals once: ``_legal_for`` and ``_do`` run at
    every step. ``rules`` is unset until ``wire`` is called (reading it then raises AttributeError)."""

    __slots__ = ("do", "legal", "rules")
    rules: PhaseRules[S, P, H, V]

    def __init__(self) -> None:
        self.do: dict[P, H] = {}
        self.legal: dict[P, Callable[[S, int], list[str]]] = {}

    def wire(self, rules: PhaseRules[S, P, H, V]) -> None:
        """Connect the rule modules (called once, by the game's ``__init__``)."""
        self.do.clear()
        self.do.update(rules.do)
        self.legal.clear()
        self.legal.update(rules.legal)
        self.rules = rules
