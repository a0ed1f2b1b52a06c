"""Words for components: the shared shape of every game's ``content/words.json`` and its checks.

Each game keeps, beside its component data, one entry per code that a player can meet in a view, a log
or an action: a short ``name`` and a ``text`` saying in plain words what it is or does. An entry is
``reconstructed`` when the component data it describes is our reconstruction rather than printed.

A game's ``words`` module says which codes its content has (by kind) and which of them a configuration
can show; :func:`check_words` holds the file to that, so a card without words, or words without a card,
is an error naming the file, the code and the problem. :func:`components` asks the game's declared
``words`` capability (``GameInfo.words()``), so nothing outside a game's package switches on game ids;
a game that declares none has no component words.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import msgspec

from candlebox.engine.options import validate_options
from candlebox.engine.registry import game_info, resolve


class Entry(msgspec.Struct, forbid_unknown_fields=True):
    code: str  # the key: a code as written in views, logs and actions, or ``kind:code`` for a term
    kind: str  # what sort of component it is (candle, tactic, house, ...)
    name: str  # a short player-facing name
    text: str  # its effect or meaning in one or two sentences
    reconstructed: bool = False  # the component data behind it is our reconstruction
    # The text in a variant where the component works differently (variant name -> text).
    variant_text: dict[str, str] = msgspec.field(default_factory=dict)


class WordsFile(msgspec.Struct, forbid_unknown_fields=True):
    """Schema of ``content/words.json`` (also written out as ``content/words.schema.json``)."""

    about: str
    entries: list[Entry]


class WordsError(ValueError):
    """A words file that cannot be read or does not match the components."""


def schema() -> dict[str, Any]:
    return msgspec.json.schema(WordsFile)


def write_schema(folder: Path) -> None:
    (folder / "words.schema.json").write_text(json.dumps(schema(), indent=2) + "\n")


def read_words(path: Path) -> WordsFile:
    """Decode a words file (raises WordsError naming the file and the problem)."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise WordsError(f"{path.name}: cannot be read ({exc.strerror})") from None
    try:
        return msgspec.json.decode(raw, type=WordsFile)
    except msgspec.ValidationError as exc:
        raise WordsError(f"{path.name}: {exc}") from None
    except msgspec.DecodeError as exc:
        raise WordsError(f"{path.name}: not valid JSON ({exc})") from None


def check_words(
    file: str,
    data: WordsFile,
    expected: Mapping[str, Iterable[str]],
    *,
    reconstructed: Iterable[str] = (),
    printed: Iterable[str] = (),
    unique_names: Iterable[str] = (),
    variants: Iterable[str] = (),
) -> dict[str, Entry]:
    """The entries by code, after checking them against the components.

    ``expected``: kind -> every code of that kind the content has. ``reconstructed``: kinds whose whole
    data is reconstructed (each entry must say so); ``printed``: kinds printed as they are (no entry
    may say it is reconstructed). ``unique_names``: kinds whose names must differ from each other.
    ``variants``: the variant names a ``variant_text`` may be given for.
    """
    table: dict[str, Entry] = {}
    problems = _entry_problems(data, set(variants), table)
    problems += _kind_problems(table, {kind: set(codes) for kind, codes in expected.items()})
    problems += _reconstruction_problems(table, set(reconstructed), set(printed))
    for kind in unique_names:
        problems += _same_name_problems(table, kind)
    if problems:
        raise WordsError(f"{file}: " + "; ".join(problems))
    return table


def _entry_problems(data: WordsFile, variants: set[str], table: dict[str, Entry]) -> list[str]:
    """Each entry on its own (filling ``table`` by code): one entry a code, no empty words."""
    problems: list[str] = []
    for entry in data.entries:
        if entry.code in table:
            problems.append(f"code {entry.code!r}: two entries")
        table[entry.code] = entry
        if not entry.name.strip():
            problems.append(f"code {entry.code!r}: empty name")
        if not entry.text.strip():
            problems.append(f"code {entry.code!r}: empty text")
        for variant, text in entry.variant_text.items():
            if variant not in variants:
                problems.append(f"code {entry.code!r}: text for an unknown variant {variant!r}")
            if not text.strip():
                problems.append(f"code {entry.code!r}: empty text for variant {variant!r}")
    return problems


def _kind_problems(table: Mapping[str, Entry], wanted: Mapping[str, set[str]]) -> list[str]:
    """Every component has an entry of its kind, and every entry is a component."""
    problems: list[str] = []
    for kind, codes in wanted.items():
        for code in sorted(codes):
            found = table.get(code)
            if found is None:
                problems.append(f"code {code!r} ({kind}): no entry")
            elif found.kind != kind:
                problems.append(f"code {code!r}: kind {found.kind!r}, expected {kind!r}")
    for code, entry in table.items():
        if entry.code not in wanted.get(entry.kind, ()):
            problems.append(f"code {code!r} ({entry.kind}): no such component")
    return problems


def _reconstruction_problems(
    table: Mapping[str, Entry], must: set[str], never: set[str]
) -> list[str]:
    """Entries of reconstructed kinds say so; entries of printed kinds do not."""
    problems: list[str] = []
    for code, entry in table.items():
        if entry.kind in must and not entry.reconstructed:
            problems.append(f"code {code!r}: its data is reconstructed; mark it so")
        if entry.kind in never and entry.reconstructed:
            problems.append(f"code {code!r}: its data is printed, not reconstructed")
    return problems


def _same_name_problems(table: Mapping[str, Entry], kind: str) -> list[str]:
    """The entries of ``kind`` whose name an earlier entry of that kind already has."""
    problems: list[str] = []
    seen: dict[str, str] = {}
    for code, entry in table.items():
        if entry.kind != kind:
            continue
        if entry.name in seen:
            problems.append(f"code {code!r}: name {entry.name!r} is also {seen[entry.name]!r}'s")
        seen.setdefault(entry.name, code)
    return problems


def pick(
    table: Mapping[str, Entry], codes: Iterable[str], variant: str = ""
) -> dict[str, dict[str, str]]:
    """The name and text of each code in a variant, in the order given (each must have an entry)."""
    result: dict[str, dict[str, str]] = {}
    missing: list[str] = []
    for code in codes:
        entry = table.get(code)
        if entry is None:
            missing.append(code)
        else:
            text = entry.variant_text.get(variant, entry.text)
            result[code] = {"name": entry.name, "text": text}
    if missing:
        raise WordsError(f"no words for {', '.join(map(repr, missing))}")
    return result


def components(
    game_id: str, variant: str | None = None, **options: Any
) -> dict[str, dict[str, str]]:
    """Every code that can appear in a view, log or action of a configuration, with its name and text.

    The configuration is resolved as :func:`candlebox.new_game` does; ``players=`` is optional (without
    it, the codes of every player count of the variant, and the first variant when none is given).
    """
    info = game_info(game_id)
    players = options.pop("players", None)
    if players is not None:
        _, var, opts = resolve(game_id, players, variant, options)
    else:
        var = info.variant(variant if variant is not None else info.variants[0].name)
        opts = validate_options(var.options, options, var.fixed)
    words = info.words()
    return {} if words is None else words(var.name, opts, players)
