"""Migration 0007 (clocks, issue 35) on a database as the code before it left it: its games are kept,
without a clock, and a table with a clock can be created once it is upgraded (SQLite, PostgreSQL)."""

from __future__ import annotations

from sqlalchemy import inspect

from tests.server.conftest import all_human, essence, make_client, state
from tests.server.upgrading import assert_at_head, revision, revision_before, schema_at


def test_a_database_from_before_clocks_upgrades_and_keeps_every_game(empty_url: str) -> None:
    before = revision_before("0007")
    assert before == "0006"
    with make_client(empty_url) as client:
        game_id, _ = all_human(client, 2)
        view = essence(state(client, game_id))
    with schema_at(empty_url, before) as conn:  # the schema the code before clocks wrote
        assert "seat_clocks" not in inspect(conn).get_table_names()
    assert revision(empty_url) == before
    with make_client(empty_url) as client:
        kept = state(client, game_id)
        assert essence(kept) == view
        assert kept["clock"] is None and kept["clocks"] == []
        clocked, _ = all_human(client, 2, clock={"mode": "turn-based", "per_move": 86400})
        frame = state(client, clocked)
        assert frame["clock"] == {"mode": "turn-based", "per_move": 86400}
        assert [c["seat"] for c in frame["clocks"]] == [0, 1]
        assert all(86000 < c["remaining"] <= 86400 for c in frame["clocks"])
    assert_at_head(empty_url)
