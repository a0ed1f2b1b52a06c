"""Card Layout: the deck data file, its schema, the rulebook's numbers it must meet, and lookup tables.

Every card has two halves; each half shows a candy type, a candy count and a penalty amount, and only
the half on top counts. Piles and hands hold *card types* (identical cards share one: only the Wilds
repeat), numbered in file order with the Wild last. A card's code joins its two halves, ``G6-K1``
(six Gummy Bears on one half, one Candy Corn on the other); a half's code is ``G6``; the Wild is ``W``.

A *half* is numbered ``2 * type + orientation``: orientation 0 puts the first half of the file on top,
1 the second. The Wild's two halves are the same, so its orientation is always 0.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import msgspec

from candlebox.engine.packs import read_pack_file

CONTENT = Path(__file__).parent / "content"
DECK_FILE = CONTENT / "deck.json"

RULEBOOK_CANDIES = ("Gummy Bears", "Chocolate", "Candy Corn", "Heart Candies")
MAX_COUNT = 6  # "counts up to 6 on a half"
INSTANT_COUNTS = (4, 5, 6)
WILD_COUNT = 3  # "it will count as three of any Candy Type"
WILD_PENALTY = 2  # "The penalty associated with this Card is 2 Penalty Candies"
HAND = 3  # "deal 3 Cards face-down to each Player"
MAX_SEATS = 4


class Candy(msgspec.Struct, forbid_unknown_fields=True):
    code: str  # one capital letter
    name: str
    colour: str


class Half(msgspec.Struct, forbid_unknown_fields=True):
    candy: str
    count: int
    penalty: int


class Card(msgspec.Struct, forbid_unknown_fields=True):
    halves: list[Half]


class Wild(msgspec.Struct, forbid_unknown_fields=True):
    code: str
    count: int
    penalty: int
    copies: int


class DeckFile(msgspec.Struct, forbid_unknown_fields=True):
    """Schema of ``content/deck.json`` (also written out as ``content/deck.schema.json``)."""

    reconstructed: bool
    about: str
    candies: list[Candy]
    cards: list[Card]
    wild: Wild


def _require(condition: bool, field: str, problem: str) -> None:
    if not condition:
        raise ValueError(f"deck data does not match the rulebook: {field}: {problem}")


def check_rulebook_numbers(data: DeckFile, design: bool = False) -> None:
    """Every number the rulebook gives about the cards (rulings SC-1).

    ``design``: a designer's deck, whose penalties, the Wild's count and penalty may differ from the
    rulebook's; the structure stays (codes, two halves of different candies, counts 1–6, the
    Instant Round Win's halves, enough cards to deal)."""
    codes = [c.code for c in data.candies]
    _require(len(set(codes)) == len(codes), "candies", f"candy codes must differ: {codes}")
    for i, code in enumerate(codes):
        _require(
            len(code) == 1 and code.isalpha() and code.isupper() and code != data.wild.code,
            f"candies[{i}].code",
            f"candy code {code!r} must be one capital letter, not the Wild's",
        )
    names = {c.name for c in data.candies}
    missing = [name for name in RULEBOOK_CANDIES if name not in names]
    _require(not missing, "candies", f"the rulebook's candies are missing: {missing}")
    seen: set[str] = set()
    for number, card in enumerate(data.cards):
        at = f"cards[{number}]"
        _require(len(card.halves) == 2, f"{at}.halves", f"card {number} must have two halves")
        for j, half in enumerate(card.halves):
            where = f"{at}.halves[{j}]"
            _require(
                half.candy in codes,
                f"{where}.candy",
                f"card {number}: unknown candy {half.candy!r}",
            )
            _require(
                1 <= half.count <= MAX_COUNT,
                f"{where}.count",
                f"card {number}: count {half.count} outside 1–6",
            )
            _require(half.penalty >= 0, f"{where}.penalty", f"card {number}: negative penalty")
        a, b = card.halves
        _require(a.candy != b.candy, f"{at}.halves", f"card {number}: both halves show {a.candy}")
        code = card_code(card)
        _require(
            code not in seen, at, f"card {code} appears twice (cards are told apart by halves)"
        )
        seen.add(code)
    for candy in codes:
        for count in INSTANT_COUNTS:
            _require(
                any(h.candy == candy and h.count == count for c in data.cards for h in c.halves),
                "cards",
                f"no half with {count} {candy}: the Instant Round Win needs 4, 5 and 6 of a type",
            )
    wild = data.wild
    _require(
        len(wild.code) == 1 and wild.code.isupper(),
        "wild.code",
        "the Wild's code is one capital letter",
    )
    if design:
        _require(1 <= wild.count <= MAX_COUNT, "wild.count", f"a count of 1–6, not {wild.count}")
        _require(wild.penalty >= 0, "wild.penalty", "a negative penalty")
    else:
        _require(
            wild.count == WILD_COUNT, "wild.count", f"the Wild counts as three, not {wild.count}"
        )
        _require(
            wild.penalty == WILD_PENALTY,
            "wild.penalty",
            f"the Wild's penalty is 2, not {wild.penalty}",
        )
    _require(wild.copies >= 0, "wild.copies", "a negative number of Wilds")
    total = len(data.cards) + wild.copies
    need = MAX_SEATS * HAND + 2  # four hands, the first discard, and a card to draw
    _require(total >= need, "cards", f"{total} cards cannot deal four players and start the piles")


def card_code(card: Card) -> str:
    a, b = card.halves
    return f"{a.candy}{a.count}-{b.candy}{b.count}"


def read_deck_file(path: Path = DECK_FILE, design: bool = False) -> DeckFile:
    return read_pack_file(path, DeckFile, lambda data: check_rulebook_numbers(data, design))


def schema() -> dict:
    return msgspec.json.schema(DeckFile)


def write_schema(path: Path = CONTENT / "deck.schema.json") -> None:
    path.write_text(json.dumps(schema(), indent=2) + "\n")


@dataclass(frozen=True)
class Deck:
    """Lookup tables built from the deck file; a card type or a half number indexes every tuple."""

    candy_codes: tuple[str, ...]
    candy_names: tuple[str, ...]
    candy_colours: tuple[str, ...]
    codes: tuple[str, ...]  # by card type; the Wild last
    halves: tuple[tuple[str, int, int], ...]  # by half number: (candy code or "", count, penalty)
    full_set: tuple[int, ...]  # every card of the box, as types
    wild: int  # the Wild's type, or -1 when the deck has none


def build_deck(data: DeckFile) -> Deck:
    codes: list[str] = []
    halves: list[tuple[str, int, int]] = []
    for card in data.cards:
        codes.append(card_code(card))
        halves.extend((h.candy, h.count, h.penalty) for h in card.halves)
    full = list(range(len(data.cards)))
    wild = len(data.cards)
    codes.append(data.wild.code)
    halves += [("", data.wild.count, data.wild.penalty)] * 2
    full += [wild] * data.wild.copies
    return Deck(
        candy_codes=tuple(c.code for c in data.candies),
        candy_names=tuple(c.name for c in data.candies),
        candy_colours=tuple(c.colour for c in data.candies),
        codes=tuple(codes),
        halves=tuple(halves),
        full_set=tuple(full),
        wild=wild if data.wild.copies else -1,
    )


DATA = read_deck_file()
DECK = build_deck(DATA)

# Flat tables: the hot paths read these.
N_CANDIES = len(DECK.candy_codes)
WILD = len(DATA.cards)  # the Wild's type number (present in the tables even with no copies)
N_TYPES = WILD + 1
CODE: tuple[str, ...] = DECK.codes
TYPE_OF: dict[str, int] = {code: number for number, code in enumerate(CODE)}
CANDY_INDEX: dict[str, int] = {code: i for i, code in enumerate(DECK.candy_codes)}
HALF_CODE: tuple[str, ...] = tuple(
    f"{candy}{count}" if candy else CODE[WILD] for candy, count, _ in DECK.halves
)
HALF_CANDY: tuple[int, ...] = tuple(CANDY_INDEX.get(candy, -1) for candy, _, _ in DECK.halves)
HALF_COUNT: tuple[int, ...] = tuple(count for _, count, _ in DECK.halves)
HALF_PENALTY: tuple[int, ...] = tuple(penalty for _, _, penalty in DECK.halves)
# The orientations worth telling apart for each type: both for a numbered card, one for the Wild.
ORIENTATIONS: tuple[tuple[int, ...], ...] = tuple(
    (0,) if t == WILD else (0, 1) for t in range(N_TYPES)
)
FULL_SET: tuple[int, ...] = DECK.full_set
COPIES: dict[int, int] = {t: FULL_SET.count(t) for t in set(FULL_SET)}
HALF_CODES: frozenset[str] = frozenset(HALF_CODE)
