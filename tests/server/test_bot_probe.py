"""Which bots play which game (``candlebox.server.bots.probe``): the built-in bots say so without
playing a move, so the server's start spends no search in a background thread; a bot registered
elsewhere, which cannot say, is still tried with a move."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

import candlebox
from candlebox import bots
from candlebox.bots.heuristic import HeuristicBot
from candlebox.bots.ismcts import ISMCTSBot
from candlebox.engine import State
from candlebox.server import bots as botlib
from candlebox.server import creating
from candlebox.server.bodies import CreateSpec, SeatSpec
from candlebox.server.config import Settings
from candlebox.server.errors import Rejected


@pytest.fixture
def fresh_probe(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(botlib, "_PLAYS", {})
    yield


def test_the_built_in_bots_say_which_games_they_play_without_a_move(
    fresh_probe: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_move(self: Any, state: State, seat: int) -> str:
        raise AssertionError("the probe played a move")

    for cls in (ISMCTSBot, HeuristicBot):
        monkeypatch.setattr(cls, "choose", no_move)
    before = {t.ident for t in threading.enumerate()}
    games = candlebox.game_ids()
    botlib.probe([(name, game) for name in bots.available() for game in games])
    assert not [
        t for t in threading.enumerate() if t.ident not in before and t.name.startswith("probe-")
    ]
    for game in games:
        assert botlib.plays("ismcts", game)
        assert botlib.plays("random", game)
        assert botlib.plays("heuristic", game) == (candlebox.game_info(game).policy() is not None)
        assert not botlib.plays("policy", game)  # trained for one table: never offered


class Elsewhere:
    """A bot registered from outside Candlebox: made with a seed it does not need."""

    name = "elsewhere"

    def __init__(self, seed: int | None = None) -> None:
        pass


def register(monkeypatch: pytest.MonkeyPatch, maker: type[Elsewhere]) -> None:
    """Register ``maker`` under its name for this test only."""
    monkeypatch.setitem(bots._MAKERS, maker.name, maker)
    monkeypatch.setitem(bots._DOCS, maker.name, "test bot")


class Silent(Elsewhere):
    """A bot registered elsewhere that cannot say which games it plays: only Candle Quest."""

    name = "silent"

    def choose(self, state: State, seat: int) -> str:
        if state.game_id != "candle-quest":
            raise ValueError("I only know Candle Quest")
        return state.legal_actions(seat)[0]


def test_a_bot_that_cannot_say_is_tried_with_a_move(
    fresh_probe: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    register(monkeypatch, Silent)
    assert botlib.plays("silent", "candle-quest")
    assert not botlib.plays("silent", "sixteen-candies")


class TwoOnly(Elsewhere):
    """A bot registered elsewhere that plays Candle Quest at a table of two only, and says so."""

    name = "two-only"

    def plays(self, game_id: str) -> bool:
        return game_id == "candle-quest"

    def check_table(self, state: State) -> None:
        if state.num_players != 2:
            raise ValueError(f"two-only plays 2 players only; this table has {state.num_players}")

    def choose(self, state: State, seat: int) -> str:
        return state.legal_actions(seat)[0]


def test_a_table_the_bot_cannot_play_is_refused_at_creation(
    fresh_probe: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server asks the check ``candlebox play`` and ``simulate`` ask (``bots.check_table``)."""
    register(monkeypatch, TwoOnly)
    settings = Settings(db="sqlite://")

    def spec(players: int) -> CreateSpec:
        seats = [SeatSpec(), *[SeatSpec(kind="bot", bot="two-only")] * (players - 1)]
        return CreateSpec(game="candle-quest", seats=seats, you=0)

    assert creating.new_game(spec(2), settings).record.seats[1].bot == "two-only"
    with pytest.raises(Rejected) as refused:
        creating.new_game(spec(3), settings)
    assert refused.value.code == "bad-bot"
    assert str(refused.value) == "seat 1: two-only plays 2 players only; this table has 3"


class Starved(Elsewhere):
    """A bot registered elsewhere that refuses 16 Candies, but only after a wait in which it uses
    no CPU: a thread on a loaded machine that gets its turn late. Its refusal is still its answer."""

    name = "starved"

    def choose(self, state: State, seat: int) -> str:
        if state.game_id != "candle-quest":
            threading.Event().wait(1.0)  # off the CPU, as a thread that has not been run yet
            raise ValueError("I only know Candle Quest")
        return state.legal_actions(seat)[0]


def test_a_late_refusal_is_an_answer_not_a_search(
    fresh_probe: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Thinking is counted in the bot's CPU time: a loaded machine is no policy."""
    register(monkeypatch, Starved)
    assert not botlib.plays("starved", "sixteen-candies")
