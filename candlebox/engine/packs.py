"""Content packs: a game's data as files a designer edits (``candlebox content export``), and the
README that says what each file and field is.

The README's field tables are generated from the files' msgspec types, so they cannot drift from what
the game decodes; the meaning of each field is the game's own text (``PackFile.fields``). A game
package builds its :class:`~candlebox.engine.plugin.ContentPacks` with these helpers.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

import msgspec
import msgspec.inspect as mi

T = TypeVar("T")


@dataclass(frozen=True)
class PackFile:
    """One file of a pack: its name, what it holds, its msgspec type, and each field's meaning by
    its path (``houses[].powers[].amount``; a field without one is listed with its type only)."""

    name: str
    about: str
    kind: type
    fields: Mapping[str, str] = field(default_factory=dict)


def type_text(info: mi.Type) -> str:
    """A decoded type in plain words: ``list of object``, ``one of "low", "expensive"``."""
    if isinstance(info, mi.BoolType):
        return "true or false"
    if isinstance(info, mi.IntType):
        return "whole number"
    if isinstance(info, mi.FloatType):
        return "number"
    if isinstance(info, mi.StrType):
        return "text"
    if isinstance(info, mi.NoneType):
        return "null"
    if isinstance(info, mi.LiteralType):
        return "one of " + ", ".join(json.dumps(value) for value in info.values)
    if isinstance(info, mi.ListType):
        return f"list of {type_text(info.item_type)}"
    if isinstance(info, mi.DictType):
        return f"map of {type_text(info.key_type)} to {type_text(info.value_type)}"
    if isinstance(info, mi.TupleType):
        return "(" + ", ".join(type_text(item) for item in info.item_types) + ")"
    if isinstance(info, mi.UnionType):
        return " or ".join(type_text(item) for item in info.types)
    if isinstance(info, mi.StructType):
        return "object"
    return type(info).__name__


def _inner(info: mi.Type) -> tuple[str, mi.StructType | None]:
    """The struct a field holds (itself, or in a list or an optional), with the path's suffix."""
    if isinstance(info, mi.StructType):
        return "", info
    if isinstance(info, mi.ListType):
        suffix, found = _inner(info.item_type)
        return "[]" + suffix, found
    if isinstance(info, mi.UnionType):
        for item in info.types:
            suffix, found = _inner(item)
            if found is not None:
                return suffix, found
    return "", None


def field_rows(kind: type) -> Iterator[tuple[str, str, bool]]:
    """Every field of a file's type, nested ones by path: (path, type in words, required)."""
    top = mi.type_info(kind)
    assert isinstance(top, mi.StructType)

    def walk(struct: mi.StructType, prefix: str) -> Iterator[tuple[str, str, bool]]:
        for item in struct.fields:
            path = f"{prefix}{item.encode_name}"
            yield path, type_text(item.type), item.required
            suffix, inner = _inner(item.type)
            if inner is not None:
                yield from walk(inner, f"{path}{suffix}.")

    yield from walk(top, "")


def readme(title: str, intro: str, files: Sequence[PackFile]) -> str:
    """The pack's README.md: what each file holds, then each file's fields and what they mean."""
    lines = [
        f"# {title}: content pack",
        "",
        intro.strip(),
        "",
        "| file | what it holds |",
        "|---|---|",
    ]
    lines += [f"| `{f.name}` | {f.about} |" for f in files]
    for f in files:
        lines += [
            "",
            f"## {f.name}",
            "",
            f.about,
            "",
            "| field | type | meaning |",
            "|---|---|---|",
        ]
        for path, text, required in field_rows(f.kind):
            meaning = f.fields.get(path, "")
            optional = "" if required else " (optional)"
            lines.append(f"| `{path}` | {text}{optional} | {meaning} |")
    return "\n".join(lines) + "\n"


def export(
    folder: str | Path, source: Path, files: Sequence[PackFile], extra: Sequence[str], text: str
) -> list[str]:
    """Copy the shipped ``files`` (and ``extra`` files such as words.json) from ``source`` into
    ``folder``, with each file's JSON schema and the README ``text``; the names written, in order.
    An existing pack is never overwritten: a designer's edits are not lost to a second export."""
    target = Path(folder).expanduser()
    names = [f.name for f in files] + list(extra)
    schemas = {f.name.replace(".json", ".schema.json"): f.kind for f in files}
    clash = [n for n in [*names, *schemas, "README.md"] if (target / n).exists()]
    if clash:
        raise ValueError(f"{target}: already holds {', '.join(clash)}; export into a new folder")
    try:
        target.mkdir(parents=True, exist_ok=True)
        for name in names:
            shutil.copyfile(source / name, target / name)
        for name, kind in schemas.items():
            schema: dict[str, Any] = msgspec.json.schema(kind)
            (target / name).write_text(json.dumps(schema, indent=2) + "\n", encoding="utf-8")
        (target / "README.md").write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"{target}: cannot be written ({exc.strerror})") from None
    return [*names, *schemas, "README.md"]


@lru_cache(maxsize=16)
def pack_hash(folder: str) -> str:
    """``sha256:`` and the first 16 hex digits of the hash of a pack's JSON files, names and bytes
    in name order: two packs with the same data have the same hash wherever they lie."""
    digest = hashlib.sha256()
    for path in sorted(Path(folder).glob("*.json")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return "sha256:" + digest.hexdigest()[:16]


def read_pack_file(path: Path, kind: type[T], check: Callable[[T], None]) -> T:
    """Decode one pack file as ``kind`` and ``check`` it; every failure is a ValueError naming the
    file (and, from msgspec or the check, the field)."""
    try:
        data = msgspec.json.decode(path.read_bytes(), type=kind)
    except OSError as exc:
        raise ValueError(f"{path.name}: cannot be read ({exc.strerror})") from None
    except msgspec.ValidationError as exc:
        raise ValueError(f"{path}: {exc}") from None
    except msgspec.DecodeError as exc:
        raise ValueError(f"{path.name}: not valid JSON ({exc})") from None
    try:
        check(data)
    except ValueError as exc:
        raise ValueError(f"{path.name}: {exc}") from None
    return data
