"""A game's opponent levels as data: each level a name, the bot that plays it and that bot's parameters.

Every game's plug-in declares its ladder (``GameInfo.levels``, weakest first); the server, the lobby
and ``candlebox play --bots LEVEL`` offer the levels by name, and ``bench/levels.py`` measures them.
Budgets are counts of search iterations, never seconds, so a level plays the same on a busy machine
as on an idle one (the server still caps a decision's thinking time: docs/server.md).

Bots are named here as text (the bots' registry is a higher layer than the engine): a level whose
bot does not play the game is simply not offered for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

# The ladder's names, weakest first: what players pick from, whatever bot plays each.
LEVEL_NAMES = ("beginner", "easy", "medium", "hard")


@dataclass(frozen=True)
class Record:
    """A level's measured record against the level below (bench/levels.py): the games it finished
    ahead (a tie: a half) of the games they played together, at tables of ``players``."""

    ahead: float
    games: int
    players: int

    def __post_init__(self) -> None:
        if not 0 <= self.ahead <= self.games or self.games < 1 or self.players < 2:
            raise ValueError(f"not a record of games: {self!r}")


@dataclass(frozen=True)
class Level:
    name: str  # one of LEVEL_NAMES
    bot: str  # a bot's registry name: "random", "heuristic", "ismcts", ...
    params: dict[str, Any] = field(default_factory=dict, hash=False)  # the bot's own parameters
    doc: str = ""  # for players: how this opponent plays, in a few words
    # Measured against the level below, shown to players in the lobby; None: not measured.
    ahead: Record | None = None


def ladder(
    easy_epsilon: float = 0.65,
    hard_iterations: int = 100,
    ahead: dict[str, Record] | None = None,
) -> tuple[Level, ...]:
    """The usual four levels: the random bot; the heuristic making a random move with chance
    ``easy_epsilon``; the heuristic; the ISMCTS search at ``hard_iterations`` per decision.
    ``ahead`` holds each level's measured record against the level below (see :class:`Level`)."""
    if not 0.0 < easy_epsilon < 1.0:
        raise ValueError(f"easy_epsilon is a chance between 0 and 1, got {easy_epsilon!r}")
    if isinstance(hard_iterations, bool) or not isinstance(hard_iterations, int):
        raise ValueError(f"hard_iterations is a whole number, got {hard_iterations!r}")
    if hard_iterations < 1:
        raise ValueError(f"hard_iterations is at least 1, got {hard_iterations}")
    record = ahead or {}
    levels = (
        Level("beginner", "random", {}, "plays any legal move at random"),
        Level(
            "easy",
            "heuristic",
            {"epsilon": easy_epsilon},
            "knows the basics but often plays a move at random",
        ),
        Level("medium", "heuristic", {}, "plays by sound rules of thumb, every move"),
        Level(
            "hard",
            "ismcts",
            {"iterations": hard_iterations},
            "looks ahead: tries its moves out in many imagined games before choosing",
        ),
    )
    return tuple(replace(level, ahead=record.get(level.name)) for level in levels)


def check_ladder(levels: tuple[Level, ...]) -> None:
    """ValueError unless ``levels`` are known names, each once, weakest first, with budgets not
    seconds (a level must play the same whatever the machine's load)."""
    names = [level.name for level in levels]
    unknown = [name for name in names if name not in LEVEL_NAMES]
    if unknown:
        raise ValueError(f"unknown level {unknown[0]!r}; levels: {', '.join(LEVEL_NAMES)}")
    if len(set(names)) != len(names) or names != sorted(names, key=LEVEL_NAMES.index):
        raise ValueError(f"levels are listed once each, weakest first: got {', '.join(names)}")
    for level in levels:
        if "seconds" in level.params:
            raise ValueError(f"level {level.name!r}: give a budget in iterations, not seconds")


def find(levels: tuple[Level, ...], name: str) -> Level:
    """The level called ``name``; ValueError naming the levels otherwise."""
    for level in levels:
        if level.name == name:
            return level
    known = ", ".join(level.name for level in levels) or "none"
    raise ValueError(f"the level is one of {known}, got {name!r}")


DEFAULT_LEVELS = ladder()
