"""Words for 16 Candies: every card, half and candy a game shows has a name and a text; the file is
checked."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import candlebox
from candlebox.engine.words import WordsError, schema
from candlebox.games.sixteen_candies import words
from candlebox.games.sixteen_candies.cards import DECK, HALF_CODES, TYPE_OF
from candlebox.games.sixteen_candies.conformance import shown_codes


def test_every_card_half_and_candy_has_words() -> None:
    table = candlebox.components("sixteen-candies")
    assert set(TYPE_OF) <= set(table)
    assert set(table) >= HALF_CODES
    assert {f"candy:{c}" for c in DECK.candy_codes} <= set(table)
    assert table["G6-K1"]["name"] == "6 Gummy Bears / 1 Candy Corn"
    assert "penalty 1" in table["G6-K1"]["text"] and "penalty 3" in table["G6-K1"]["text"]
    assert "Counts as 3" in table["W"]["text"] and "penalty is 2" in table["W"]["text"]


def test_a_dealt_hand_is_explained() -> None:
    state = candlebox.new_game("sixteen-candies", players=3, seed=4)
    codes = shown_codes(state)
    assert any("-" in code for code in codes)  # the hands' cards
    assert codes <= set(candlebox.components("sixteen-candies", players=3))


def _copy(tmp_path: Path, change: Any) -> Path:
    data = json.loads(words.WORDS_FILE.read_text())
    change(data["entries"])
    path = tmp_path / "words.json"
    path.write_text(json.dumps(data))
    return path


def test_a_missing_half_is_named(tmp_path: Path) -> None:
    path = _copy(tmp_path, lambda es: es.remove(next(e for e in es if e["code"] == "H4")))
    with pytest.raises(WordsError, match=r"words.json: code 'H4' \(half\): no entry"):
        words.read(path)


def test_a_half_filed_as_a_card_is_named(tmp_path: Path) -> None:
    path = _copy(tmp_path, lambda es: next(e for e in es if e["code"] == "H4").update(kind="card"))
    with pytest.raises(WordsError, match="code 'H4': kind 'card', expected 'half'"):
        words.read(path)


def test_the_schema_file_is_current() -> None:
    folder = Path(words.__file__).parent / "content"
    assert json.loads((folder / "words.schema.json").read_text()) == schema()


def test_a_hand_worth_one_is_said_in_the_singular() -> None:
    """The log's reveal line says a hand worth one candy as its half's name says one ("1 Gummy
    Bear"); more in the plural. The project's CI caught "1 Gummy Bears" in a round's result."""
    from candlebox.engine.plugin import PLAIN
    from candlebox.games.sixteen_candies.text import _reveal, counted

    assert counted(1, "G") == "1 Gummy Bear"
    assert counted(1, "H") == "1 Heart Candy"
    assert counted(9, "C") == "9 Chocolate"
    assert counted(13, "G") == "13 Gummy Bears"
    line = _reveal(
        {"seat": 1, "tops": ["G1", "C2", "K2"], "value": 1, "candy": "G", "penalty": 9}, PLAIN
    )
    assert ": 1 Gummy Bear, penalty 9" in line
