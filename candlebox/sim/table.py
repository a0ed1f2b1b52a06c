"""The results table: one row per game, written as CSV, or Parquet when pyarrow is installed.

Columns (the same for every game):

| column | type | meaning |
| --- | --- | --- |
| seed | int | the game's seed (its bots' seeds follow from it) |
| game, variant | text | the game's id and variant |
| players | int | number of seats |
| options | JSON object | every option of the variant, defaults included |
| bots | JSON list | the bot in each seat, as given to ``--bots`` (``name:key=value``) |
| winners | JSON list | the winning seats (several for a shared win) |
| scores | JSON list | each seat's final score (``state.scores``) |
| steps | int | actions applied |
| turns | int | the game's own turn count (its view's ``turn``), else steps |
| first_player | int | the seat that took the first action |
| end_reason | text | why the game ended (its view's ``end_reason``) |
| truncated | bool | ended by the turn limit |
| actions | JSON list | for each seat, how often it chose each kind of action (``{"flip": 30, ...}``) |
| facts | JSON object | the final spectator view's scalar fields, and ``seats``: each seat's scalar fields |
| uses | JSON list | for each seat, what it did with which components (``{"played": ["S1"], ...}``, the game's ``uses`` hook; ``[]`` without one): the per-card statistics of ``candlebox report`` |
| pack | JSON object | the content pack played: ``{"hash": "sha256:…", "design": true}`` (a design pack's printed values were changed), ``{}`` for the shipped content |

A table written before ``uses`` and ``pack`` existed reads with them empty.

An experiment's table (``candlebox simulate --vary``) has two more kinds of column: ``arm``, the arm's
name (``bots=random · max_turns=60``), and ``vary_KEY`` for each varied key, the arm's value of it as
given on the command line; with ``--until-ci``, ``stopping`` says the stopping rule and when it
stopped (the same text on every row). In memory such a row holds them as ``arm`` (text) and ``vary`` (key → text);
rows of a plain run have neither.

Lists and objects are stored as JSON text in both formats, so a table reads back the same either way.
"""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path
from typing import Any

COLUMNS: tuple[str, ...] = (
    "seed",
    "game",
    "variant",
    "players",
    "options",
    "bots",
    "winners",
    "scores",
    "steps",
    "turns",
    "first_player",
    "end_reason",
    "truncated",
    "actions",
    "facts",
    "uses",
    "pack",
)
# Columns added later: a table without them reads with them empty, as a row without them would be.
LATER = {"uses": "[]", "pack": "{}"}
ARM = "arm"
STOPPING = "stopping"  # an experiment played until its intervals were narrow: the rule and outcome
VARY_PREFIX = "vary_"  # a column per varied key: vary_max_turns, vary_bots, ...
JSON_COLUMNS = frozenset(
    {"options", "bots", "winners", "scores", "actions", "facts", "uses", "pack"}
)
INT_COLUMNS = frozenset({"seed", "players", "steps", "turns", "first_player"})


class TableError(ValueError):
    """A results file that cannot be written or read."""


def is_parquet(path: Path) -> bool:
    return path.suffix.lower() == ".parquet"


def _pyarrow() -> Any:
    try:
        import pyarrow.parquet  # binds pyarrow too, with its parquet module loaded
    except ImportError:
        raise TableError(
            "writing or reading .parquet needs pyarrow: pip install -e '.[sim]' "
            "(or write a .csv file)"
        ) from None
    return pyarrow


def varied_keys(rows: list[dict[str, Any]]) -> list[str]:
    """The keys varied by an experiment's rows, in order of first appearance (none for a plain run)."""
    return list(dict.fromkeys(key for row in rows for key in row.get("vary", {})))


def columns_of(rows: list[dict[str, Any]]) -> tuple[str, ...]:
    """The columns a table of ``rows`` is written with: the arm columns only for an experiment."""
    if not any(row.get(ARM) for row in rows):
        return COLUMNS
    stopping = (STOPPING,) if any(row.get(STOPPING) for row in rows) else ()
    return (*COLUMNS, ARM, *stopping, *(VARY_PREFIX + key for key in varied_keys(rows)))


def encode(row: dict[str, Any], columns: tuple[str, ...] = COLUMNS) -> dict[str, Any]:
    """A row as stored: lists and objects as compact JSON text; an arm's values as text columns."""
    stored = {
        name: json.dumps(row[name], sort_keys=True, separators=(",", ":"))
        if name in JSON_COLUMNS
        else row[name]
        for name in COLUMNS
    }
    for name in columns[len(COLUMNS) :]:
        if name in (ARM, STOPPING):
            stored[name] = row.get(name, "")
        else:
            stored[name] = row.get("vary", {}).get(name.removeprefix(VARY_PREFIX), "")
    return stored


def decode(stored: dict[str, Any]) -> dict[str, Any]:
    later = {name: empty for name, empty in LATER.items() if stored.get(name) in (None, "")}
    stored = {**stored, **later}
    missing = [name for name in COLUMNS if name not in stored]
    if missing:
        raise TableError(f"not a candlebox results table: no column {', '.join(missing)}")
    row: dict[str, Any] = {}
    for name in COLUMNS:
        value = stored[name]
        if name in JSON_COLUMNS:
            row[name] = json.loads(value)
        elif name in INT_COLUMNS:
            row[name] = int(value)
        elif name == "truncated":
            row[name] = value if isinstance(value, bool) else str(value).lower() == "true"
        else:
            row[name] = "" if value is None else str(value)
    arm = stored.get(ARM)
    if arm is not None:
        row[ARM] = str(arm)
        if stored.get(STOPPING) is not None:
            row[STOPPING] = str(stored[STOPPING])
        row["vary"] = {
            name.removeprefix(VARY_PREFIX): "" if value is None else str(value)
            for name, value in stored.items()
            if name.startswith(VARY_PREFIX)
        }
    return row


def write(rows: list[dict[str, Any]], path: str | os.PathLike[str]) -> None:
    """CSV, or Parquet for a name ending in .parquet (``path``: a str or a path object)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    columns = columns_of(rows)
    stored = [encode(row, columns) for row in rows]
    if is_parquet(path):
        pa = _pyarrow()
        schema = pa.schema(
            [
                (
                    name,
                    pa.int64()
                    if name in INT_COLUMNS
                    else pa.bool_()
                    if name == "truncated"
                    else pa.string(),
                )
                for name in columns
            ]
        )
        table = pa.Table.from_pylist(stored, schema=schema)
        pa.parquet.write_table(table, path)
        return
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        writer.writerows(stored)


def read(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The rows of a table written by :func:`write` (CSV or Parquet; a str or a path object)."""
    path = Path(path)
    if not path.is_file():
        raise TableError(f"{path}: no such file")
    try:
        if is_parquet(path):
            pa = _pyarrow()
            stored = pa.parquet.read_table(path).to_pylist()
        else:
            with path.open(newline="", encoding="utf-8") as handle:
                stored = list(csv.DictReader(handle))
        return [decode(entry) for entry in stored]
    except TableError as exc:
        raise TableError(f"{path}: {exc}") from None
    except (OSError, ValueError, KeyError) as exc:
        raise TableError(f"{path}: not a readable results table ({exc})") from None
