"""``candlebox play`` driven with scripted input."""

from __future__ import annotations

import io
import json
import re
import time as clock
from pathlib import Path

import pytest
from rich.console import Console

import candlebox
from candlebox import bots
from candlebox.cli import config
from candlebox.cli.play import Session, step, thinking_text
from candlebox.engine import register, unregister
from tests.bots.test_ismcts import PAPER
from tests.cli.conftest import SHORT, read, run


def test_whole_short_game_with_a_mistyped_action_first(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    typed = "bogus\n99\n" + "1\n" * 40
    result = run("play", "candle-quest", *SHORT, "--save", str(path), input=typed)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "'bogus' is malformed: unknown action 'bogus'" in out
    assert "99 is not a number in the list" in out
    assert "seed 3" in out
    assert " 1. seat " in out and "truncated" in out
    state = candlebox.load(read(path))
    assert state.is_over and state.truncated
    assert all(action != "bogus" for _, action in state.history)


def test_bots_moves_are_shown_as_readable_lines(tmp_path: Path) -> None:
    result = run(
        "play", "candle-quest", *SHORT, "--save", str(tmp_path / "g.json"), input="1\n" * 40
    )
    assert re.search(r"seat 1 (flips|buys|sells|auctions) [A-Z]\d", result.stdout)


def test_actions_may_be_typed_as_text_or_a_unique_beginning(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    # Seat 0 starts with this deck and first player: flip R7, then buy it by name.
    options = ["-o", "first_player=0", "-o", "deck=R7 B8", "-o", "max_turns=1"]
    result = run(
        "play", "candle-quest", "--seed", "1", *options, "--save", str(path), input="fl\nBUY\n"
    )
    assert result.exit_code == 0, result.output
    assert candlebox.load(read(path)).history == [(0, "flip"), (0, "buy")]
    assert "seat 0 buys R7 for 7" in result.stdout


def test_help_log_view_and_quit_save_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = run("play", "candle-quest", input="help\nlog\nview\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "save the game and stop" in out  # help
    assert "log so far" in out  # log
    assert '"candles_behind_screen"' in out  # the raw JSON view
    seed = int(re.search(r"seed (\d+)", out).group(1))  # type: ignore[union-attr]
    saved = tmp_path / f"candlebox-candle-quest-{seed}.json"
    state = candlebox.load(read(saved))
    assert state.seed == seed and not state.is_over
    assert "--resume" in out


def test_end_of_input_quits_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    result = run("play", "candle-quest", "--seed", "5", "--save", str(path), input="")
    assert result.exit_code == 0
    assert "Saved to" in result.stdout
    assert path.exists()


def test_resume_carries_on_to_the_end(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    run("play", "candle-quest", *SHORT, "--save", str(path), input="1\nquit\n")
    first = read(path)
    assert first["history"]
    result = run("play", "candle-quest", "--resume", str(path), input="1\n" * 40)
    assert result.exit_code == 0, result.output
    done = read(path)
    assert done["history"][: len(first["history"])] == first["history"]
    assert candlebox.load(done).is_over


def test_resume_refuses_new_settings(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    run("play", "candle-quest", *SHORT, "--save", str(path), input="quit\n")
    for flag, value in (("--players", "3"), ("--seed", "0"), ("--option", "max_turns=9")):
        result = run("play", "candle-quest", "--resume", str(path), flag, value)
        assert result.exit_code == 2
        assert f"drop {flag}" in result.stderr


def test_several_bots_with_parameters_in_seat_order(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    result = run(
        "play",
        "candle-quest",
        "-p",
        "3",
        "--seat",
        "1",
        "--bots",
        "random,heuristic:epsilon=0.5",
        *SHORT,
        "--save",
        str(path),
        input="1\n" * 40,
    )
    assert result.exit_code == 0, result.output
    assert "seat 0: random, seat 2: heuristic:epsilon=0.5" in result.stdout
    assert json.loads(path.read_text())["players"] == 3


def test_learn_mode_explains_options_rules_and_bot_moves(tmp_path: Path) -> None:
    path = tmp_path / "learn.json"
    result = run(
        "play",
        "candle-quest",
        "--learn",
        "--seed",
        "4",
        "--save",
        str(path),
        input="rules\n" + "1\n" * 6,
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    state = candlebox.load(read(path))
    assert state.num_players == 2 and state.variant == "basic"
    assert "Learn mode." in out
    # each option: its label, what it does (with the candle's own text) and its rule
    assert "Pass: bid no more for Red candle (value 6) (R6)" in out
    assert "Lets the candle go (in an auction)" in out
    assert "An expensive Lit candle that fills the Red place of your Menorah." in out
    assert "Rule: Auction" in out
    # the bot's moves come with the reason for that kind of move
    assert "why: Flipping is the usual turn" in out
    # rules: the How to play section of the decision at hand
    assert "### Auction" in out and "Name an opening price" in out


def test_learn_mode_refuses_another_player_count(tmp_path: Path) -> None:
    result = run("play", "candelabria", "--learn", "--players", "3", "--save", str(tmp_path / "x"))
    assert result.exit_code == 2
    assert "--learn is a 2-player game" in result.output


def test_learn_mode_plays_candelabria_two_player(tmp_path: Path) -> None:
    path = tmp_path / "learn.json"
    result = run(
        "play", "candelabria", "--learn", "--seed", "1", "--save", str(path), input="1\n" * 3
    )
    assert result.exit_code == 0, result.output
    assert candlebox.load(read(path)).variant == "two-player"
    assert "Rule: Setup and House Choice" in result.stdout
    assert re.search(r"The \w+ house; it starts in region \d", result.stdout)


def test_a_thinking_bot_shows_a_spinner_with_its_budget(tmp_path: Path) -> None:
    """While a bot decides, the terminal shows a spinner naming the seat, the bot and its time
    budget (issue 16); it is cleared once the bot has moved."""

    class Slow:
        """An ISMCTS bot that takes its time, so the spinner is drawn a few times."""

        name = "ismcts"

        def __init__(self) -> None:
            self.inner = bots.make("ismcts", seed=1, seconds=0.4)
            self.seconds = 0.4

        def choose(self, state: candlebox.State, seat: int) -> str:
            clock.sleep(0.4)
            return str(self.inner.choose(state, seat))

    state = candlebox.new_game("candle-quest", players=2, seed=3)
    bot_seat = state.to_act[0]
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=100)
    session = Session(state, 1 - bot_seat, {bot_seat: Slow()}, tmp_path / "g.json", console, input)
    assert step(session, bot_seat)
    assert len(state.history) == 1
    shown = out.getvalue()
    assert f"Seat {bot_seat} (ismcts bot) is thinking… up to 0.4 s" in shown
    # a level chosen by name is called by it (candlebox play --bots hard,heuristic)
    names = config.bot_names(
        config.parse_bots("hard,heuristic", [1, 2], "candle-quest"), "candle-quest"
    )
    assert names == {1: "Hard bot", 2: "heuristic bot"}
    assert thinking_text(1, Slow(), names[1]).startswith("Seat 1 (Hard bot) is thinking… up to")


def test_the_end_lists_the_standings_in_rank_order_with_breakdowns(tmp_path: Path) -> None:
    """Issue 14: places in rank order (not seat order), each score's parts by source, who won."""
    options = ["-o", "first_player=0", "-o", "deck=R7 B8", "-o", "max_turns=1"]
    result = run(
        "play", "candle-quest", "--variant", "advanced", "--players", "2", "--seed", "3",
        *options, "--save", str(tmp_path / "g.json"), input="flip\nbuy\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = " ".join(result.stdout.split())
    # Seat 0 bought R7 (7, and 5 shekels left: 3 count); seat 1 has nothing: seat 0 is first.
    assert "seat 0 (you) wins with 10 points" in out
    assert "1. seat 0 (you) 10 = 7 Candle value + 3 Shekels (up to half the candle value)" in out
    assert out.index("1. seat 0 (you)") < out.index("2. seat 1")


def test_a_race_ends_with_how_far_each_got(tmp_path: Path) -> None:
    """The basic game is a race to eight colours: its end lists each seat's colours and how the winner
    won, not a score of 1 or 0 nor "(nothing scored)"."""
    options = ["-o", "first_player=0", "-o", "deck=R7 B8", "-o", "max_turns=1"]
    result = run(
        "play", "candle-quest", "--players", "2", "--seed", "3", *options,
        "--save", str(tmp_path / "g.json"), input="flip\nbuy\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = " ".join(result.stdout.split())
    assert "1. seat 0 (you) 1 of 8 Menorah colours filled" in out, out
    assert "2. seat 1 0 of 8 Menorah colours filled" in out
    assert "nothing scored" not in out and "★ winner" in out


def test_each_decision_is_stated_once_in_the_games_words(tmp_path: Path) -> None:
    """The view ends with the game's prompt (its "▶" line); play adds no second wording of it."""
    options = ["-o", "first_player=0", "-o", "deck=R7 B8", "-o", "max_turns=1"]
    path = tmp_path / "game.json"
    result = run(
        "play", "candle-quest", "--seed", "1", *options, "--save", str(path), input="fl\nBUY\n"
    )
    assert result.exit_code == 0, result.output
    players = candlebox.load(read(path)).num_players
    state = candlebox.new_game(
        "candle-quest", players=players, seed=1, first_player=0, deck=["R7", "B8"], max_turns=1
    )
    said = [state.prompt(0)]
    state.apply(0, "flip")
    said.append(state.prompt(0))
    lines = (line.strip() for line in result.stdout.splitlines())
    decisions = [line[2:] for line in lines if re.match(r"▶ (?!\d)", line)]  # not the table's
    assert decisions == said


def test_learn_mode_plays_a_game_without_a_how_to_page(tmp_path: Path) -> None:
    """A plug-in without rules data of its own learns from a generated page (issue 39: a
    traceback): its first variant at its smallest table, against the random bot when it has no
    heuristic, each option with what its kind of move does."""
    register(PAPER)
    try:
        path = tmp_path / "learn.json"
        result = run("play", PAPER.id, "--learn", "--seed", "1", "--save", str(path), input="1\n")
    finally:
        unregister(PAPER.id)
    assert result.exit_code == 0, result.output
    assert "Learn mode." in result.stdout and "Traceback" not in result.output
    saved = read(path)
    assert saved["players"] == 2 and saved["variant"] == "standard"
