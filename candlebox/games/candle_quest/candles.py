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
from pathlib import Path

import msgspec

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
    try:
        data = msgspec.json.decode(path.read_bytes(), type=CandleFile)
    except OSError as exc:
        raise ValueError(f"{path.name}: cannot be read ({exc.strerror})") from None
    except msgspec.ValidationError as exc:
        raise ValueError(f"{path}: {exc}") from None
    except msgspec.DecodeError as exc:
        raise ValueError(f"{path.name}: not valid JSON ({exc})") from None
    try:
        check_rulebook_numbers(data, design)
    except ValueError as exc:
        raise ValueError(f"{path.name}: {exc}") from None
    return data


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


CANDLES = build_candle_set(read_candle_file())

# Flat tables indexed by type number: the hot paths read these instead of CandleType attributes.
FACE: tuple[int, ...] = tuple(t.face for t in CANDLES.types)
SELL: tuple[int, ...] = tuple(t.sell for t in CANDLES.types)
KIND: tuple[Kind, ...] = tuple(t.kind for t in CANDLES.types)
COLOUR: tuple[int, ...] = tuple(t.colour for t in CANDLES.types)
CODE: tuple[str, ...] = CANDLES.code
TYPE_OF: dict[str, int] = {code: number for number, code in enumerate(CODE)}
LOOT_COST: tuple[int, ...] = tuple(t.face + t.sell for t in CANDLES.types)
N_COLOURS = len(CANDLES.colour_names)
