"""No bare code at the terminal (issue 14): along seeded random games of every game and variant, with
its smallest and largest player count (and the options that add components, as in test_texts.py), the
board ``candlebox play`` prints (``render_state``: the game's RENDERER, for the seat to act and for a
spectator) shows no component code without its name.

What "a bare code" is, precisely: a *line* is one line of the board as printed to a console wide
enough that nothing wraps (a printed line, or one line of a table row: a cell holding several
components puts each on its own line). A *code* is a token of the line (letters, digits, ``!`` and
``-``) that is a key of ``candlebox.components(game, variant, players=..., **options)`` for the game's
configuration (``R7``, ``G6-K1``, ``1I1X``, ``C-1X1V``, ``1-castle``, ``4c``, ``K1``). It is *bare* when
that component's name (the ``name`` of its entry, the one the pages and the log use) is not on the
same line; a name that holds another code (``Cinis Clan tactic 1X1V``) names that code too. This is
the rule test_texts.py holds prompts, labels and log sentences to (``bare_codes``). Namespaced keys
(``house:S``, ``role:P``) are words for letters inside other notation and are not looked for.
"""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console

import candlebox
from candlebox.cli import render
from candlebox.engine import game_info
from candlebox.engine.words import components
from tests.conformance.test_texts import bare_codes, configurations

STEPS = 400  # actions per game: Candelabria reaches its later years, the others usually finish
RENDER_EVERY = 11  # the board is printed every few actions, and once the game is over
SEED = 3
WIDTH = 2000  # wide enough that no line wraps: a code and its name stay on one line


def smallest_and_largest() -> list[tuple[str, str, int, dict[str, object]]]:
    """The configurations the other conformance walks use (test_texts.py), with only the smallest
    and the largest player count of each variant."""
    found = []
    for game, variant, players, options in configurations():
        counts = game_info(game).variant(variant).players
        if players in (min(counts), max(counts)):
            found.append((game, variant, players, options))
    return found


def _id(config: tuple[str, str, int, dict[str, object]]) -> str:
    game, variant, players, options = config
    extra = ",".join(f"{k}={v}" for k, v in options.items())
    return f"{game}-{variant}-{players}p" + (f"-{extra}" if extra else "")


def board_lines(state: candlebox.State, seat: int | None) -> list[str]:
    """The board as ``candlebox play`` prints it for ``seat`` (None: a spectator), as plain lines."""
    console = Console(file=io.StringIO(), record=True, width=WIDTH, color_system=None)
    render.render_state(state, seat, console)
    return console.export_text().splitlines()


def check_board(
    state: candlebox.State, words: dict[str, dict[str, str]], where: str, move: int
) -> None:
    seats: list[int | None] = [state.to_act[0] if state.to_act else 0, None]
    for seat in seats:
        for line in board_lines(state, seat):
            bare = bare_codes(line, words)
            assert not bare, (
                f"{where}, move {move}, {'spectator' if seat is None else f'seat {seat}'}: "
                f"code {bare[0]!r} without its name {words[bare[0]]['name']!r} on the line "
                f"{line.strip()!r}"
            )


@pytest.mark.parametrize("config", smallest_and_largest(), ids=_id)
def test_the_board_names_every_code(config: tuple[str, str, int, dict[str, object]]) -> None:
    game, variant, players, options = config
    words = components(game, variant, players=players, **options)
    state = candlebox.new_game(game, players=players, variant=variant, seed=SEED, **options)
    rng = random.Random(SEED)
    move = 0
    while move < STEPS and not state.is_over:
        if move % RENDER_EVERY == 0:
            check_board(state, words, _id(config), move)
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        move += 1
    check_board(state, words, _id(config), move)  # the last board (the end screen when over)


def test_a_bare_code_is_found() -> None:
    """The check itself: a code alone is bare, beside its name it is not."""
    words = components("sixteen-candies")
    assert bare_codes("Discard pile (top last): G6-C1", words) == ["G6-C1"]
    named = f"Discard pile (top last): {words['G6-C1']['name']} (G6-C1)"
    assert bare_codes(named, words) == []
