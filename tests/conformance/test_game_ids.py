"""Nothing outside a game's own package names a game (docs/architecture.md, "How a caller reaches a
game"): callers go through ``candlebox.game_info(id)`` and its capabilities, so adding a game is adding
one package and its page module.

- In ``candlebox/`` outside ``candlebox/games/`` (and the page modules in
  ``server/static/js/games/``), no game id appears as a string: not in Python code (docstrings, whose
  examples are documentation, excepted) nor in the pages' scripts, markup and styles.
- In ``bench/``, no registry: no game id compared with, used as a dict key, or listed among others.
  A script may still pick one game as its default or as a probe's request (test data).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import candlebox
from tests.conformance.test_imports import game_switches

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "candlebox"
GAMES = PACKAGE / "games"
PAGES = PACKAGE / "server" / "static" / "js" / "games"
WEB = (".js", ".html", ".css")


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are docstrings (of a module, class or function)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def named_games(path: Path, game_ids: set[str]) -> Iterator[str]:
    """Every place in ``path`` that names a game by its id (Python: a string constant that is a game
    id, docstrings excepted; a page's file: the id in quotes). Prose that mentions an id in passing
    (a help text's example) is documentation, not a switch."""
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        tree = ast.parse(text, filename=str(path))
        skip = _docstrings(tree)
        named = [
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and node.value in game_ids and id(node) not in skip
        ]
        for node in sorted(named, key=lambda n: (n.lineno, n.col_offset)):
            yield f"{where}:{node.lineno}: {node.value!r}"
        return
    for game in game_ids:
        for match in re.finditer(rf"[\"'`]{re.escape(game)}[\"'`]", text):
            yield f"{where}:{text.count(chr(10), 0, match.start()) + 1}: {match.group()}"


def registries(path: Path, game_ids: set[str]) -> Iterator[str]:
    """Switches on a game (see test_imports.game_switches) and lists, tuples or sets of game ids."""
    yield from game_switches(path, game_ids)
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
    for node in ast.walk(tree):
        if isinstance(node, ast.List | ast.Tuple | ast.Set):
            named = [e for e in node.elts if isinstance(e, ast.Constant) and e.value in game_ids]
            if len(named) > 1:
                yield f"{where}:{node.lineno}: a list of game ids"


def _outside_the_games() -> list[Path]:
    paths = [p for p in PACKAGE.rglob("*.py") if not p.is_relative_to(GAMES)]
    paths += [p for p in PACKAGE.rglob("*") if p.suffix in WEB and not p.is_relative_to(PAGES)]
    return sorted(paths)


def test_no_game_is_named_outside_its_package() -> None:
    game_ids = set(candlebox.GAMES)
    bad = [line for path in _outside_the_games() for line in named_games(path, game_ids)]
    assert not bad, "\n".join(bad)


def test_the_benchmarks_keep_no_table_of_games() -> None:
    game_ids = set(candlebox.GAMES)
    bad = [
        line
        for path in sorted((ROOT / "bench").glob("*.py"))
        for line in registries(path, game_ids)
    ]
    assert not bad, "\n".join(bad)


def test_the_checks_see_a_named_game(tmp_path: Path) -> None:
    """The checks themselves: a game named in code, a page, or a bench table is found; a docstring's
    example is not."""
    source = tmp_path / "mod.py"
    source.write_text(
        '"""Say candlebox.new_game("candle-quest")."""\n'
        "def f(state):\n"
        '    """As in "candle-quest"."""\n'
        "    return state.game_id, 'candle-quest', f'{state} in candle-quest'\n"
        "GAMES = ['candle-quest', 'candelabria']\n"
        "TARGETS = {'candle-quest': 1}\n",
        encoding="utf-8",
    )
    ids = {"candle-quest", "candelabria"}
    assert [line.split(": ", 1)[0] for line in named_games(source, ids)] == [
        "mod.py:4",
        "mod.py:5",
        "mod.py:5",
        "mod.py:6",
    ]
    assert [line.split(": ", 1)[1] for line in registries(source, ids)] == [
        "a dict keyed by game ids",
        "a list of game ids",
    ]
    page = tmp_path / "page.js"
    page.write_text("const board = {};\nif (game === 'candelabria') board.big = true;\n")
    assert list(named_games(page, ids)) == ["page.js:2: 'candelabria'"]
