"""Words for Candle Quest: a name and a plain-words text for every candle and term (``content/words.json``).

The entries are checked against the candle file when first read: every candle code has one, no entry
names a candle that does not exist, names differ, no text is empty, and candle entries are marked
reconstructed while the candle list is (docs/rulings.md, CQ-1).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from candlebox.engine.registry import game_info
from candlebox.engine.words import Entry, check_words, pick, read_words
from candlebox.games.candle_quest.candles import (
    CANDLE_FILE,
    CANDLES,
    CONTENT,
    Kind,
    read_candle_file,
)
from candlebox.games.candle_quest.state import GAME_ID

WORDS_FILE = CONTENT / "words.json"
# Words of the table that views and logs use ("pile", "removed", "bank", ...), explained once.
TERMS = (
    "term:shekel",
    "term:bank",
    "term:screen",
    "term:menorah",
    "term:draw-stack",
    "term:pile",
    "term:removed",
    "term:set-aside",
    "term:bonus-turn",
)
KINDS = tuple(f"kind:{kind.name.lower()}" for kind in Kind)


def expected() -> dict[str, set[str]]:
    """Every code of the content, by kind."""
    return {"candle": set(CANDLES.code), "kind": set(KINDS), "term": set(TERMS)}


def read(path: Path = WORDS_FILE, candle_file: Path = CANDLE_FILE) -> dict[str, Entry]:
    """The checked entries of a words file, by code (raises WordsError naming file, code, problem)."""
    reconstructed = read_candle_file(candle_file).reconstructed
    return check_words(
        path.name,
        read_words(path),
        expected(),
        reconstructed=("candle",) if reconstructed else (),
        printed=("kind", "term") if reconstructed else ("candle", "kind", "term"),
        variants=[v.name for v in game_info(GAME_ID).variants],
        unique_names=("candle", "kind", "term"),
    )


@cache
def table() -> dict[str, Entry]:
    return read()


def components(
    variant: str, options: dict[str, Any], players: int | None = None
) -> dict[str, dict[str, str]]:
    """Every code a game of this configuration can show. Every candle can: the junior game's removed
    Unlit 6s are listed in its view as removed."""
    return pick(table(), (*CANDLES.code, *KINDS, *TERMS), variant)
