"""Renderers and action lists, checked directly (no command line)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console

import candlebox
from candlebox import bots
from candlebox.cli import render
from candlebox.cli.actions import NotInList, numbered, pick
from candlebox.cli.render import generic
from candlebox.games.candle_quest import render as candle_quest
from candlebox.games.candle_quest import text as candle_quest_text
from candlebox.games.candle_quest.view import EVENT_FIELDS
from candlebox.server.sentences import entry_text


def printed(function: Any, view: Any, prompt: str = "Choose.") -> str:
    out = io.StringIO()
    function(view, Console(file=out, width=100), prompt)
    return out.getvalue()


def played(variant: str, players: int, seed: int, steps: int) -> candlebox.State:
    state = candlebox.new_game("candle-quest", players=players, variant=variant, seed=seed)
    robots = [bots.make("heuristic", seed=seat) for seat in range(players)]
    for _ in range(steps):
        if state.is_over:
            break
        seat = state.to_act[0]
        state.apply(seat, robots[seat].choose(state, seat))
    return state


def test_candle_quest_lines() -> None:
    line = render.event_line
    assert line("candle-quest", {"event": "buy", "seat": 1, "candle": "R7", "price": 7}) == (
        "seat 1 buys R7 for 7"
    )
    assert (
        line(
            "candle-quest",
            {"event": "auction-won", "seat": 2, "candle": "G5", "price": 5, "paid_to": "bank"},
        )
        == "seat 2 wins the auction for G5, paying 5 to the bank"
    )
    assert line("candle-quest", {"event": "game-over", "reason": "menorah", "winners": [0, 2]}) == (
        "Game over: a Menorah is complete; seats 0, 2 share the win."
    )


def test_every_candle_quest_event_has_its_own_line() -> None:
    assert set(EVENT_FIELDS) == set(candle_quest_text.LINES)


def test_generic_line_for_an_unknown_game() -> None:
    entry = {"event": "roll", "seat": 0, "dice": [3, 4]}
    assert render.event_line("no-such-game", entry) == "seat 0 roll: dice 3 4"


@pytest.mark.parametrize(
    ("variant", "players", "steps"), [("basic", 2, 0), ("advanced", 3, 30), ("junior", 4, 10_000)]
)
def test_views_render_with_both_renderers(variant: str, players: int, steps: int) -> None:
    state = played(variant, players, seed=2, steps=steps)
    for seat in (None, 0):
        special = printed(candle_quest.render, state.typed_view(seat), state.prompt(seat))
        assert "Candle Quest" in special
        assert ("Game over" in special) == state.is_over
        assert "seat" in printed(generic.render, state.view(seat), state.prompt(seat))
    if variant == "advanced":
        assert "value" in printed(candle_quest.render, state.typed_view(0))


def test_generic_render_of_a_made_up_view() -> None:
    view = {
        "game": "no-such-game",
        "seat": 1,
        "pending": {"decision": "roll", "seats": [1]},
        "round": 3,
        "board": [[1, 2], [3]],
        "seats": [{"seat": 0, "candies": 4}, {"seat": 1}],
    }
    text = printed(generic.render, view, "Roll the dice.")
    assert "▶ Roll the dice." in text  # the caller's prompt, not words of the renderer's own
    assert "Waiting for" not in text
    assert "candies" in text and "round" in text


def test_numbered_actions_group_runs() -> None:
    entries = numbered(["buy", "sell", "auction 1", "auction 2", "auction 3", "loot 0", "loot 2"])
    assert [(e.numbers, e.text) for e in entries] == [
        ("1", "buy"),
        ("2", "sell"),
        ("3–5", "auction 1–3"),
        ("6", "loot 0"),
        ("7", "loot 2"),
    ]


def test_pick() -> None:
    actions = ["flip", "loot 1", "auction 1", "auction 10"]
    assert pick("2", actions) == "loot 1"
    assert pick(" FLIP ", actions) == "flip"
    assert pick("fl", actions) == "flip"
    assert pick("auction 1", actions) == "auction 1"  # exact beats the longer prefix match
    assert pick("auction", actions) == "auction"  # ambiguous: left to the engine to explain
    with pytest.raises(NotInList, match="not a number in the list"):
        pick("5", actions)


@pytest.mark.parametrize("game", candlebox.GAMES)
def test_the_terminal_and_the_server_say_the_same_words(game: str) -> None:
    """Every game's log sentences are its own text capability, shared by the terminal and the page
    (the terminal only adds colour), for every entry of a game played by the heuristic bots."""
    info = candlebox.game_info(game)
    text = info.text()
    assert text is not None
    players = info.variant(info.default_variant(3)).min_players
    state = candlebox.new_game(game, players=max(players, 3), seed=5)
    robots = [bots.make("heuristic", seed=seat) for seat in range(state.num_players)]
    for _ in range(300):
        if state.is_over:
            break
        seat = state.to_act[0]
        state.apply(seat, robots[seat].choose(state, seat))
    for entry in state.log(None) + state.log(0):
        said = render.event_line(game, entry)
        assert said == entry_text(game, entry)["text"] == text.sentence(entry)
        assert "[" not in text.sentence(entry) or "[" in str(entry), "plain words, no markup"
