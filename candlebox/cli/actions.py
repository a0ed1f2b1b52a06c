"""Legal actions for a person: a compact numbered list, and reading a choice by number or by text."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Entry:
    """One line of the numbered list: a single action, or a run like ``auction 1–12`` as ``3–14``."""

    first: int  # 1-based number of the first action in the entry
    last: int
    text: str

    @property
    def numbers(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}–{self.last}"


def _verb_number(action: str) -> tuple[str, int] | None:
    verb, _, arg = action.partition(" ")
    return (verb, int(arg)) if arg.isdigit() else None


def numbered(actions: list[str]) -> list[Entry]:
    """Number the actions from 1; runs of three or more ``verb N, verb N+1, ...`` share one entry."""
    entries: list[Entry] = []
    i = 0
    while i < len(actions):
        j = i + 1
        start = _verb_number(actions[i])
        if start is not None:
            while j < len(actions) and _verb_number(actions[j]) == (start[0], start[1] + j - i):
                j += 1
        if j - i >= 3 and start is not None:
            verb, low = start
            entries.append(Entry(i + 1, j, f"{verb} {low}–{low + j - i - 1}"))
        else:
            j = i + 1
            entries.append(Entry(i + 1, i + 1, actions[i]))
        i = j
    return entries


class NotInList(ValueError):
    """A number that is not one of the listed actions."""


def pick(text: str, actions: list[str]) -> str:
    """The action meant by ``text``: its number, its text (any case), or a unique beginning of it.

    Anything else is returned unchanged, so the engine's IllegalAction explains what is wrong.
    """
    typed = " ".join(text.split())
    if typed.isdigit():
        if typed in actions:  # a game whose actions are themselves numbers
            return typed
        number = int(typed)
        if 1 <= number <= len(actions):
            return actions[number - 1]
        raise NotInList(f"{typed} is not a number in the list (1–{len(actions)})")
    lowered = typed.lower()
    for action in actions:
        if action.lower() == lowered:
            return action
    starting = [action for action in actions if action.lower().startswith(lowered)]
    if lowered and len(starting) == 1:
        return starting[0]
    return typed
