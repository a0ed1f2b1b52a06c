"""``--bots`` takes the game's levels by name (issue 16): ``candlebox play --bots easy,hard``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import candlebox
from candlebox.cli import config
from candlebox.cli.errors import CliError
from candlebox.engine.levels import LEVEL_NAMES, find
from tests.cli.conftest import run


@pytest.mark.parametrize("game", candlebox.game_ids())
def test_a_level_name_is_the_games_bot_and_parameters(game: str) -> None:
    specs = config.parse_bots(",".join(LEVEL_NAMES), [0, 1, 2, 3], game)
    for seat, name in enumerate(LEVEL_NAMES):
        level = find(candlebox.game_info(game).levels, name)
        assert (specs[seat].name, specs[seat].params, specs[seat].label) == (
            level.bot,
            level.params,
            name,
        )


def test_a_level_takes_no_parameters_and_an_unknown_name_lists_the_levels() -> None:
    game = candlebox.game_ids()[0]
    with pytest.raises(CliError, match="hard is a level, set as it is: drop iterations=5"):
        config.parse_bots("hard:iterations=5", [1], game)
    with pytest.raises(CliError, match="levels: beginner, easy, medium, hard"):
        config.parse_bots("genius", [1], game)


def test_play_and_simulate_offer_the_levels_by_name(tmp_path: Path) -> None:
    played = run(
        "play",
        "candle-quest",
        "-p",
        "3",
        "--bots",
        "easy,beginner",
        "-o",
        "max_turns=3",
        "--save",
        str(tmp_path / "g.json"),
        input="quit\n",
    )
    assert played.exit_code == 0, played.output
    assert "seat 1: easy, seat 2: beginner" in played.stdout
    simulated = run(
        "simulate",
        "candle-quest",
        "-n",
        "2",
        "--bots",
        "beginner,medium",
        "-o",
        "max_turns=20",
        "--json",
    )
    assert simulated.exit_code == 0, simulated.output
    assert json.loads(simulated.stdout)["bots"] == ["beginner", "medium"]
