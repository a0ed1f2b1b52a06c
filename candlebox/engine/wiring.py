"""The rules a game's state dispatches to, handed to it once by the game's package.

A game's ``state.py`` is a leaf that its rule modules import (for the state's type), so it cannot import
them. It keeps a wiring in a module global instead, and the package's ``__init__`` wires the rules in
once every rule module is loaded; the state's contract methods then call through it. Two shapes:

- a game whose decisions are keyed by a phase (Candle Quest, 16 Candies): a :class:`Wiring` filled with
  ``wire(PhaseRules(...))``, one handler and one legal-actions function per phase;
- a game whose pending decisions are a stack of frames ``[phase, seat, ...]`` with one dispatcher (The
  Curse of Candelabria): a :class:`StackWiring` filled with ``wire(StackRules(...))``.

See docs/architecture.md.
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
R = TypeVar("R")  # the rules record a wiring holds


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


@dataclass(frozen=True, slots=True)
class StackRules(Generic[S, V]):
    """The rule modules' entry points for a game whose pending decisions are a stack of frames, each
    ``[phase, seat, ...]``: one ``do`` for every action and one ``legal`` for the top frame; the seats
    still ``waiting`` to make a simultaneous secret choice and their ``secret_actions``; the view, an
    event's view, the pending decision (as data and in words), the resampling of hidden information,
    the snapshot of a saved game and the mapping of an old save's keys (``saved_snapshot``).

    ``steps`` are the moves from one rule module to another that would close a loop of imports if
    made directly (Candelabria's year: setup, Kindling, War, then ``"start_year"`` again)."""

    do: Callable[[S, int, str], None]
    legal: Callable[[S, list[int]], list[str]]
    waiting: Callable[[S], tuple[int, ...]]
    secret_actions: Callable[[S, int], list[str]]
    view: Callable[[S, int | None], V]
    event_view: Callable[[tuple, int | None], dict[str, Any] | None]
    pending: Callable[[S, int | None], dict[str, Any] | None]
    describe: Callable[[S], str]
    resample: Callable[[S, int, int], State]
    snapshot: Callable[[S], dict[str, Any]]
    saved_snapshot: Callable[[dict[str, Any]], dict[str, Any]]
    steps: Mapping[str, Callable[[S], None]]


class StackWiring(Generic[R]):
    """Where a state module finds its rules once they are wired: ``rules`` is unset until ``wire`` is
    called (reading it then raises AttributeError)."""

    __slots__ = ("rules",)
    rules: R

    def wire(self, rules: R) -> None:
        """Connect the rule modules (called once, by the game's ``__init__``); again replaces them."""
        self.rules = rules


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
