"""Opponent levels are each game's own (issue 16): a level's name gives the game's bot and
parameters, the budgets in iterations survive storage, restarts and rematches, and a number from 0 to
1 (``strength``) still turns the chosen bot's knob for clients that send one."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

import candlebox
from candlebox.engine.levels import LEVEL_NAMES, find
from candlebox.server import bots as botlib
from candlebox.server.endgame import seat_again
from candlebox.server.storage import SeatRecord, Storage, seats
from tests.server.conftest import create, make_client, state


def level(game: str, name: str) -> Any:
    return find(candlebox.game_info(game).levels, name)


@pytest.mark.parametrize("game", candlebox.game_ids())
def test_a_level_by_name_is_the_games_own_bot_and_parameters(game: str, sqlite_url: str) -> None:
    with make_client(sqlite_url, max_bot_seconds=0.4) as client:
        levels = [{"kind": "bot", "level": name} for name in ("beginner", "easy", "medium")]
        created = create(client, [{"kind": "human"}, *levels], game=game, you=0)
        hard = create(client, [{"kind": "human"}, {"kind": "bot", "level": "hard"}] * 2, game=game)
        shown = state(client, created["id"])["seats"][1:] + state(client, hard["id"])["seats"][1:2]
    assert [s["level"] for s in shown] == list(LEVEL_NAMES)
    stored = Storage(sqlite_url).load_game(created["id"])
    stored_hard = Storage(sqlite_url).load_game(hard["id"])
    assert stored is not None and stored_hard is not None
    rows = stored[0].seats[1:] + stored_hard[0].seats[1:2]
    for name, row in zip(LEVEL_NAMES, rows, strict=True):
        wanted = level(game, name)
        assert row.bot == wanted.bot
        extra = {"seconds": 0.4} if wanted.bot == "ismcts" else {}  # the server's cap on time
        assert row.params == {**wanted.params, **extra}


def test_the_meta_lists_each_games_levels_weakest_first(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    for game in meta["games"]:
        offered = [(x["name"], x["bot"], x["params"]) for x in game["levels"]]
        declared = candlebox.game_info(game["id"]).levels
        assert offered == [(x.name, x.bot, x.params) for x in declared]
        assert all(x["doc"] for x in game["levels"])
        # each measured record with its table size, for the lobby to say where it was measured
        assert [x["record"] for x in game["levels"]] == [
            None if x.ahead is None else {"ahead": x.ahead.ahead, "games": x.ahead.games,
                                          "players": x.ahead.players}
            for x in declared
        ]  # fmt: skip


def test_a_number_still_sets_the_chosen_bots_strength(client: TestClient) -> None:
    created = create(
        client,
        [
            {"kind": "human"},
            {"kind": "bot", "bot": "heuristic", "strength": 0.35},
            {"kind": "bot", "bot": "heuristic", "strength": 1.0},  # never a random move
        ],
    )
    shown = state(client, created["id"])["seats"][1:]
    assert [(s["bot"], s["strength"]) for s in shown] == [("heuristic", 0.35), ("heuristic", 1.0)]
    # named by the level each plays as: the plain heuristic is Medium now that Hard searches
    assert [s["level"] for s in shown] == ["easy", "medium"]


@pytest.mark.parametrize(
    ("seat", "words"),
    [
        ({"kind": "bot", "level": "impossible"}, "beginner, easy, medium, hard"),
        ({"kind": "bot", "bot": "random", "level": "hard"}, "is the ismcts bot, not random"),
        ({"kind": "bot", "level": "easy", "params": {"epsilon": 0.2}}, "a level or the bot's"),
    ],
)
def test_a_level_that_does_not_fit_is_refused_with_its_reason(
    client: TestClient, seat: dict[str, Any], words: str
) -> None:
    body = {"game": candlebox.game_ids()[0], "seats": [{"kind": "human"}, seat]}
    response = client.post("/api/games", json=body)
    assert response.status_code == 400, response.text
    assert response.json()["error"] == "bad-bot"
    assert words in response.json()["message"] and "seat 1" in response.json()["message"]


def test_a_stored_level_keeps_its_search_budget_across_a_restart(sqlite_url: str) -> None:
    game = candlebox.game_ids()[0]
    with make_client(sqlite_url) as client:
        created = create(client, [{"kind": "human"}, {"kind": "bot", "level": "hard"}], game=game)
    storage = Storage(sqlite_url)
    with storage.engine.begin() as conn:  # stored under an older, larger cap on thinking time
        row = {**level(game, "hard").params, "seconds": 5.0}
        conn.execute(
            update(seats)
            .where(seats.c.game_id == created["id"], seats.c.seat == 1)
            .values(params=json.dumps(row))
        )
    with make_client(sqlite_url, max_bot_seconds=0.5):
        pass
    loaded = storage.load_game(created["id"])
    assert loaded is not None
    assert loaded[0].seats[1].params == {**level(game, "hard").params, "seconds": 0.5}
    bot = botlib.make("ismcts", loaded[0].seats[1].params, 1, 1, 0, 0.5, game)
    assert (bot.params.iterations, bot.params.seconds) == (
        level(game, "hard").params["iterations"],
        0.5,
    )


def test_a_rematch_asks_for_the_same_level_by_name() -> None:
    game = candlebox.game_ids()[0]
    hard = level(game, "hard")
    record = SeatRecord(1, "bot", "Wick", bot=hard.bot, params={**hard.params, "seconds": 1.0})
    again = seat_again(game, record)
    assert (again.level, again.bot, again.params) == ("hard", None, None)
    other = SeatRecord(1, "bot", "Wick", bot="ismcts", params={"seconds": 0.5, "c": 1.0})
    assert seat_again(game, other).params == {"seconds": 0.5, "c": 1.0}


def test_a_bot_for_one_table_size_is_not_offered() -> None:
    # the trained policy plays 2-player tables only: a lobby seat may be at any size
    for game_id in candlebox.game_ids():
        assert not botlib.plays("policy", game_id), game_id
        assert botlib.plays("heuristic", game_id), game_id
