"""The schema as migrations (candlebox/server/migrating.py): a database written before migrations
existed (tests/data/legacy, by tests/server/legacy_db.py with the code of commit 6c80bdc) is upgraded
when the server opens it and keeps every game — the same views for the same credentials, its replays,
its open seat's join link and its bot — on SQLite and on PostgreSQL; and the migrations build exactly
the tables candlebox/server/storage.py defines, so a schema change without a migration fails here."""

from __future__ import annotations

import importlib
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Column, Integer, MetaData, create_engine, insert, inspect, select

from candlebox.server import migrating
from candlebox.server.storage import Storage, make_engine, metadata
from tests.server.conftest import essence, make_client, move, state, wait_for
from tests.server.pg import start_together
from tests.server.upgrading import (
    assert_at_head,
    differences,
    revision,
    revision_before,
    schema_at,
)

ROOT = Path(__file__).resolve().parents[2]
LEGACY = ROOT / "tests" / "data" / "legacy"
OLD_COMMIT = "6c80bdc"  # the last code before migrations that wrote tests/data/legacy
FACTS = json.loads((LEGACY / "facts.json").read_text())["games"]
BASELINE = importlib.import_module("candlebox.server.migrations.versions.0001_baseline")


def legacy_copy(tmp_path: Path) -> str:
    """A copy of the legacy SQLite file (the test must not change the committed one)."""
    path = tmp_path / "old.sqlite3"
    shutil.copy(LEGACY / "candlebox.sqlite3", path)
    return f"sqlite:///{path}"


def legacy_on_postgres(url: str, tmp_path: Path) -> None:
    """The legacy database's tables and rows on PostgreSQL, as the old code made them there: the
    tables it had (``create_all`` of its metadata: the baseline's definitions of those names) and
    every row, copied in the order of their foreign keys."""
    source = create_engine(legacy_copy(tmp_path))
    old_names = set(inspect(source).get_table_names())
    baseline = BASELINE._tables()
    target = make_engine(url)
    try:
        with target.begin() as conn:
            for table in baseline.sorted_tables:
                if table.name not in old_names:
                    continue
                table.create(conn)
                with source.connect() as read:
                    rows = [dict(row._mapping) for row in read.execute(select(table))]
                if rows:
                    conn.execute(insert(table), rows)
    finally:
        source.dispose()
        target.dispose()


def check_every_game_kept(url: str, facts: list[dict[str, Any]] = FACTS) -> None:
    """Open the old database with today's server: every game as it was, and still playable."""
    with make_client(url) as client:
        for game in facts:
            game_id = game["id"]
            seats = client.get(f"/api/games/{game_id}").json()["seats"]
            assert [stored(seat) for seat in seats] == [stored(seat) for seat in game["seats"]]
            for seat, token in game["tokens"].items():
                kept(essence(state(client, game_id, token)), game["views"][seat], game["kind"])
            kept(essence(state(client, game_id)), game["views"]["spectator"], game["kind"])
            if game["kind"] == "finished":
                replay = client.get(f"/api/games/{game_id}/replay?at=3").json()
                assert essence(replay) == essence(game["replay_at_3"])
                saved = client.get(f"/api/games/{game_id}/saved").json()
                assert {key: saved[key] for key in game["saved"]} == game["saved"]  # and new ones
            if game["kind"] == "human":
                check_seat_link(client, game)
            if game["kind"] == "bot":
                check_bot_plays_on(client, game)
    assert revision(url) == migrating.head()


def kept(now: dict[str, Any], then: dict[str, Any], kind: str) -> None:
    """``now`` is the view stored ``then``; in the bot game, whose bot was to act when the old
    code stopped, the bot may have moved since the server opened it: the stored moves come first."""
    if kind == "bot" and now["move"] > then["move"]:
        assert now["log"][: len(then["log"])] == then["log"]
        return
    assert now == then, kind


def stored(seat: dict[str, Any]) -> tuple[Any, ...]:
    """What the database keeps of a seat (not who is connected, nor fields added since)."""
    return (seat["seat"], seat["name"], seat["kind"], seat["bot"], seat["taken"])


def check_seat_link(client: Any, game: dict[str, Any]) -> None:
    """The open seat's join link still seats its holder, who can then play."""
    seat = game["invite"]["seat"]
    answer = client.post(
        f"/api/games/{game['id']}/seats/{seat}/claim",
        json={"name": "Late", "invite": game["invite"]["code"]},
    )
    assert answer.status_code == 200, answer.text
    mine = state(client, game["id"], answer.json()["token"])
    assert mine["view"] is not None


def check_bot_plays_on(client: Any, game: dict[str, Any]) -> None:
    """The stored bot still plays: the human moves until the bot is to act, and the bot does."""
    game_id, token = game["id"], game["tokens"]["0"]
    rng = random.Random(1)
    for _ in range(40):
        now = state(client, game_id)
        assert not now["over"]
        if now["view"]["pending"]["seats"] == [1]:
            wait_for(lambda: state(client, game_id)["move"] > now["move"])  # noqa: B023
            return
        mine = state(client, game_id, token)
        answer = move(client, game_id, token, rng.choice(mine["legal"]), mine["move"])
        assert answer.status_code == 200, answer.text
    raise AssertionError("the bot was never to act")


def test_a_sqlite_database_from_before_migrations_keeps_every_game(tmp_path: Path) -> None:
    url = legacy_copy(tmp_path)
    assert revision(url) is None  # as the old code left it: no alembic_version
    check_every_game_kept(url)


def test_a_postgres_database_from_before_migrations_keeps_every_game(
    postgres_url: str, tmp_path: Path
) -> None:
    legacy_on_postgres(postgres_url, tmp_path)
    assert revision(postgres_url) is None
    check_every_game_kept(postgres_url)


def test_a_postgres_database_written_by_the_old_code_keeps_every_game(
    postgres_url: str, tmp_path: Path
) -> None:
    """The old code itself writes the PostgreSQL database (from this clone's history: skipped in a
    shallow clone), then today's opens it."""
    old = tmp_path / "old"
    old.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", OLD_COMMIT, "candlebox"],
        capture_output=True,
        check=False,
    )
    if archive.returncode != 0:
        pytest.skip(f"commit {OLD_COMMIT} is not in this clone's history (a shallow clone?)")
    subprocess.run(["tar", "-x", "-C", str(old)], input=archive.stdout, check=True)
    facts_path = tmp_path / "facts.json"
    written = subprocess.run(
        [
            sys.executable,
            str(Path(__file__).parent / "legacy_db.py"),
            postgres_url,
            str(facts_path),
        ],
        env={**os.environ, "PYTHONPATH": str(old)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert written.returncode == 0, written.stderr[-2000:]
    assert revision(postgres_url) is None
    check_every_game_kept(postgres_url, json.loads(facts_path.read_text())["games"])


def test_processes_upgrading_an_old_postgres_database_together_all_start(
    postgres_url: str, tmp_path: Path
) -> None:
    # `serve --workers N` after an upgrade: one migrates under the lock, the others wait and find
    # it at head (without the lock, two would add the same column and one would fail)
    legacy_on_postgres(postgres_url, tmp_path)
    start_together(postgres_url, starters=4)
    assert revision(postgres_url) == migrating.head()


def test_the_migrations_build_the_tables_storage_defines(empty_url: str) -> None:
    """Every revision run from an empty database gives exactly storage.py's tables: a table or
    column changed in storage.py without a migration (or the reverse) is a difference here."""
    engine = make_engine(empty_url)
    try:
        with engine.begin() as conn:
            migrating.lock(conn)
            migrating.upgrade(conn)
    finally:
        engine.dispose()
    assert_at_head(empty_url)


def test_a_fresh_database_is_created_at_head(empty_url: str) -> None:
    Storage(empty_url).close()
    assert_at_head(empty_url)


def test_the_comparison_sees_a_column_without_a_migration(empty_url: str) -> None:
    # the check above is only worth something if a missing migration shows up as a difference
    Storage(empty_url).close()
    changed = MetaData()
    for table in metadata.sorted_tables:
        table.to_metadata(changed)

    changed.tables["games"].append_column(Column("rating", Integer, nullable=True))
    found = differences(empty_url, changed)
    assert [(d[0], d[3].name) for d in found] == [("add_column", "rating")]


def test_a_database_from_before_ratings_upgrades_and_keeps_every_game(empty_url: str) -> None:
    """Migration 0006 (ratings) on a database as the code before it left it: an account's finished
    game and a guest's live one are kept, neither rated, and the account's profile is served."""
    from tests.server.test_accounts import HERE, sign_up

    before = revision_before("0006")
    with make_client(empty_url) as client:
        client.headers.update(HERE)
        assert sign_up(client, "Wickham").status_code == 201
        seats = [{"kind": "human"}, {"kind": "human"}]
        over = client.post("/api/games", json={"game": "sixteen-candies", "seats": seats, "you": 0})
        client.cookies.clear()
        live = client.post("/api/games", json={"game": "candle-quest", "seats": seats, "you": 0})
        resign = client.post(
            f"/api/games/{over.json()['id']}/resign",
            headers={"Authorization": f"Bearer {over.json()['token']}"},
        )
        assert resign.status_code == 200, resign.text
        views = {
            game_id: essence(state(client, game_id))
            for game_id in (over.json()["id"], live.json()["id"])
        }
    with schema_at(empty_url, before) as conn:  # the schema the code before ratings wrote
        assert "ratings" not in inspect(conn).get_table_names()
    assert revision(empty_url) == before
    with make_client(empty_url) as client:
        for game_id, view in views.items():
            assert essence(state(client, game_id)) == view
            assert client.get(f"/api/games/{game_id}").json()["game"]["rated"] is False
        profile = client.get("/api/players/Wickham").json()
        assert profile["name"] == "Wickham" and profile["ratings"] == []
        assert [game["id"] for game in profile["recent"]] == [over.json()["id"]]
    assert_at_head(empty_url)


def test_a_database_from_before_notices_upgrades_and_keeps_every_game(empty_url: str) -> None:
    """Migration 0009 (notices) on a database as the code before it left it: a signed-in player's
    game and its mail waiting in the outbox are kept, and the player's notices are served."""
    from sqlalchemy import text

    from candlebox.server.storage import outbox
    from tests.server.test_accounts import HERE, rows, sign_in, sign_up

    before = revision_before("0009")
    with make_client(empty_url) as client:
        client.headers.update(HERE)
        assert sign_up(client, "Wickham").status_code == 201
        seats = [{"kind": "human"}, {"kind": "human"}]
        made = client.post("/api/games", json={"game": "candle-quest", "seats": seats, "you": 0})
        game_id = made.json()["id"]
        view = essence(state(client, game_id, made.json()["token"]))
    with schema_at(empty_url, before) as conn:  # the schema the code before notices wrote
        assert "notices" not in inspect(conn).get_table_names()
        assert "headers" not in {c["name"] for c in inspect(conn).get_columns("outbox")}
        conn.execute(  # a mail the code before wrote, waiting to be sent
            text(
                "INSERT INTO outbox (account_id, recipient, subject, body, status, tries, "
                "next_try, created_at) VALUES (NULL, 'wick@example.org', 'Old', 'old mail', "
                "'waiting', 0, 0, 0)"
            )
        )
    assert revision(empty_url) == before
    with make_client(empty_url) as client:
        client.headers.update(HERE)
        assert essence(state(client, game_id, made.json()["token"])) == view
        assert sign_in(client, "Wickham").status_code == 200
        listed = client.get("/api/me/notices")
        assert listed.status_code == 200, listed.text
        waits_for_him = 0 in state(client, game_id)["view"]["pending"]["seats"]
        assert listed.json()["unread"] == 0 and listed.json()["your_turn"] == waits_for_him
    kept = rows(empty_url, outbox)
    assert [(row.subject, row.headers) for row in kept] == [("Old", None)]
    assert_at_head(empty_url)
