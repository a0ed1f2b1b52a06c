"""The terminal renderer: curses on the map with 2 players, and the missions."""

from __future__ import annotations

import random
import re

from rich.console import Console

import candlebox
from candlebox.games.candelabria import render
from candlebox.games.candelabria.schema import CURSE_EFFECTS
from candlebox.games.candelabria.views import CandelabriaView


def _text(view: CandelabriaView, width: int = 200) -> str:
    console = Console(width=width, record=True, color_system=None)
    render.render(view, console, "Choose.")
    return console.export_text()


def test_two_player_curses_on_the_map_and_the_house_choice() -> None:
    state = candlebox.new_game("candelabria", players=2, seed=4)
    text = _text(state.typed_view(0))
    assert "House choice" in text and "dealt once both players have chosen" in text
    assert "castle" not in text and "provisional" not in text
    state.apply(state.to_act[0], "house C")
    assert "the first chose C" in _text(state.typed_view(0))
    state.apply(state.to_act[0], "house R")
    text = _text(state.typed_view(0))
    assert text.count("☠curse") == 3 and "at war" in text and "standing on" in text


def test_missions_public_and_private() -> None:
    state = candlebox.new_game("candelabria", players=3, seed=2, missions=True)
    text = _text(state.typed_view(0))
    assert "Missions (public)" in text and text.count("hidden") == 2


def test_decay_cards_on_the_war_board() -> None:
    state = candlebox.new_game("candelabria", players=3, seed=2, decay=True)
    card = state.decay_deck.pop()
    state.decay_slots[1][0] = card
    text = _text(state.typed_view(0))
    # The card by its name and code, and the empty second slot as a dash.
    assert re.search(r"C decay cards: Decay: [A-Za-z ]+ \([ab]\) \(D\d+\), —\n", text), text


def test_curses_on_the_board_say_their_effect_in_words() -> None:
    text = _text(candlebox.new_game("candelabria", players=3, seed=2).typed_view(0))
    line = text[text.index("Curses") :]
    assert "ignites 2" in line and "extinguishes up to 2" in line, line
    assert not any(f"({code})" in line for code in CURSE_EFFECTS), line


def test_a_narrow_terminal_gets_lines_not_cut_columns() -> None:
    """At 40 columns (a phone's terminal) the map and the houses are lines: every territory by
    its code and kind, every house's numbers with their words, nothing cut to '…'."""

    state = candlebox.new_game("candelabria", players=3, seed=2)
    rng = random.Random(1)
    for _ in range(60):
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    view = state.typed_view(0)
    narrow = _text(view, width=40)
    assert "…" not in narrow
    flat = " ".join(narrow.split())  # lines wrapped at 40 columns, joined again
    for t in view.territories:
        assert f" {t.territory} " in flat
    for seat in view.seats:
        assert f"{seat.house} {seat.name}" in flat
        assert f"VP {seat.vp} · gold {seat.gold} · wax {seat.wax}" in flat
        assert f"land flames {seat.land_flames} · candle flames {seat.candle_flames}" in flat
    wide = _text(view, width=200)
    assert "Territory 1a (region 1," in wide  # the tables, where they fit
    # their columns in whole words: "land fl." and "candle fl." were read as nothing (issue 36)
    assert "land flames" in wide and "candle flames" in wide and "fl." not in wide
