"""bench/bot_ratings.py: the bot levels rated on the players' scale, as the server reads them for
the leaderboard and the profile pages (candlebox/server/ratings.py's ``reference_levels``)."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from types import ModuleType

import pytest

import candlebox
from candlebox.server import ratings

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "bot_ratings.py"
BUILT_IN = ("candle-quest", "sixteen-candies", "candelabria")  # the games this repository ships


@pytest.fixture
def script(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(SCRIPT.parent))  # bench/, as when it runs as a script
    return importlib.import_module(SCRIPT.stem)


@pytest.mark.deep  # a whole measuring run, every level searching (CI's second step)
def test_a_small_round_robin_rates_every_level_on_the_players_scale(script: ModuleType) -> None:
    game = "sixteen-candies"
    measured = script.measure(game, tables=1, pairs=1, seed=7, workers=1)
    ladder = [level.name for level in candlebox.game_info(game).levels]
    assert [level["level"] for level in measured["levels"]] == ladder
    assert measured["games_played"] == 1 + (len(ladder) - 1)  # one table, one game per pair
    for level in measured["levels"]:
        assert level["rating"] == ratings.shown(level["mu"], level["sigma"])
        assert level["games"] >= 1


def test_the_committed_file_is_the_scripts_for_every_game_and_level() -> None:
    data = json.loads(ratings.BOT_RATINGS.read_text(encoding="utf-8"))
    assert data["made_by"] == "bench/bot_ratings.py"
    assert set(data["games"]) >= set(BUILT_IN)
    for game in data["games"]:
        levels = data["games"][game]["levels"]
        ladder = candlebox.game_info(game).levels
        # measured with the levels as they are now (a level retuned since needs a new run)
        assert [(x["level"], x["bot"], x["params"]) for x in levels] == [
            (level.name, level.bot, dict(level.params)) for level in ladder
        ]
        for level in levels:
            assert level["rating"] == ratings.shown(level["mu"], level["sigma"])
        assert ratings.reference_levels(game) == [
            {"level": level["level"], "rating": level["rating"], "games": level["games"]}
            for level in levels
        ]
