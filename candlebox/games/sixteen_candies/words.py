"""Words for 16 Candies: a name and a plain-words text for every card, card half, candy and term
(``content/words.json``).

Checked when first read: every card code, half code and candy has an entry and nothing else does, names
differ, no text is empty, and halves are marked reconstructed while the deck is (rulings SC-1). Keys:
card codes (``G6-K1``, the Wild ``W``), half codes (``G6``), ``candy:G`` for a candy letter as the views
show it, ``term:...`` for the table's words.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from candlebox.engine.registry import game_info
from candlebox.engine.words import Entry, check_words, pick, read_words
from candlebox.games.sixteen_candies.cards import CODE, CONTENT, DATA, DECK, HALF_CODE, WILD
from candlebox.games.sixteen_candies.state import GAME_ID

WORDS_FILE = CONTENT / "words.json"
TERMS = (
    "term:pool",
    "term:penalty",
    "term:marker",
    "term:call",
    "term:instant-win",
    "term:held",
    "term:top",
)
CANDIES = tuple(f"candy:{code}" for code in DECK.candy_codes)
# The Wild's half is written like the Wild itself: one entry (a card) serves both.
HALVES = tuple(dict.fromkeys(h for h in HALF_CODE if h != CODE[WILD]))


def expected() -> dict[str, set[str]]:
    """Every code of the content, by kind."""
    return {"card": set(CODE), "half": set(HALVES), "candy": set(CANDIES), "term": set(TERMS)}


def read(path: Path = WORDS_FILE) -> dict[str, Entry]:
    """The checked entries of a words file, by code (raises WordsError naming file, code, problem)."""
    return check_words(
        path.name,
        read_words(path),
        expected(),
        reconstructed=("half",) if DATA.reconstructed else (),
        printed=("candy", "term"),
        variants=[v.name for v in game_info(GAME_ID).variants],
        unique_names=("card", "half", "candy", "term"),
    )


@cache
def table() -> dict[str, Entry]:
    return read()


def components(
    variant: str, options: dict[str, Any], players: int | None = None
) -> dict[str, dict[str, str]]:
    """Every code a game of this configuration can show (the Wild only when the deck has one)."""
    cards = [code for t, code in enumerate(CODE) if t != WILD or DECK.wild >= 0]
    return pick(table(), (*cards, *HALVES, *CANDIES, *TERMS), variant)
