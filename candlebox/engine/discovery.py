"""Where games come from: the ``candlebox.games`` entry-point group.

A game is a package anyone can install: its distribution declares, in its ``pyproject.toml``,

    [project.entry-points."candlebox.games"]
    my-game = "my_game:INFO"

the game's id and the :class:`~candlebox.engine.GameInfo` that is its plug-in object. The three
built-in games are declared the same way in candlebox's own ``pyproject.toml``. The registry loads
every declared game the first time it is asked about games (not at ``import candlebox``, so that a
plug-in's package may import candlebox while it is itself being imported).

A source checkout run without installing (``PYTHONPATH=/path/to/checkout``) has no installed metadata
for its own games, or stale metadata from another checkout: when the ``candlebox`` package being run
sits beside its ``pyproject.toml``, candlebox's own games are read from that file instead, so the
declaration stays in one place. Other distributions' games always come from their installed metadata.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from candlebox.engine.lazy import Lazy

GROUP = "candlebox.games"
DISTRIBUTION = "candlebox"  # candlebox's own distribution: the built-in games, listed first
# The checkout's pyproject.toml, beside the candlebox package (absent in an installed wheel).
PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


@dataclass(frozen=True)
class Declared:
    """One declared game: the distribution declaring it, the entry point's name (the game's id) and
    its value, ``"module:attribute"``."""

    distribution: str
    name: str
    value: str

    def load(self) -> Any:
        """The object the value names, imported as a lazy reference is (a ValueError for a value
        that is not ``"module:attribute"``, a LazyError naming what was not found)."""
        return Lazy.path(self.value).load()


@dataclass(frozen=True)
class PluginProblem:
    """A declared game that could not be loaded: which distribution, which entry point, what failed."""

    distribution: str
    name: str
    value: str
    error: str

    def __str__(self) -> str:
        return (
            f"the game plug-in {self.name!r} = {self.value!r} of the distribution "
            f"{self.distribution!r} was not loaded: {self.error}"
        )


class PluginWarning(UserWarning):
    """A game plug-in could not be loaded (the other games are loaded all the same)."""


def canonical(name: str) -> str:
    """A distribution's name as packaging compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def source_tree_games(pyproject: Path = PYPROJECT) -> list[Declared] | None:
    """candlebox's own games from the checkout's ``pyproject.toml``, in their declared order; None
    when candlebox is not run from a checkout (no such file, or another project's)."""
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return None
    project = data.get("project", {})
    if canonical(str(project.get("name", ""))) != DISTRIBUTION:
        return None
    table = project.get("entry-points", {}).get(GROUP, {})
    return [Declared(DISTRIBUTION, name, str(value)) for name, value in table.items()]


def declared() -> list[Declared]:
    """Every declared game: candlebox's own first (in their declared order), then the other
    distributions' by distribution and name."""
    own = source_tree_games()
    installed: list[Declared] = []
    for point in metadata.entry_points(group=GROUP):
        distribution = point.dist.name if point.dist is not None else "(unknown distribution)"
        installed.append(Declared(distribution, point.name, point.value))
    mine = [d for d in installed if canonical(d.distribution) == DISTRIBUTION]
    others = sorted(
        (d for d in installed if canonical(d.distribution) != DISTRIBUTION),
        key=lambda d: (canonical(d.distribution), d.name),
    )
    return [*(mine if own is None else own), *others]
