"""Options declared as data: validation and reading from the command line."""

from __future__ import annotations

import pytest

from candlebox.engine import Option
from candlebox.engine.options import validate_options

DECKS = Option("decks", "codes-map", None, "fixed decks")
FOLDER = Option("content", "path", None, "a content folder")
TURNS = Option("max_turns", "int", 100, "bound", minimum=1, nullable=False)
FLAG = Option("open", "bool", False, "a flag", nullable=False)
RULE = Option("rule", "choice", "a", "a rule", choices=("a", "b"), nullable=False)


def test_values_are_checked_with_the_option_named() -> None:
    assert TURNS.validate(5) == 5
    for bad in (0, "5", True, 2.5):
        with pytest.raises(ValueError, match="max_turns"):
            TURNS.validate(bad)
    with pytest.raises(ValueError, match="one of a, b"):
        RULE.validate("c")
    with pytest.raises(ValueError, match="cannot be None"):
        TURNS.validate(None)


def test_text_from_the_command_line() -> None:
    assert TURNS.parse("12") == 12
    with pytest.raises(ValueError, match="whole number, got 'x'"):
        TURNS.parse("x")
    assert FLAG.parse("yes") is True and FLAG.parse("off") is False
    assert DECKS.parse("curse:C1,C2; tactics:T3") == {"curse": ["C1", "C2"], "tactics": ["T3"]}
    with pytest.raises(ValueError, match="NAME:CODE"):
        DECKS.parse("C1,C2")
    assert FOLDER.parse("/tmp/pack") == "/tmp/pack"


def test_maps_and_paths() -> None:
    assert DECKS.validate({"curse": ("C1",)}) == {"curse": ["C1"]}
    with pytest.raises(ValueError, match="mapping"):
        DECKS.validate(["C1"])
    with pytest.raises(ValueError, match="card code"):
        DECKS.validate({"curse": [1]})
    with pytest.raises(ValueError, match="path"):
        FOLDER.validate(3)


def test_unknown_options_are_named_with_the_known_ones() -> None:
    with pytest.raises(
        ValueError, match=r"unknown option 'colour'; known options: max_turns, open"
    ):
        validate_options([TURNS, FLAG], {"colour": 1})
    assert validate_options([TURNS, FLAG], {"open": True}) == {"max_turns": 100, "open": True}
