"""The layers hold: every module's imports (at module level and inside functions alike), read with
``ast`` without importing anything, make a graph with

(a) no cycle, but for the game-internal ones listed in ``KNOWN_GAME_CYCLES`` (the remaining debt: the
    list may only shrink, and the test says when an entry has been paid off);
(b) no arrow from ``candlebox.server`` or ``candlebox.rl`` into ``candlebox.cli``;
(c) no arrow from the engine or a game into a higher layer (bots, cli, server, sim, rl): a game's
    capability modules build on the interfaces in candlebox/engine/ only;
(d) outside candlebox/games/, no switch on a game: no comparison of a ``game_id`` with a string, and
    no game id as a string constant compared with or used as a dict key (callers reach a game
    through ``candlebox.game_info(id)`` and its capabilities; docs/architecture.md);
(e) no more imports inside functions (of any module, candlebox's or not) than ``MAX_NESTED_IMPORTS``:
    one may defer an optional or heavy dependency (say so beside it), never hide a cycle.

Run as a script (``python -m tests.conformance.test_imports``) it prints every cycle it finds.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import candlebox

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "candlebox"
HIGHER = ("bots", "cli", "server", "sim", "rl", "testing")
LOWER = ("engine", "games")


# Cycles inside one game's package that predate this check (debt: a strongly connected set of
# modules; a cycle found that is not inside one of these fails the test, and an entry no cycle needs
# any more must be deleted). None is left: in every game state.py is a leaf the rule modules import,
# and the game's __init__ wires the rules into it (issue 13).
KNOWN_GAME_CYCLES: tuple[frozenset[str], ...] = ()


# Imports inside functions across candlebox/ (any module): the rest defer an optional or heavy
# dependency (FastAPI, uvicorn, rich, matplotlib, Ray, ...). The count may only go down: lower it
# when you remove one (it was 73 before issue 13).
# 22: the moderation CLI (issue 35) defers the optional server extra, as the accounts CLI does
# 21: the Gymnasium and PettingZoo envs defer rich in one shared render (candlebox/rl/game_env.py)
MAX_NESTED_IMPORTS = 21


@dataclass(frozen=True)
class Import:
    source: str  # the importing module
    target: str  # the imported candlebox module
    line: int
    nested: bool  # inside a function (or method)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _resolve(source: str, is_package: bool, level: int, name: str | None) -> str:
    """The absolute name of a (possibly relative) ``from`` import's module."""
    if level == 0:
        return name or ""
    base = source.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (level - 1)] if level > 1 else base
    return ".".join([*base, name] if name else base)


def imports_of(name: str, path: Path, known: set[str]) -> Iterator[Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"

    def visit(node: ast.AST, nested: bool) -> Iterator[Import]:
        for child in ast.iter_child_nodes(node):
            inner = nested or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            targets: list[str] = []
            if isinstance(child, ast.Import):
                targets = [alias.name for alias in child.names]
            elif isinstance(child, ast.ImportFrom):
                base = _resolve(name, is_package, child.level, child.module)
                # ``from package import module`` imports that module; any other name is read from
                # the package's own __init__ (a parent package is not an edge by itself, as with
                # ``import package.module``: Python has it half-imported already).
                subs = [f"{base}.{a.name}" for a in child.names if f"{base}.{a.name}" in known]
                targets = subs if len(subs) == len(child.names) else [base, *subs]
            for target in targets:
                if target in known and target != name:
                    yield Import(name, target, getattr(child, "lineno", 0), nested)
            yield from visit(child, inner)

    yield from visit(tree, False)


def graph() -> tuple[dict[str, set[str]], list[Import]]:
    found = modules()
    known = set(found)
    edges: dict[str, set[str]] = {name: set() for name in found}
    every: list[Import] = []
    for name, path in found.items():
        for imp in imports_of(name, path, known):
            edges[name].add(imp.target)
            every.append(imp)
    return edges, every


def cycles(edges: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected sets of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    counter = 0
    for root in sorted(edges):
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                members = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    members.add(member)
                    if member == node:
                        break
                if len(members) > 1:
                    found.append(frozenset(members))
    return found


def layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def _describe(group: frozenset[str]) -> str:
    return " ↔ ".join(sorted(group))


# ----------------------------------------------------------------------------- the tests
def test_no_import_cycles_but_the_known_game_internal_ones() -> None:
    edges, _ = graph()
    found = cycles(edges)
    new = [c for c in found if not any(c <= known for known in KNOWN_GAME_CYCLES)]
    assert not new, "import cycles:\n" + "\n".join(_describe(c) for c in new)
    paid = [known for known in KNOWN_GAME_CYCLES if not any(c <= known for c in found)]
    assert not paid, "no longer cycles, delete from KNOWN_GAME_CYCLES:\n" + "\n".join(
        _describe(c) for c in paid
    )


def nested_imports(path: Path) -> list[int]:
    """The lines of every import statement inside a function (or method) in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    functions = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
    return sorted(
        node.lineno
        for function in ast.walk(tree)
        if isinstance(function, functions)
        for node in ast.walk(function)
        if isinstance(node, ast.Import | ast.ImportFrom)
    )


def test_imports_inside_functions_do_not_grow() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in modules().values()
        for line in nested_imports(path)
    ]
    assert len(found) <= MAX_NESTED_IMPORTS, (
        f"{len(found)} imports inside functions (at most {MAX_NESTED_IMPORTS}); import at module "
        "level unless deferring an optional or heavy dependency:\n" + "\n".join(found)
    )
    assert len(found) == MAX_NESTED_IMPORTS, (
        f"only {len(found)} imports inside functions now: lower MAX_NESTED_IMPORTS to match"
    )


def test_the_server_and_rl_never_import_the_terminal() -> None:
    _, every = graph()
    bad = [
        f"{i.source}:{i.line} imports {i.target}"
        for i in every
        if layer(i.source) in ("server", "rl") and layer(i.target) == "cli"
    ]
    assert not bad, "\n".join(bad)


def test_the_engine_and_games_never_import_a_higher_layer() -> None:
    _, every = graph()
    bad = [
        f"{i.source}:{i.line} imports {i.target}"
        for i in every
        if layer(i.source) in LOWER and layer(i.target) in HIGHER
    ]
    assert not bad, "\n".join(bad)


def test_the_shared_jax_helpers_import_nothing_of_candlebox() -> None:
    """The games' JAX rules share a leaf (candlebox/games/jax_common.py): it imports JAX and
    numpy only, so importing it never reaches a game or a higher layer."""
    edges, _ = graph()
    assert edges["candlebox.games.jax_common"] == set(), edges["candlebox.games.jax_common"]


def game_switches(path: Path, game_ids: set[str]) -> Iterator[str]:
    """Comparisons of a game id with a string, and game ids compared or used as dict keys."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name

    def names_game(node: ast.AST) -> bool:
        if isinstance(node, ast.Name):
            return node.id == "game_id"
        if isinstance(node, ast.Attribute):
            return node.attr in ("game_id", "game")
        return False

    def is_id(node: ast.AST | None) -> bool:
        return isinstance(node, ast.Constant) and node.value in game_ids

    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            strings = [s for s in sides if isinstance(s, ast.Constant) and isinstance(s.value, str)]
            if (any(names_game(s) for s in sides) and strings) or any(is_id(s) for s in sides):
                yield f"{where}:{node.lineno}: {ast.unparse(node)}"
        elif isinstance(node, ast.Dict) and any(is_id(key) for key in node.keys):
            yield f"{where}:{node.lineno}: a dict keyed by game ids"


def test_no_switch_on_a_game_outside_the_games() -> None:
    game_ids = set(candlebox.GAMES)
    bad = [
        line
        for name, path in modules().items()
        if layer(name) != "games"
        for line in game_switches(path, game_ids)
    ]
    assert not bad, "\n".join(bad)


def test_capabilities_load_only_when_used() -> None:
    """Playing with the bots imports neither rich nor numpy (a game's renderer and encoder are loaded
    by their accessors only); asking for the renderer brings rich in."""
    script = (
        "import sys, candlebox\n"
        "from candlebox import bots\n"
        "for game in candlebox.game_ids():\n"
        "    v = candlebox.game_info(game).variants[0]\n"  # any game's table, however many seats
        "    s = candlebox.new_game(game, players=v.min_players, variant=v.name, seed=1)\n"
        "    for name in ('heuristic', 'ismcts'):\n"
        "        bots.make(name, seed=1, **({'iterations': 2} if name == 'ismcts' else {}))"
        ".choose(s, s.to_act[0])\n"
        "print(sorted(m for m in ('numpy', 'rich') if m in sys.modules))\n"
        "candlebox.game_info('candle-quest').renderer()\n"
        "print('rich' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert done.stdout.split("\n")[:2] == ["[]", "True"], done.stdout + done.stderr


def test_the_engine_never_imports_jax() -> None:
    """JAX is the optional extra of candlebox.rl.jax only: importing candlebox and its engine, and
    playing a move of every game, imports none of it."""
    script = (
        "import sys, candlebox, candlebox.engine\n"
        "for game in candlebox.GAMES:\n"
        "    s = candlebox.new_game(game, players=3, seed=1)\n"
        "    seat = s.to_act[0]\n"
        "    s.apply(seat, s.legal_actions(seat)[0])\n"
        "print(sorted(m for m in sys.modules if m == 'jax' or m.startswith('jax.')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


def test_the_checker_sees_cycles_nested_imports_and_switches(tmp_path: Path) -> None:
    """The checker itself: a cycle through an import inside a function is found, and so is a switch."""
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(edges) == [frozenset({"a", "b", "c"})]
    assert cycles({"a": {"b"}, "b": set()}) == []
    source = tmp_path / "mod.py"
    source.write_text(
        "def f(game_id):\n"
        "    from candlebox.cli import render\n"
        "    if game_id == 'x':\n"
        "        return {'candle-quest': 1}\n",
        encoding="utf-8",
    )
    found = list(
        imports_of("candlebox.server.mod", source, {"candlebox.cli", "candlebox.cli.render"})
    )
    assert [(i.target, i.nested) for i in found] == [("candlebox.cli.render", True)]
    assert [line.split(": ", 1)[1] for line in game_switches(source, {"candle-quest"})] == [
        "game_id == 'x'",
        "a dict keyed by game ids",
    ]


if __name__ == "__main__":  # pragma: no cover - a report for the engineer
    all_edges, _ = graph()
    for group in cycles(all_edges):
        print(_describe(group))
