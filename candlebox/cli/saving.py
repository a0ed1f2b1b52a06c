"""Save files: the state's own ``to_json()`` written as JSON, and read back with clear errors."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from candlebox.cli.errors import CliError
from candlebox.engine import State

# What replay needs from a file, with the type each field must have.
REQUIRED: dict[str, type | tuple[type, ...]] = {
    "game": str,
    "players": int,
    "variant": str,
    "seed": int,
    "options": dict,
    "history": list,
}

# A saved game nests 4 levels (a history step inside the history inside the file). Deeper input is
# refused before anything walks it: Python's parser, comparisons and printing all recurse, and a
# hostile file must not reach a RecursionError in any of them, however deep the caller's stack.
DEEPEST = 32


def default_path(game_id: str, seed: int) -> Path:
    return Path(f"candlebox-{game_id}-{seed}.json")


def save(state: State, path: Path) -> None:
    """Write atomically (a temporary file, then rename), so an interrupted save leaves the old one."""
    temporary = path.with_name(path.name + ".tmp")
    try:
        temporary.write_text(json.dumps(state.to_json(), indent=1) + "\n", encoding="utf-8")
        os.replace(temporary, path)
    except OSError as exc:
        raise CliError(f"cannot save the game to {path}: {exc.strerror or exc}") from None


def read(path: Path) -> dict[str, Any]:
    """The saved game in ``path``, checked enough that replaying it cannot crash on its shape."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise CliError(f"{path} is not a text file, so not a saved game") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CliError(
            f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    except RecursionError:
        raise CliError(_too_deep(path)) from None
    if nesting(data) > DEEPEST:
        raise CliError(_too_deep(path))
    check_shape(data, path)
    return data


def nesting(data: Any) -> int:
    """How many lists and objects deep ``data`` goes, counted without recursion."""
    deepest, pending = 0, [(data, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, dict | list):
            deepest = max(deepest, depth)
            if depth > DEEPEST:
                break  # deep enough to refuse: no need to walk the rest
            children = value.values() if isinstance(value, dict) else value
            pending.extend((child, depth + 1) for child in children)
    return deepest


def _too_deep(path: Path) -> str:
    return (
        f"{path} is nested too deeply to be a saved game (over {DEEPEST} levels of lists and "
        "objects; a saved game has 4)"
    )


def check_shape(data: Any, path: Path) -> None:
    if not isinstance(data, dict):
        raise CliError(f"{path}: a saved game is a JSON object, not a {type(data).__name__}")
    for key, kind in REQUIRED.items():
        if key not in data:
            raise CliError(f"{path}: the saved game has no {key!r} field")
        value = data[key]
        if not isinstance(value, kind) or isinstance(value, bool):
            raise CliError(f"{path}: {key!r} should be {_kind_name(kind)}, got {value!r:.60}")
    for step, item in enumerate(data["history"], start=1):
        if not (
            isinstance(item, list)
            and len(item) == 2
            and isinstance(item[0], int)
            and not isinstance(item[0], bool)
            and isinstance(item[1], str)
        ):
            raise CliError(
                f"{path}: history step {step} should be [seat, action], got {item!r:.60}"
            )


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names = {str: "text", int: "a whole number", dict: "an object", list: "a list"}
    return names.get(kind, str(kind)) if isinstance(kind, type) else str(kind)
