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


def test_an_option_a_variant_lacks_is_accepted_at_the_value_it_has_there() -> None:
    from candlebox.engine.options import Fixed

    pinned = (Fixed(FLAG, False, "closed in this variant"),)
    assert validate_options([TURNS], {"open": False}, pinned) == {"max_turns": 100}
    with pytest.raises(ValueError, match="'open' can only be False in this variant: closed"):
        validate_options([TURNS], {"open": True}, pinned)
    with pytest.raises(ValueError, match="takes true or false"):
        validate_options([TURNS], {"open": 0}, pinned)
    with pytest.raises(ValueError, match="unknown option 'open'"):
        validate_options([TURNS], {"open": False})


@pytest.mark.parametrize(
    ("game", "players", "variant", "options"),
    [
        ("candelabria", 2, None, {"decay": False, "decay_draw": "second"}),
        ("candle-quest", 3, "basic", {"tiebreak": "shared"}),
        ("candle-quest", 3, "junior", {"tiebreak": "shared"}),
    ],
)
def test_every_variant_accepts_the_options_of_the_others_at_its_own_value(
    game: str, players: int, variant: str | None, options: dict[str, object]
) -> None:
    import candlebox
    from candlebox.cli.config import parse_options

    state = candlebox.new_game(game, players=players, variant=variant, seed=3, **options)
    bare = candlebox.new_game(game, players=players, variant=variant, seed=3)
    assert state.to_json() == bare.to_json()
    texts = [f"{k}={str(v).lower()}" for k, v in options.items()]
    assert parse_options(game, players, variant, texts) == options
    for name in options:  # another value is refused, naming the option
        other = {"decay": True, "decay_draw": "every", "tiebreak": "shekels"}
        with pytest.raises(ValueError, match=f"'{name}' can only be"):
            candlebox.new_game(
                game, players=players, variant=variant, seed=3, **{name: other[name]}
            )


def test_every_option_of_a_game_is_offered_or_fixed_in_each_variant() -> None:
    """Checked generally: no variant refuses as unknown an option another variant of its game has."""
    import candlebox

    for game in candlebox.GAMES:
        variants = candlebox.variants(game)
        names = {o.name for v in variants for o in v.options}
        for v in variants:
            have = {o.name for o in v.options} | {f.option.name for f in v.fixed}
            assert have == names, (game, v.name, names - have)
