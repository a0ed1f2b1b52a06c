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
from functools import lru_cache
from pathlib import Path
from typing import Any

import msgspec

from candlebox.engine.packs import pack_hash, read_pack_file

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


@dataclass(frozen=True, eq=False, slots=True)
class Tables:
    """The flat tables one game plays, indexed by card type or half number (the hot paths read
    these): the printed deck's (``PRINTED``) or a content pack's. A state holds one in its
    ``content`` slot, shared by its clones and never copied; ``pack`` is the hash of the pack's
    files (None: the printed deck), which saved games record."""

    data: DeckFile
    deck: Deck
    n_candies: int
    wild: int  # the Wild's type number (present in the tables even with no copies)
    n_types: int
    code: tuple[str, ...]
    type_of: dict[str, int]
    candy_index: dict[str, int]
    half_code: tuple[str, ...]
    half_candy: tuple[int, ...]  # -1 for the Wild
    half_count: tuple[int, ...]
    half_penalty: tuple[int, ...]
    # The orientations worth telling apart for each type: both for a numbered card, one for the Wild.
    orientations: tuple[tuple[int, ...], ...]
    full_set: tuple[int, ...]
    copies: dict[int, int]
    half_codes: frozenset[str]
    pack: str | None = None


def tables_from(data: DeckFile, pack: str | None = None) -> Tables:
    deck = build_deck(data)
    wild = len(data.cards)
    code = deck.codes
    candy_index = {c: i for i, c in enumerate(deck.candy_codes)}
    half_code = tuple(f"{candy}{count}" if candy else code[wild] for candy, count, _ in deck.halves)
    return Tables(
        data=data,
        deck=deck,
        n_candies=len(deck.candy_codes),
        wild=wild,
        n_types=wild + 1,
        code=code,
        type_of={c: number for number, c in enumerate(code)},
        candy_index=candy_index,
        half_code=half_code,
        half_candy=tuple(candy_index.get(candy, -1) for candy, _, _ in deck.halves),
        half_count=tuple(count for _, count, _ in deck.halves),
        half_penalty=tuple(penalty for _, _, penalty in deck.halves),
        orientations=tuple((0,) if t == wild else (0, 1) for t in range(wild + 1)),
        full_set=deck.full_set,
        copies={t: deck.full_set.count(t) for t in set(deck.full_set)},
        half_codes=frozenset(half_code),
        pack=pack,
    )


DATA = read_deck_file()
PRINTED = tables_from(DATA)
DECK = PRINTED.deck

# The printed deck's tables, for what is about the printed game (its facts, words, encoder and the
# JAX rules); the rules read a state's own ``content``.
N_CANDIES = PRINTED.n_candies
WILD = PRINTED.wild
N_TYPES = PRINTED.n_types
CODE: tuple[str, ...] = PRINTED.code
TYPE_OF: dict[str, int] = PRINTED.type_of
CANDY_INDEX: dict[str, int] = PRINTED.candy_index
HALF_CODE: tuple[str, ...] = PRINTED.half_code
HALF_CANDY: tuple[int, ...] = PRINTED.half_candy
HALF_COUNT: tuple[int, ...] = PRINTED.half_count
HALF_PENALTY: tuple[int, ...] = PRINTED.half_penalty
ORIENTATIONS: tuple[tuple[int, ...], ...] = PRINTED.orientations
FULL_SET: tuple[int, ...] = PRINTED.full_set
COPIES: dict[int, int] = PRINTED.copies
HALF_CODES: frozenset[str] = PRINTED.half_codes


def load_deck(folder: str, design: bool = False) -> Tables:
    """A content pack's deck (``deck.json`` in ``folder``), read once and shared by every game that
    plays it; a ValueError names the file and the field."""
    return _cached(str(Path(folder).expanduser().resolve()), design)


@lru_cache(maxsize=8)
def _cached(folder: str, design: bool) -> Tables:
    path = Path(folder)
    if not path.is_dir():
        raise ValueError(f"option 'content': the content pack folder {folder} does not exist")
    data = read_deck_file(path / "deck.json", design)
    try:
        tables = tables_from(data, pack_hash(folder))
    except ValueError as exc:
        raise ValueError(f"deck.json: {exc}") from None
    assert tables.pack is not None
    _LOADED[tables.pack] = tables
    return tables


# The packs' decks this process has read, by their hash: a view names its game's deck by the hash
# (``content``), and a bot reading a view finds the deck's faces here.
_LOADED: dict[str, Tables] = {}


def loaded_deck(pack: str) -> Tables:
    """The deck of a content pack this process plays, by its hash."""
    found = _LOADED.get(pack)
    if found is None:
        raise ValueError(f"content pack {pack} is not one this process has read")
    return found


def tables_of(options: dict[str, Any]) -> Tables:
    """The deck a game's options play: option ``content`` (a pack's folder; None: the printed deck)
    read in design mode when option ``design`` is on, which needs a pack to design."""
    folder = options.get("content")
    if options.get("design") and folder is None:
        raise ValueError(
            "option 'design' plays a content pack whose printed values were changed: give the "
            "pack's folder as option 'content' too"
        )
    return PRINTED if folder is None else load_deck(folder, bool(options.get("design")))
