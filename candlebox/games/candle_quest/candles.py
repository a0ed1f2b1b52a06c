"""The 60 candles: the data file, its schema, the rulebook's numbers it must meet, and lookup tables.

Identical candles (same colour and face value) share one *type*; piles and stacks hold type numbers, and
a candle's text code is its colour letter and face value (``R7``), ``D9``/``D10`` for Dancing candles and
``U4``/``U6`` for Unlit ones.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache
from pathlib import Path
from typing import Any

import msgspec

from candlebox.engine.packs import pack_hash, read_pack_file

CONTENT = Path(__file__).parent / "content"
CANDLE_FILE = CONTENT / "candles.json"
DESIGN_FACE = 20  # the highest face value a design file may give a candle


class LitCard(msgspec.Struct, forbid_unknown_fields=True):
    face: int
    sell: int


class UnlitCard(msgspec.Struct, forbid_unknown_fields=True):
    face: int


class Colour(msgspec.Struct, forbid_unknown_fields=True):
    code: str
    name: str
    cost: str  # "low" or "expensive"
    candles: list[LitCard]


class CandleFile(msgspec.Struct, forbid_unknown_fields=True):
    """Schema of ``content/candles.json`` (also written out as ``candles.schema.json``)."""

    reconstructed: bool
    about: str
    colours: list[Colour]
    dancing: list[LitCard]
    unlit: list[UnlitCard]


class Kind(IntEnum):
    LIT = 0
    DANCING = 1
    UNLIT = 2


@dataclass(frozen=True)
class CandleType:
    code: str
    kind: Kind
    colour: int  # index into the colours, -1 for Dancing and Unlit
    face: int
    sell: int  # 0 for Unlit, which cannot be sold


def _require(condition: bool, field: str, problem: str) -> None:
    if not condition:
        raise ValueError(f"candle data does not match the rulebook: {field}: {problem}")


def check_rulebook_numbers(data: CandleFile, design: bool = False) -> None:
    """Every number the rulebook gives about the candles (see docs/rulings.md, 'Candle list').

    ``design``: a designer's file, whose face and sell values and counts of Dancing and Unlit candles
    may differ from the rulebook's; the structure stays (eight colours of six candles, four of each
    cost, distinct codes, a sell value below the face)."""
    _require(len(data.colours) == 8, "colours", f"8 colours, found {len(data.colours)}")
    codes = [c.code for c in data.colours]
    _require(len(set(codes)) == 8, "colours", f"colour codes must differ: {codes}")
    for i, colour in enumerate(data.colours):
        at = f"colours[{i}]"
        _require(
            len(colour.code) == 1
            and colour.code.isalpha()
            and colour.code.isupper()
            and colour.code not in "DU",
            f"{at}.code",
            f"colour code {colour.code!r} must be one capital letter other than D and U",
        )
        _require(len(colour.candles) == 6, f"{at}.candles", f"six candles of colour {colour.name}")
        _require(
            colour.cost in ("low", "expensive"),
            f"{at}.cost",
            f"cost of {colour.name}: low or expensive",
        )
        low, high = (1, DESIGN_FACE) if design else (2, 6) if colour.cost == "low" else (5, 8)
        for j, card in enumerate(colour.candles):
            where = f"{at}.candles[{j}]"
            _require(
                low <= card.face <= high,
                f"{where}.face",
                f"{colour.name} face {card.face} outside {low}–{high}",
            )
            _require(
                0 <= card.sell < card.face,
                f"{where}.sell",
                f"{colour.name} {card.face}: sell value below face",
            )
    costs = Counter(c.cost for c in data.colours)
    _require(
        costs == Counter(low=4, expensive=4),
        "colours",
        f"4 low-cost and 4 expensive colours: {costs}",
    )
    for j, card in enumerate(data.dancing):
        _require(0 <= card.sell < card.face, f"dancing[{j}].sell", "Dancing sell values below face")
    for j, unlit in enumerate(data.unlit):
        _require(1 <= unlit.face <= DESIGN_FACE, f"unlit[{j}].face", f"a face of 1–{DESIGN_FACE}")
    if design:
        return
    dancing = Counter(card.face for card in data.dancing)
    _require(
        dancing == Counter({9: 3, 10: 3}),
        "dancing",
        f"Dancing candles 3×9 and 3×10, found {dancing}",
    )
    unlit_faces = Counter(card.face for card in data.unlit)
    _require(
        unlit_faces == Counter({4: 3, 6: 3}),
        "unlit",
        f"Unlit candles 3×4 and 3×6, found {unlit_faces}",
    )


def read_candle_file(path: Path = CANDLE_FILE, design: bool = False) -> CandleFile:
    return read_pack_file(path, CandleFile, lambda data: check_rulebook_numbers(data, design))


def schema() -> dict:
    return msgspec.json.schema(CandleFile)


@dataclass(frozen=True)
class CandleSet:
    """Lookup tables built from the candle file; a type number indexes every tuple."""

    types: tuple[CandleType, ...]
    colour_names: tuple[str, ...]
    full_set: tuple[int, ...]  # all 60 candles, as type numbers, in file order

    @property
    def code(self) -> tuple[str, ...]:
        return tuple(t.code for t in self.types)


def build_candle_set(data: CandleFile) -> CandleSet:
    types: list[CandleType] = []
    index: dict[str, int] = {}
    full: list[int] = []

    def add(code: str, kind: Kind, colour: int, face: int, sell: int) -> None:
        if code not in index:
            index[code] = len(types)
            types.append(CandleType(code, kind, colour, face, sell))
        elif types[index[code]].sell != sell:
            raise ValueError(f"candle data: two {code} candles with different sell values")
        full.append(index[code])

    for number, colour in enumerate(data.colours):
        for card in colour.candles:
            add(f"{colour.code}{card.face}", Kind.LIT, number, card.face, card.sell)
    for card in data.dancing:
        add(f"D{card.face}", Kind.DANCING, -1, card.face, card.sell)
    for unlit in data.unlit:
        add(f"U{unlit.face}", Kind.UNLIT, -1, unlit.face, 0)
    return CandleSet(tuple(types), tuple(c.name for c in data.colours), tuple(full))


def write_schema(path: Path = CONTENT / "candles.schema.json") -> None:
    path.write_text(json.dumps(schema(), indent=2) + "\n")


@dataclass(frozen=True, eq=False, slots=True)
class Candles:
    """The candle tables one game plays, flat and indexed by type number (the hot paths read these
    rather than CandleType attributes): the printed ones (``PRINTED``) or a content pack's. A state
    holds one in its ``content`` slot, shared by its clones and never copied; ``pack`` is the hash of
    the pack's files (None: the printed candles), which saved games record."""

    candles: CandleSet
    face: tuple[int, ...]
    sell: tuple[int, ...]
    kind: tuple[Kind, ...]
    colour: tuple[int, ...]
    code: tuple[str, ...]
    type_of: dict[str, int]
    loot_cost: tuple[int, ...]
    # The actions naming a candle, built once per content so that listing them allocates nothing.
    discard: tuple[str, ...]
    give: tuple[str, ...]
    pack: str | None = None


def candles_from(candles: CandleSet, pack: str | None = None) -> Candles:
    types = candles.types
    code = candles.code
    return Candles(
        candles=candles,
        face=tuple(t.face for t in types),
        sell=tuple(t.sell for t in types),
        kind=tuple(t.kind for t in types),
        colour=tuple(t.colour for t in types),
        code=code,
        type_of={c: number for number, c in enumerate(code)},
        loot_cost=tuple(t.face + t.sell for t in types),
        discard=tuple(f"discard {c}" for c in code),
        give=tuple(f"give {c}" for c in code),
        pack=pack,
    )


CANDLES = build_candle_set(read_candle_file())
PRINTED = candles_from(CANDLES)

# The printed candles' tables, for what is about the printed game (its facts, words and tests).
FACE: tuple[int, ...] = PRINTED.face
SELL: tuple[int, ...] = PRINTED.sell
KIND: tuple[Kind, ...] = PRINTED.kind
COLOUR: tuple[int, ...] = PRINTED.colour
CODE: tuple[str, ...] = PRINTED.code
TYPE_OF: dict[str, int] = PRINTED.type_of
LOOT_COST: tuple[int, ...] = PRINTED.loot_cost
# Eight colours in every pack, design packs too (check_rulebook_numbers): a constant of the rules.
N_COLOURS = len(CANDLES.colour_names)


def load_candles(folder: str, design: bool = False) -> Candles:
    """A content pack's candles (``candles.json`` in ``folder``), read once and shared by every
    game that plays them; a ValueError names the file and the field."""
    return _cached(str(Path(folder).expanduser().resolve()), design)


@lru_cache(maxsize=8)
def _cached(folder: str, design: bool) -> Candles:
    path = Path(folder)
    if not path.is_dir():
        raise ValueError(f"option 'content': the content pack folder {folder} does not exist")
    data = read_candle_file(path / "candles.json", design)
    try:
        candles = build_candle_set(data)
    except ValueError as exc:
        raise ValueError(f"candles.json: {exc}") from None
    return candles_from(candles, pack_hash(folder))


def candles_of(options: dict[str, Any]) -> Candles:
    """The candles a game's options play: option ``content`` (a pack's folder; None: the printed
    candles) read in design mode when option ``design`` is on, which needs a pack to design."""
    folder = options.get("content")
    if options.get("design") and folder is None:
        raise ValueError(
            "option 'design' plays a content pack whose printed values were changed: give the "
            "pack's folder as option 'content' too"
        )
    return PRINTED if folder is None else load_candles(folder, bool(options.get("design")))
