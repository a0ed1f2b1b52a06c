"""Words for everything (issue 14), checked along seeded random games of a game.

- ``shown_words``: every code a view, a log or a legal action shows (read with the game's notation:
  its ``Conformance.shown_codes``) has a name and a text in ``candlebox.components``.
- ``prompts_labels_sentences``: every pending decision has a prompt, every legal action a label and
  every event a sentence in words. A sentence names components: a component code may appear only
  beside its name. Field dumps (``key value, key value``, Python lists, seat -1) are not sentences.
- ``board_names_every_code``: the board ``candlebox play`` prints (the game's renderer) shows no
  component code without its name on the same line (a line as printed to a console wide enough that
  nothing wraps).
"""

from __future__ import annotations

import io
import random
import re
from typing import Any

from rich.console import Console

import candlebox
from candlebox.cli import render
from candlebox.engine import State, game_info
from candlebox.engine.plugin import Marks, fields_sentence
from candlebox.engine.words import components
from candlebox.testing.contract import bounded

Words = dict[str, dict[str, str]]
Configuration = tuple[str, int, dict[str, Any]]  # variant, players, options

WORD_STEPS = (
    600  # actions per game (Candle Quest and 16 Candies finish sooner; Candelabria reaches War)
)
VIEW_EVERY = 9  # views are read every few steps; logs keep everything and are read at the end
TEXT_STEPS = (
    250  # decisions walked per game: enough to meet every kind of decision across the seeds
)
BOARD_STEPS = (
    400  # actions per game: Candelabria reaches its later years, the others usually finish
)
RENDER_EVERY = 11  # the board is printed every few actions, and once the game is over
BOARD_SEED = 3
WIDTH = 2000  # wide enough that no line wraps: a code and its name stay on one line

TOKEN = re.compile(r"[A-Za-z0-9!\-]+")
# What a dump of fields looks like: a Python list or dict, a negative seat, a field_name.
DUMP = re.compile(r"\[|\]|\{|\}|seat -1|\b[a-z]+_[a-z]+\b")


def word_configurations(game: str) -> list[Configuration]:
    """Every variant at every player count, with the defaults and each option set the game says
    adds or changes components (``Conformance.word_options``)."""
    extra = game_info(game).conformance().word_options
    return [
        (variant.name, players, options)
        for variant in game_info(game).variants
        for players in variant.players
        for options in ({}, *extra.get(variant.name, ()))
    ]


def text_configurations(game: str) -> list[Configuration]:
    """Every variant at every player count, and at its most players with the options that bring
    decisions and events of their own (``Conformance.text_options``)."""
    found: list[Configuration] = []
    extra = game_info(game).conformance().text_options
    for variant in game_info(game).variants:
        found += [(variant.name, players, {}) for players in variant.players]
        if extra.get(variant.name):
            found.append((variant.name, variant.max_players, dict(extra[variant.name])))
    return found


def board_configurations(game: str) -> list[Configuration]:
    """The text configurations with only each variant's fewest and most players."""
    info = game_info(game)
    return [
        (variant, players, options)
        for variant, players, options in text_configurations(game)
        if players in (info.variant(variant).min_players, info.variant(variant).max_players)
    ]


def _random_step(state: State, rng: random.Random) -> None:
    seat = state.to_act[0]
    state.apply(seat, rng.choice(state.legal_actions(seat)))


def shown_words(
    game: str, variant: str, players: int, options: dict[str, Any], seeds: tuple[int, ...] = (1, 2)
) -> None:
    words = components(game, variant, players=players, **options)
    assert all(set(entry) == {"name", "text"} for entry in words.values())
    assert all(entry["name"].strip() and entry["text"].strip() for entry in words.values())
    shown = game_info(game).conformance().shown_codes
    if shown is None:
        return  # the game declares no reader of its codes: its words are checked for form only
    for seed in seeds:
        state = candlebox.new_game(game, players=players, variant=variant, seed=seed, **options)
        rng = random.Random(seed)
        found: set[str] = set()
        for step in range(WORD_STEPS):
            if state.is_over:
                break
            if step % VIEW_EVERY == 0:
                found |= shown(state)
            _random_step(state, rng)
        found |= shown(state)
        missing = sorted(found - set(words))
        assert not missing, f"{variant} {players}p {options} seed {seed}: no words for {missing}"


def bare_codes(text: str, words: Words) -> list[str]:
    """The component codes in ``text`` whose name is not in it too (names are taken out first: a
    name may hold another component's code, as 'Cinis Clan tactic 1X1V' holds 1X1V's)."""
    rest = text
    for entry in sorted(words.values(), key=lambda e: -len(e["name"])):
        rest = rest.replace(entry["name"], " ")
    return [
        token
        for token in TOKEN.findall(rest)
        if token in words and ":" not in token and words[token]["name"] not in text
    ]


def check_sentence(text: str, words: Words, what: str) -> None:
    assert text and text[0].isupper(), f"{what} does not start with a capital: {text!r}"
    assert not bare_codes(text, words), f"{what} names {bare_codes(text, words)} bare: {text!r}"
    assert not DUMP.search(text), f"{what} reads like a field dump: {text!r}"


def prompts_labels_sentences(
    game: str, variant: str, players: int, options: dict[str, Any], seeds: tuple[int, ...] = (0, 1)
) -> None:
    words = components(game, variant, players=players, **options)
    text = game_info(game).text()
    assert text is not None, "the game has no text capability (its words)"
    assert text.label is not None and text.prompt is not None, "no label or prompt in its text"
    names = [f"Player{seat}" for seat in range(players)]
    for seed in seeds:
        state = candlebox.new_game(game, players=players, variant=variant, seed=seed, **options)
        rng = random.Random(seed)
        for _ in range(TEXT_STEPS):
            if state.is_over:
                break
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            check_sentence(state.prompt(seat), words, "prompt")
            assert state.prompt(None)  # a spectator is told whom the game waits for
            for action in legal:
                said = state.label(seat, action)
                check_sentence(said, words, f"label of {action!r}")
                assert said != action
            state.apply(seat, rng.choice(legal))
        assert state.prompt(0)
        for entry in state.log(None) + state.log(0):
            line = text.event(entry, Marks())
            assert line is not None, f"no sentence for {entry}"
            assert not DUMP.search(line), f"field dump for {entry}: {line!r}"
            assert line != fields_sentence(entry)
            named = text.sentence(entry, names)
            mover = entry.get("seat")
            if isinstance(mover, int) and re.search(rf"\bseat {mover}\b", line):
                assert f"Player{mover}" in named, named


def board_lines(state: State, seat: int | None) -> list[str]:
    """The board as ``candlebox play`` prints it for ``seat`` (None: a spectator), as plain lines."""
    console = Console(file=io.StringIO(), record=True, width=WIDTH, color_system=None)
    render.render_state(state, seat, console)
    return console.export_text().splitlines()


def check_board(state: State, words: Words, where: str, move: int) -> None:
    seats: list[int | None] = [state.to_act[0] if state.to_act else 0, None]
    for seat in seats:
        for line in board_lines(state, seat):
            bare = bare_codes(line, words)
            assert not bare, (
                f"{where}, move {move}, {'spectator' if seat is None else f'seat {seat}'}: "
                f"code {bare[0]!r} without its name {words[bare[0]]['name']!r} on the line "
                f"{line.strip()!r}"
            )


def words_of(game: str, variant: str, players: int, options: dict[str, Any]) -> Words:
    """The configuration's words; none for a game that keeps no words module (a test game)."""
    try:
        return components(game, variant, players=players, **options)
    except ModuleNotFoundError as exc:
        if not (exc.name or "").endswith(".words"):
            raise
        return {}


def board_names_every_code(game: str, variant: str, players: int, options: dict[str, Any]) -> None:
    words = words_of(game, variant, players, options)
    state = candlebox.new_game(game, players=players, variant=variant, seed=BOARD_SEED, **options)
    rng = random.Random(BOARD_SEED)
    where = f"{game} {variant} {players}p {options}"
    move = 0
    while move < BOARD_STEPS and not state.is_over:
        if move % RENDER_EVERY == 0:
            check_board(state, words, where, move)
        _random_step(state, rng)
        move += 1
    check_board(state, words, where, move)  # the last board (the end screen when over)


NARROW = 40  # a phone's terminal, a split pane


def _narrow_positions(game: str) -> list[State]:
    """Mid-game at the largest table, and a finished game at the smallest."""
    info = game_info(game)
    largest = max(v.max_players for v in info.variants)
    smallest = min(v.min_players for v in info.variants)
    rng = random.Random(5)
    positions = []
    for players, steps in ((largest, 40), (smallest, 100_000)):
        variant = info.default_variant(players)
        state = candlebox.new_game(game, players, variant, seed=3, **bounded(game, variant, 40))
        for _ in range(steps):
            if state.is_over:
                break
            _random_step(state, rng)
        positions.append(state)
    return positions


def narrow_terminal_cuts_nothing(game: str) -> None:
    """The game's renderer reads at 40 columns: its tables become lines, so no column or header is
    cut to '…' and no line is wider than the terminal."""
    info = game_info(game)
    renderer = info.renderer()
    assert renderer is not None, "the game has no renderer (the generic one is used)"
    for state in _narrow_positions(game):
        console = Console(width=NARROW, record=True, color_system=None, file=io.StringIO())
        renderer.render(info.viewer()(state, 0), console, state.prompt(0))
        printed = console.export_text()
        assert "…" not in printed, printed
        assert max(len(line) for line in printed.splitlines()) <= NARROW, printed
