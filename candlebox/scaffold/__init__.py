"""``candlebox new-game NAME --dir DIR``: a new game as an installable package, ready to play.

The package written is a copy of the small working game in ``candlebox/scaffold/game/`` (Blind Bids:
hidden hands and a simultaneous secret bid each round) with its names changed: the rules, typed view,
words, how-to page, heuristic, terminal renderer, RL encoder, its tests and a ``pyproject.toml`` that
declares it in the ``candlebox.games`` entry points. The template is real code inside candlebox, so
the repository's lint, types and tests keep it working (tests/engine/test_scaffold.py).
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from candlebox.engine import game_ids

# The template's own names, replaced in every file written.
TEMPLATE_ID = "blind-bids"
TEMPLATE_PACKAGE = "blind_bids"
TEMPLATE_TITLE = "Blind Bids"
# A game id: lower-case words of letters and digits joined by hyphens, starting with a letter.
GAME_ID = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
MAX_ID = 40
# The project's files beside the package: template file -> where it is written.
PROJECT_FILES = {
    "pyproject.toml.tmpl": "pyproject.toml",
    "README.md.tmpl": "README.md",
    "test_game.py.tmpl": "tests/test_game.py",
}
SKIPPED = ("__pycache__", ".pyc")


@dataclass(frozen=True)
class Names:
    """A new game's names: its id (the entry point's name), its Python package and its title."""

    id: str
    package: str
    title: str

    def apply(self, text: str) -> str:
        """The template's text with its names changed to these."""
        for old, new in (
            (TEMPLATE_ID, self.id),
            (TEMPLATE_PACKAGE, self.package),
            (TEMPLATE_TITLE, self.title),
        ):
            text = text.replace(old, new)
        return text


def names(game_id: str, title: str | None = None) -> Names:
    """The names of a new game with this id (ValueError saying what is wrong with it)."""
    if not GAME_ID.fullmatch(game_id) or len(game_id) > MAX_ID:
        raise ValueError(
            f"NAME {game_id!r} is not a game id: lower-case letters and digits, words joined by "
            f"hyphens, starting with a letter, at most {MAX_ID} characters (e.g. lantern-duel)"
        )
    package = game_id.replace("-", "_")
    if keyword.iskeyword(package):
        raise ValueError(f"NAME {game_id!r} would make a package named after a Python keyword")
    if game_id in game_ids():
        raise ValueError(f"NAME {game_id!r} is already a game's id (see: candlebox games)")
    if title is not None and not title.strip():
        raise ValueError("the title is empty")
    made = title.strip() if title else " ".join(w.capitalize() for w in game_id.split("-"))
    return Names(game_id, package, made)


def _files(folder: Traversable, prefix: str = "") -> list[tuple[str, Traversable]]:
    """Every file under ``folder`` as (relative path, file), caches skipped."""
    found: list[tuple[str, Traversable]] = []
    for item in sorted(folder.iterdir(), key=lambda i: i.name):
        if item.name.endswith(SKIPPED):
            continue
        path = f"{prefix}{item.name}"
        if item.is_dir():
            found += _files(item, f"{path}/")
        else:
            found.append((path, item))
    return found


def write_game(game_id: str, folder: Path, title: str | None = None) -> list[Path]:
    """Write the new game's project into ``folder`` (absent or empty); the files written, in order.
    ValueError, before anything is written, for a bad name or a folder that is not empty."""
    new = names(game_id, title)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise ValueError(f"--dir {folder} is not an empty folder: choose a new one")
    here = resources.files(__name__)
    plan: list[tuple[Path, str]] = [
        (folder / new.package / path, new.apply(item.read_text(encoding="utf-8")))
        for path, item in _files(here / "game")
    ]
    plan.append((folder / new.package / "py.typed", ""))  # its types are part of what it offers
    for template, target in PROJECT_FILES.items():
        text = (here / "project" / template).read_text(encoding="utf-8")
        plan.append((folder / target, new.apply(text)))
    for path, text in plan:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return [path for path, _ in plan]
