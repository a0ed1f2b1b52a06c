"""Bots cannot be used to stall the server: clients pick a level (or parameters within the server's
bounds), and stored bot settings are checked again when the server starts."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from sqlalchemy import update

import candlebox
from candlebox.engine.levels import find
from candlebox.server import bots as botlib
from candlebox.server.storage import Storage, seats
from tests.server.conftest import create, make_client

ISMCTS = {"kind": "bot", "bot": "ismcts"}


@pytest.mark.parametrize(
    "params",
    [
        {"seconds": 3600},
        {"iterations": 10**9},
        {"depth": 10**6},
        {"model": 10**9},
        {"seconds": 0.5, "tree_depth": 10**6},
        {"seconds": float("inf")},
        {"rollout": "forever"},
    ],
)
def test_bot_parameters_beyond_the_servers_bounds_are_refused(client: Any, params: Any) -> None:
    body = {"game": "candle-quest", "seats": [{"kind": "human"}, {**ISMCTS, "params": params}]}
    response = client.post(
        "/api/games", content=json.dumps(body), headers={"content-type": "application/json"}
    )
    assert response.status_code == 400, response.text
    assert response.json()["error"] == "bad-bot"
    assert "seat 1" in response.json()["message"]


def test_a_level_by_name_maps_to_bounded_settings(sqlite_url: str) -> None:
    with make_client(sqlite_url, max_bot_seconds=0.3) as client:
        seat_specs = [
            {"kind": "human"},
            {**ISMCTS, "level": "hard"},
            {**ISMCTS, "params": {"seconds": 0.2, "c": 1.5}},
        ]
        created = create(client, seat_specs)
        assert (
            client.post(
                "/api/games",
                json={
                    **ISMCTS,
                    "game": "candle-quest",
                    "seats": [{"kind": "human"}, {**ISMCTS, "level": "impossible"}],
                },
            ).status_code
            == 400
        )
        assert (
            client.post(
                "/api/games",
                json={
                    "game": "candle-quest",
                    "seats": [{"kind": "human"}, {**ISMCTS, "params": {"seconds": 0.31}}],
                },
            ).status_code
            == 400
        )
    loaded = Storage(sqlite_url).load_game(created["id"])
    assert loaded is not None
    by_seat = {s.seat: s.params for s in loaded[0].seats}
    hard = find(candlebox.game_info(loaded[0].game).levels, "hard")
    # "hard" is the game's: its search budget, and the server's cap on thinking time
    assert by_seat[1] == {**hard.params, "seconds": 0.3}
    assert by_seat[2] == {"seconds": 0.2, "c": 1.5}


def test_a_stored_hostile_bot_row_is_clamped_on_start(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    with make_client(sqlite_url) as client:
        created = create(client, [{"kind": "human"}, {**ISMCTS, "strength": 0.35}], you=0)
    storage = Storage(sqlite_url)
    hostile = {"seconds": 3600, "iterations": 10**9, "model": 10**9, "c": -5}
    with storage.engine.begin() as conn:
        conn.execute(
            update(seats)
            .where(seats.c.game_id == created["id"], seats.c.seat == 1)
            .values(params=json.dumps(hostile))
        )
    caplog.set_level(logging.WARNING, logger="candlebox.server")
    with make_client(sqlite_url):
        pass
    loaded = storage.load_game(created["id"])
    assert loaded is not None
    assert loaded[0].seats[1].params == {"seconds": 1.0, "c": 0.0}
    assert any("refused or clamped" in r.getMessage() for r in caplog.records)
    # and a bot made from a hostile row directly is made safe too
    bot = botlib.make("ismcts", hostile, 1, 1, 0, max_seconds=0.5)
    assert (bot.params.seconds, bot.params.iterations, bot.params.model) == (0.5, None, None)
