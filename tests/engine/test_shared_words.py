"""The sentence helpers every game's text.py builds on (engine/plugin.py)."""

from __future__ import annotations

from candlebox.engine.plugin import (
    PLAIN,
    Marks,
    code_text,
    events_in_words,
    game_over_sentence,
    winners_text,
)

LOUD = Marks(code=lambda c: f"<{c}>", strong=str.upper)


def test_events_in_words_looks_up_the_entry_and_gives_none_for_an_unknown_event() -> None:
    event = events_in_words({"flip": lambda e, m: f"seat {e['seat']} flips {code_text(m, e['c'])}"})
    assert event({"event": "flip", "seat": 1, "c": "R7"}) == "seat 1 flips R7"  # plain by default
    assert event({"event": "flip", "seat": 1, "c": "R7"}, LOUD) == "seat 1 flips <R7>"
    assert event({"event": "roll", "seat": 1}, PLAIN) is None
    assert event({"seat": 1}, PLAIN) is None


def test_code_text_marks_a_code_and_dashes_a_missing_one() -> None:
    assert code_text(LOUD, "G6") == "<G6>"
    assert code_text(LOUD, None) == "—"


def test_game_over_says_why_in_the_games_words_and_who_won() -> None:
    over = game_over_sentence({"menorah": "a Menorah is complete"})
    assert over({"reason": "menorah", "winners": [2]}, PLAIN) == (
        "Game over: a Menorah is complete; seat 2 wins."
    )
    assert over({"reason": "stalled", "winners": []}, LOUD) == "GAME OVER: STALLED; NOBODY WINS."
    assert winners_text({"winners": [0, 3]}) == "seats 0, 3 share the win"
