"""The terminal explains the game (issue 14): per-game help, rules, info CODE, the pending decision
in words, labelled actions, the Menorah's Dancing candles, and orientations typed in any order."""

from __future__ import annotations

from pathlib import Path

import pytest

import candlebox
from candlebox.cli.play import run_label
from candlebox.games.candle_quest.render import menorah_text
from candlebox.games.sixteen_candies.render import read_typed
from tests.cli.conftest import read, run

GAMES = ("candle-quest", "sixteen-candies", "candelabria")


@pytest.mark.parametrize("game", GAMES)
def test_help_is_the_games_own_and_rules_summarise_it(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = run("play", game, "--players", "2", "--seed", "4", input="help\nrules\nquit\n")
    assert result.exit_code == 0, result.output
    text = candlebox.game_info(game).text()
    assert text is not None
    out = " ".join(result.stdout.split())
    variant = "basic" if game == "candle-quest" else candlebox.variants(game)[0].name
    if game == "candelabria":
        variant = "two-player"
    own_help = text.for_variant(text.help, variant)
    assert " ".join(own_help.split())[:60] in out
    assert " ".join(text.for_variant(text.rules, variant).split())[:60] in out
    if game != "candle-quest":
        assert "flip" not in own_help  # not Candle Quest's help in every game


def test_junior_help_offers_neither_looting_nor_auctions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = run("play", "candle-quest", "--variant", "junior", "--seed", "2", input="help\nquit\n")
    assert result.exit_code == 0, result.output
    shown = result.stdout.lower()
    assert "auction" not in shown and "loot" not in shown


def test_info_prints_a_components_name_and_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = run(
        "play", "candle-quest", "--seed", "4", input="info r7\ninfo Menorah\ninfo XX\nquit\n"
    )
    assert result.exit_code == 0, result.output
    out = " ".join(result.stdout.split())
    assert "Red candle (value 7) (R7): An expensive Lit candle" in out
    assert "Menorah (term:menorah): Your goal" in out
    assert "No component XX in this game" in out


def test_the_prompt_and_labelled_actions_are_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    options = ["-o", "first_player=0", "-o", "deck=R7 B8", "-o", "max_turns=1"]
    result = run("play", "candle-quest", "--seed", "1", *options, input="flip\nquit\n")
    assert result.exit_code == 0, result.output
    out = " ".join(result.stdout.split())
    assert "It is your turn: flip a candle, or loot the top of a discard pile" in out
    assert "flip Flip the top candle of the draw stack" in out
    assert "You flipped Red candle (value 7) (R7): buy it, sell it, or auction it." in out
    assert "buy Buy Red candle (value 7) (R7) for 7 shekels" in out
    assert (
        "Auction Red candle (value 7) (R7), opening with your bid of 1 shekel … 12 shekels" in out
    )
    assert "turn 1 ·" in out and "turn 1/" not in out  # the turn number, not the internal limit


def test_a_runs_label_says_where_its_ends_differ() -> None:
    assert (
        run_label("Bid 1 shekel for X", "Bid 12 shekels for X") == "Bid 1 shekel … 12 shekels for X"
    )


def test_the_menorah_says_which_colours_the_dancing_candles_fill() -> None:
    line = menorah_text(["Y2", "O3", "G4", "W5", "R5", "B6", "D9"])
    assert "D9[/] fills Purple" in line or "fills 1 of the gaps: Purple, Silver" in line
    full = menorah_text(["Y2", "O3", "G4", "W5", "R5", "B6", "P7", "D9", "D10"])
    assert "fills Silver" in full and "fill nothing" in full


def test_an_orientation_may_be_typed_in_any_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = candlebox.new_game("sixteen-candies", players=2, seed=8)
    seat = state.to_act[0]
    legal = state.legal_actions(seat)
    wanted = legal[-1]
    halves = wanted.split()[1:]
    typed = "top " + " ".join(reversed(halves)).lower()
    assert read_typed(typed, legal) == wanted
    assert read_typed("top ZZ", legal) is None
    assert read_typed("draw pile", legal) is None
    # At the terminal: the reversed order is taken as the canonical action.
    monkeypatch.chdir(tmp_path)
    result = run(
        "play", "sixteen-candies", "--players", "2", "--seed", "8", "--seat", str(seat),
        input=typed + "\nquit\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    saved = next(tmp_path.glob("candlebox-sixteen-candies-*.json"))
    assert (seat, wanted) in [tuple(move) for move in read(saved)["history"]]


def test_info_prefers_a_components_own_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    # Candelabria's candle S1 and the Satores power of Year I (power:S1) share the letters.
    result = run("play", "candelabria", "--players", "3", "--seed", "5", input="info S1\nquit\n")
    assert result.exit_code == 0, result.output
    out = " ".join(result.stdout.split())
    assert "Satores Order candle S1 (S1):" in out and "(power:S1)" not in out


def test_info_names_a_territory_and_what_borders_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    # 4 players: the 10-region side, where 4c is the Nova Vita Coven's Inn
    result = run("play", "candelabria", "--players", "4", "--seed", "5", input="info 4c\nquit\n")
    assert result.exit_code == 0, result.output
    out = " ".join(result.stdout.split())
    assert "Territory 4c (region 4, Inn) (4c): Inn: draw an Advanced candle card" in out
    assert "Borders 2a, 4a, 4b, 6a and 6b." in out
