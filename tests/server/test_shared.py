"""Two services on one database (as two processes would be), in one test process: a stale copy of a
game catches up from the moves table and takes the move; bot workers claim owed turns with a lease;
``/healthz`` and ``/metrics``."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from candlebox.server import create_app, processes
from candlebox.server.errors import Rejected
from candlebox.server.service import GameService
from candlebox.server.storage import Storage, bot_turns
from candlebox.server.worker import BotWorker
from tests.server.sharing import claimed_across, run, settings, spec, two_services


async def first_legal(service: GameService, game: str, seat: int) -> tuple[str, int]:
    live = await service.any_game(game)
    return live.state.legal_actions(seat)[0], live.moves


def test_a_stale_process_catches_up_and_takes_the_move(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with two_services(tmp_path) as (a, b):
            game, _ = await claimed_across(a, b)
            live_a = await a.any_game(game)
            seat = live_a.state.to_act[0]
            action, number = await first_legal(b, game, seat)
            assert await b.moves.submit(game, seat, action, number) == 0  # B records move 0
            # A still holds the game at move 0: the same move again is a conflict in the database,
            # caught up and refused as what it is, never applied twice
            with pytest.raises(Rejected) as refused:
                await a.moves.submit(game, seat, action, 0)
            assert refused.value.code == "duplicate"
            assert live_a.moves == 1
            # a client that saw move 0 through B answers move 1 through A: accepted
            mover = (await b.any_game(game)).state.to_act[0]
            follow, number = await first_legal(b, game, mover)
            assert await a.moves.submit(game, mover, follow, number) == 1
            storage = Storage(a.settings.db)
            try:
                assert [m.action for m in storage.moves_of(game)] == [action, follow]
            finally:
                storage.close()

    run(scenario())


def test_a_heard_move_is_applied_without_reading_the_tables_unless_the_copy_is_behind(
    tmp_path: Path,
) -> None:
    """A move notification carries the move: a process holding the game at that move applies it
    and broadcasts with no read of the moves table; one whose copy is behind (a notification lost)
    reads what it missed; one that hears a move its copy refuses reloads the game."""

    async def scenario() -> None:
        async with two_services(tmp_path) as (a, b):
            reads: list[str] = []
            since = a.registry.storage.since

            def counted(game_id: str, number: int) -> Any:
                reads.append(f"since {number}")
                return since(game_id, number)

            a.registry.storage.since = counted  # type: ignore[method-assign]
            made = await a.create(spec([{"kind": "human"}, {"kind": "human"}]))
            game = made["id"]
            live_a = await a.any_game(game)
            await b.any_game(game)

            async def move_through_b() -> str:
                seat = (await b.any_game(game)).state.to_act[0]
                action, number = await first_legal(b, game, seat)
                assert await b.moves.submit(game, seat, action, number) == number
                return f"{number} {seat} {action}"

            async def hear(what: str) -> None:
                a.catching.heard(game, what)
                await asyncio.gather(*a.catching.tasks)

            await hear(await move_through_b())
            assert (live_a.moves, reads) == (1, [])  # applied as heard
            # a number alone: read, from the copy's last move (still there: nothing taken back)
            await hear((await move_through_b()).split(" ")[0])
            assert (live_a.moves, reads) == (2, ["since 0"])
            await move_through_b()  # its notification is lost ...
            await hear(await move_through_b())  # ... so the next one finds the copy behind
            assert (live_a.moves, reads) == (4, ["since 0", "since 1"])
            await hear("3 0 flip")  # an old one: nothing to do
            assert (live_a.moves, len(reads)) == (4, 2)
            assert live_a.state.history == (await b.any_game(game)).state.history
            await hear("4 9 nonsense")  # a move this copy refuses: reloaded from the tables
            assert live_a.moves == 4
            assert live_a.state.history == (await b.any_game(game)).state.history

    run(scenario())


def test_bots_wait_for_a_worker_and_a_lost_lease_is_claimed_again(tmp_path: Path) -> None:
    async def scenario() -> None:
        chosen = settings(tmp_path, bots="workers", bot_lease=0.3)
        web = GameService(chosen)
        await web.start()
        try:
            made = await web.create(
                spec([{"kind": "bot", "bot": "random"}, {"kind": "human"}], you=1, bot_delay=0.0)
            )
            game = made["id"]
            await asyncio.sleep(0.3)
            assert (await web.any_game(game)).moves == 0  # no bot thinks in the web process
            storage = Storage(chosen.db)
            try:
                # a worker that claimed the turn and died: its lease runs out, then it is free
                with storage.engine.begin() as conn:
                    taken = Storage.claim_bot_turns(conn, "dead", time.time(), 0.3, 10)
                assert taken == [(game, 0)]
                with storage.engine.begin() as conn:  # held: nobody else gets it meanwhile
                    assert Storage.claim_bot_turns(conn, "other", time.time(), 0.3, 10) == []
                await asyncio.sleep(0.35)
                worker = BotWorker(chosen, name="alive")
                stop = asyncio.Event()
                running = asyncio.create_task(worker.run(stop))
                for _ in range(200):
                    await asyncio.sleep(0.05)
                    if worker.played:
                        break
                stop.set()
                await running
                assert worker.played >= 1
                stored = storage.moves_of(game)
                assert stored and stored[0].seat == 0
                with storage.engine.connect() as conn:  # nothing left owed at the player's turn
                    rows = conn.execute(bot_turns.select()).all()
                assert all(row.number >= len(stored) for row in rows)
            finally:
                storage.close()
        finally:
            await web.stop()

    run(scenario())


def test_healthz_and_metrics(tmp_path: Path) -> None:
    with TestClient(create_app(settings(tmp_path))) as client:
        health = client.get("/healthz")
        assert health.status_code == 200 and health.json() == {"status": "ok"}
        # the test client's address is not loopback: refused as if there were no such page
        assert client.get("/metrics").status_code == 404
    with TestClient(create_app(settings(tmp_path, metrics_from=("testclient",)))) as client:
        created = client.post(
            "/api/games",
            json={"game": "candle-quest", "seats": [{"kind": "human"}] * 2, "you": 0},
        ).json()
        text = client.get("/metrics").text
        assert "candlebox_moves_total{" in text and "candlebox_move_seconds_bucket{" in text
        assert 'candlebox_connected_clients{process="' in text
        # through a proxy (a forwarded header): refused even from an allowed address
        forwarded = client.get("/metrics", headers={"X-Forwarded-For": "203.0.113.9"})
        assert forwarded.status_code == 404
        assert created["id"]


def test_several_processes_refuse_sqlite_and_logs_can_be_json(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="PostgreSQL"):
        processes.check_shared(settings(tmp_path), workers=2)
    with pytest.raises(ValueError, match="PostgreSQL"):
        processes.check_shared(settings(tmp_path, bots="workers"), workers=1)
    processes.check_shared(settings(tmp_path), workers=1)  # one process on SQLite: as ever
    record = logging.LogRecord(
        "candlebox.server", logging.WARNING, "x", 1, "game %s: %d", ("g", 3), None
    )
    line = json.loads(processes.JsonLines().format(record))
    assert line["level"] == "warning" and line["message"] == "game g: 3"
    assert line["logger"] == "candlebox.server" and isinstance(line["time"], float)


def test_with_bot_workers_a_quiet_game_nobody_holds_is_closed(tmp_path: Path) -> None:
    async def scenario() -> None:
        chosen = settings(tmp_path, bots="workers", expire_after=60.0)
        first = GameService(chosen)
        await first.start()
        made = await first.create(spec([{"kind": "human"}, {"kind": "human"}]))
        await first.stop()
        later = GameService(chosen)  # a process that never loaded the game
        await later.start()
        try:
            closed, _ = await later.sweeper.sweep(time.time() + 61)
            assert made["id"] in closed
            with pytest.raises(Rejected) as gone:
                await later.any_game(made["id"])
            assert gone.value.code == "closed"
        finally:
            await later.stop()

    run(scenario())
