"""The terminal renderer (candlebox/games/sixteen_candies/render.py) and the log's sentences
(text.py), checked directly."""

from __future__ import annotations

import io

from rich.console import Console

import candlebox
from candlebox import bots
from candlebox.cli.render import event_line
from candlebox.games.sixteen_candies import render
from candlebox.games.sixteen_candies import text as words
from candlebox.games.sixteen_candies.view import EVENT_FIELDS
from candlebox.games.sixteen_candies.views import SixteenCandiesView


def printed(view: SixteenCandiesView, prompt: str = "Choose.") -> str:
    out = io.StringIO()
    render.render(view, Console(file=out, width=100), prompt)
    return out.getvalue()


def test_every_event_has_its_own_line() -> None:
    assert set(EVENT_FIELDS) == set(words.LINES)


def test_views_and_logs_render_for_every_seat_through_a_whole_game() -> None:
    state = candlebox.new_game("sixteen-candies", players=3, seed=4)
    robots = [bots.make("heuristic", seed=seat) for seat in range(3)]
    while not state.is_over:
        seat = state.to_act[0]
        text = printed(state.typed_view(seat))
        assert "you are seat" in text and "▲" in text
        for action in state.legal_actions(seat):
            assert render.action_text(action)
        state.apply(seat, robots[seat].choose(state, seat))
    assert "Game over" in printed(state.typed_view(None))
    for entry in state.log(None) + state.log(0):
        assert words.event_line(entry)
        assert event_line("sixteen-candies", entry)


def test_rotation_choices_say_what_the_hand_is_worth() -> None:
    assert render.action_text("top G6 G5 G4").endswith("(instant win!)[/]")
    assert "(13 Gummy Bears, penalty 5)" in render.action_text("top G6 G4 G3")
    assert "(9 Candy Corn, penalty 5)" in render.action_text("top K6 W C4")
    assert words.event_line({"event": "draw", "seat": 1, "source": "pile"}) == (
        "seat 1 draws from the draw pile"
    )
    assert "takes" in words.event_line(
        {"event": "draw", "seat": 1, "source": "discard", "card": "G6-K1"}
    )
    assert event_line("sixteen-candies", {"event": "roll", "seat": 0, "dice": [3, 4]}) == (
        "seat 0 roll: dice 3 4"
    )
