"""Bot-only tables (issue 33, item 3): a client may have only a few at once, their creator stops one
with the credential the creation gave, each stops itself at its time limit (stored: it holds across a
restart), and their bots never make the bots of games people play wait."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, update

from candlebox.server import Settings
from candlebox.server.botqueue import BotQueue
from candlebox.server.storage import Storage, bot_tables, games, make_engine, metadata
from candlebox.server.worker import BotWorker
from tests.server.conftest import (
    as_before_migrations,
    auth,
    create,
    make_client,
    run_async,
    state,
    wait_for,
)

HEURISTIC = {"kind": "bot", "bot": "heuristic"}
ISMCTS = {"kind": "bot", "bot": "ismcts", "params": {"seconds": 0.3}}
SLOW = {"bot_delay": 10}  # a bot-only table that stays live for the test (a move each 10 s)


def stop(client: Any, game_id: str, token: str | None) -> Any:
    return client.post(f"/api/games/{game_id}/stop", headers=auth(token))


# ----------------------------------------------------------------------------- the limit per client
def test_a_client_may_have_only_max_bot_tables_bot_only_tables_at_once(sqlite_url: str) -> None:
    with make_client(sqlite_url, max_bot_tables=2) as client:
        first = create(client, [HEURISTIC, HEURISTIC], **SLOW)
        create(client, [HEURISTIC, HEURISTIC], **SLOW)
        body = {"game": "candle-quest", "seats": [HEURISTIC, HEURISTIC], **SLOW}
        refused = client.post("/api/games", json=body)
        assert refused.status_code == 429, refused.text
        assert refused.json()["error"] == "too-many-bot-tables"
        assert "at most 2" in refused.json()["message"]
        assert "max_bot_tables" in refused.json()["message"]
        # a table with a person at it is not a bot-only table
        create(client, [{"kind": "human"}, HEURISTIC], you=0, **SLOW)
        # a stopped table no longer counts
        assert stop(client, first["id"], first["owner_token"]).status_code == 200
        create(client, [HEURISTIC, HEURISTIC], **SLOW)


# ----------------------------------------------------------------------------- the creator's stop
def test_the_creator_stops_a_bot_only_table_with_its_owner_token(sqlite_url: str) -> None:
    with make_client(sqlite_url) as client:
        created = create(client, [HEURISTIC, HEURISTIC], **SLOW)
        game_id, owner = created["id"], created["owner_token"]
        assert created["seat"] is None and "token" not in created and created["invites"] == {}
        assert created["stop_at"] > time.time()
        human = create(client, [{"kind": "human"}, HEURISTIC], you=0, **SLOW)
        assert "owner_token" not in human

        refusals = [
            stop(client, game_id, None),  # no credential
            stop(client, game_id, human["token"]),  # a seat's credential of another game
            stop(client, game_id, "x" * 43),  # a made-up one
            stop(client, "no-such-game", owner),  # no such game: the same answer
            stop(client, human["id"], human["token"]),  # a game with a person at it
        ]
        for refused in refusals:
            assert refused.status_code == 403, refused.text
            assert refused.json() == refusals[0].json()
        assert not state(client, game_id)["over"]

        service = client.app.state.service  # type: ignore[attr-defined]
        live = service.registry.games[game_id]
        tasks = list(live.bot_tasks.values())
        assert tasks  # its bot is thinking or waiting its delay
        stopped = stop(client, game_id, owner)
        assert stopped.status_code == 200 and stopped.json() == {"status": "stopped"}
        # its bot work is freed at once: cancelled, not left to run to its next move
        assert all(task.cancelled() or task.cancelling() or task.done() for task in tasks)
        assert game_id not in service.registry.games
        frame = state(client, game_id)
        assert frame["over"] and frame["legal"] == []
        assert frame["result"]["stopped"] == "creator" and frame["result"]["winners"] == []
        assert "creator stopped" in frame["result"]["message"]
        replay = client.get(f"/api/games/{game_id}/replay?at={frame['move']}").json()
        assert replay["over"] and replay["result"]["stopped"] == "creator"
        again = stop(client, game_id, owner)
        assert again.status_code == 409 and again.json()["error"] == "over"
        # the human game goes on
        assert not state(client, human["id"])["over"]
    record, _ = Storage(sqlite_url).load_game(game_id) or (None, None)
    assert record is not None and record.status == "stopped"
    assert record.result is not None and record.result["stopped"] == "creator"


def test_the_owner_token_is_stored_hashed(sqlite_url: str) -> None:
    with make_client(sqlite_url) as client:
        created = create(client, [HEURISTIC, HEURISTIC], **SLOW)
    storage = Storage(sqlite_url)
    with storage.engine.connect() as conn:
        row = conn.execute(select(bot_tables).where(bot_tables.c.game_id == created["id"])).one()
    assert row.owner_hash and created["owner_token"] not in row.owner_hash
    assert len(row.owner_hash) == 64


# ----------------------------------------------------------------------------- the time limit
def test_a_bot_only_table_stops_itself_at_its_time_limit(sqlite_url: str) -> None:
    with make_client(sqlite_url, bot_table_seconds=0.5) as client:
        created = create(client, [HEURISTIC, HEURISTIC], bot_delay=0.1)
        frame = wait_for(lambda: (f := state(client, created["id"]))["over"] and f)
        assert frame["result"]["stopped"] == "time-limit", frame["result"]
        assert "time limit" in frame["result"]["message"]


def test_the_time_limit_is_stored_and_holds_across_a_restart(sqlite_url: str) -> None:
    with make_client(sqlite_url) as client:
        created = create(client, [HEURISTIC, HEURISTIC], **SLOW)
    game_id = created["id"]
    storage = Storage(sqlite_url)
    with storage.engine.begin() as conn:
        row = conn.execute(select(bot_tables).where(bot_tables.c.game_id == game_id)).one()
        made = conn.execute(select(games.c.created_at).where(games.c.id == game_id)).scalar()
        assert row.stop_at == pytest.approx(made + 600.0)
        # the limit passes while the server is down
        conn.execute(update(bot_tables).values(stop_at=time.time() - 1))
    storage.close()
    with make_client(sqlite_url) as client:
        frame = wait_for(lambda: (f := state(client, game_id))["over"] and f)
        assert frame["result"]["stopped"] == "time-limit"
        # and its creator's credential still says so
        assert stop(client, game_id, created["owner_token"]).status_code == 409


def test_a_database_made_before_bot_tables_opens_and_keeps_every_game(tmp_path: Path) -> None:
    """The old schema is today's without the ``bot_tables`` table: the new code adds it and keeps
    every game; a bot-only game made before it stops ``bot_table_seconds`` after its creation."""
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    with make_client(url) as client:
        human = create(client, [{"kind": "human"}, HEURISTIC], you=0, **SLOW)
        bots = create(client, [HEURISTIC, HEURISTIC], **SLOW)
    as_before_migrations(url)
    engine = make_engine(url)  # not Storage: that would bring it to the newest schema again
    with engine.begin() as conn:  # back to the schema of the code before bot_tables
        conn.execute(bot_tables.delete())
        bot_tables.drop(conn)
    engine.dispose()
    with make_client(url, bot_table_seconds=3600) as client:
        assert not state(client, human["id"])["over"]
        assert not state(client, bots["id"])["over"]
        # nobody holds a credential for the old bot-only game
        assert stop(client, bots["id"], bots["owner_token"]).status_code == 403
    assert "bot_tables" in metadata.tables
    with make_client(url, bot_table_seconds=0.01) as client:  # its creation was long enough ago
        frame = wait_for(lambda: (f := state(client, bots["id"]))["over"] and f)
        assert frame["result"]["stopped"] == "time-limit"
        assert not state(client, human["id"])["over"]


# ----------------------------------------------------------------------------- the order of bot work
def test_bot_only_tables_never_take_every_slot_and_people_go_first() -> None:
    async def scenario() -> None:
        queue = BotQueue(slots=2, bot_only=1)
        held = queue.slot("bots-1", bot_only=True)
        await held.__aenter__()
        # a second bot-only table waits although a slot is free: that one is kept for people
        second = asyncio.create_task(hold(queue, "bots-2", True))
        third = asyncio.create_task(hold(queue, "bots-3", True))
        await asyncio.sleep(0)
        assert queue.waiting(True) == ["bots-2", "bots-3"] and queue.busy == 1
        # a person's game's bot gets the free slot at once, ahead of both
        people = queue.slot("people-1", bot_only=False)
        await people.__aenter__()
        assert queue.busy == 2 and queue.busy_bot_only == 1 and queue.waiting(False) == []
        # every slot taken: a second person's game waits, and goes before the bot-only tables
        later = asyncio.create_task(hold(queue, "people-2", False))
        await asyncio.sleep(0)
        assert queue.waiting(False) == ["people-2"]
        await held.__aexit__(None, None, None)  # a bot-only slot frees
        assert queue.waiting(False) == [] and queue.waiting(True) == ["bots-2", "bots-3"]
        assert queue.busy_bot_only == 0
        await people.__aexit__(None, None, None)
        assert queue.waiting(True) == ["bots-3"] and queue.busy_bot_only == 1
        # a turn cancelled while it waits (its table stopped) leaves the line at once
        third.cancel()
        await asyncio.gather(third, return_exceptions=True)
        assert queue.waiting(True) == []
        for task in (second, later):
            task.cancel()
        await asyncio.gather(second, later, return_exceptions=True)
        assert queue.busy == 0 and queue.busy_bot_only == 0

    run_async(scenario())


async def hold(queue: BotQueue, game_id: str, bot_only: bool) -> None:
    async with queue.slot(game_id, bot_only):
        await asyncio.Event().wait()  # held until cancelled


def our_turn(client: Any, game_id: str, token: str) -> dict[str, Any] | None:
    """The seat's frame once it has a move to make (or the game is over); None before."""
    frame = state(client, game_id, token)
    return frame if frame["legal"] or frame["over"] else None


def test_busy_bot_only_tables_leave_a_slot_for_a_game_people_play(sqlite_url: str) -> None:
    settings = {"max_bot_tables": 3, "bot_threads": 2, "max_bot_seconds": 0.3}
    with make_client(sqlite_url, **settings) as client:
        queue = client.app.state.service.bots.queue  # type: ignore[attr-defined]
        for _ in range(3):
            create(client, [ISMCTS, ISMCTS], bot_delay=0)
        # the three tables' searches: one thinks, the others wait in line
        wait_for(lambda: queue.busy_bot_only == 1 and len(queue.waiting(True)) >= 1)
        # a person's game: its bot's turns find the other slot
        created = create(client, [{"kind": "human"}, HEURISTIC], you=0, bot_delay=0)
        game_id, token = created["id"], created["token"]
        for _ in range(3):
            frame = wait_for(lambda: our_turn(client, game_id, token))
            if frame["over"]:
                break
            client.post(
                f"/api/games/{game_id}/moves",
                json={"action": frame["legal"][0], "expect": frame["move"]},
                headers=auth(token),
            )
            # the person's game never waits in line, and the tables never hold both slots
            assert queue.waiting(False) == [] and queue.busy_bot_only <= 1
        wait_for(lambda: len(queue.waiting(True)) >= 1)  # the tables still wait their turn


def test_bot_workers_claim_the_turns_of_games_people_play_first(sqlite_url: str) -> None:
    """Bot workers (``bots="workers"``): owed turns of bot-only tables are claimed after every
    other game's, and fill at most half of the turns one worker plays at once."""
    with make_client(sqlite_url, bots="workers", max_bot_tables=0) as client:
        tables = [create(client, [HEURISTIC, HEURISTIC], **SLOW)["id"] for _ in range(3)]
        people = create(client, [HEURISTIC, {"kind": "human"}], you=1, **SLOW)["id"]
    worker = BotWorker(Settings(db=sqlite_url, bots="workers", worker_games=4))

    async def claim() -> list[tuple[str, int, bool]]:
        try:
            return await worker._claim(4)
        finally:
            await asyncio.to_thread(worker.games.writer.close)
            worker.games.storage.close()

    claimed = run_async(claim())
    assert claimed[0] == (people, 0, False)  # created last, claimed first
    assert len(claimed) == 3 and {c[0] for c in claimed[1:]} < set(tables)  # two of the three
    assert all(bot_only for _, _, bot_only in claimed[1:])


def test_a_resumed_bot_only_table_still_waits_behind_games_people_play(sqlite_url: str) -> None:
    """Whether a table is bot-only follows from its stored seats: after a restart its bots still
    think in the bot-only share of the slots."""
    with make_client(sqlite_url, max_bot_seconds=0.3) as client:
        create(client, [ISMCTS, ISMCTS], bot_delay=0)
    with make_client(sqlite_url, bot_threads=2, max_bot_seconds=0.3) as client:
        queue = client.app.state.service.bots.queue  # type: ignore[attr-defined]
        wait_for(lambda: queue.busy_bot_only == 1)
        assert queue.bot_only_slots == 1 and queue.busy_bot_only <= 1
