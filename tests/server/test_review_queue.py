"""Reviews computed by bot workers (candlebox/server/reviewing.py), in one test process: two web
services and a worker on one database (SQLite stands in for PostgreSQL here; the real processes are in
tests/server/test_shared_processes.py)."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

from candlebox import analysis
from candlebox.server import bodies, reviewing
from candlebox.server.service import GameService
from candlebox.server.storage import Storage
from candlebox.server.worker import BotWorker
from tests.server.sharing import run, settings, spec


async def finished_game(service: GameService, rng: random.Random) -> str:
    """A two-player game played to its end with random legal moves; returns its id."""
    made = await service.create(
        spec([{"kind": "human"}, {"kind": "human"}], options={"max_turns": 4})
    )
    game = made["id"]
    await service.seating.claim(game, 1, bodies.ClaimSpec(name="Bo", invite=None))
    live = await service.any_game(game)
    while not live.over:
        seat = live.state.to_act[0]
        action = rng.choice(live.state.legal_actions(seat))
        await service.moves.submit(game, seat, action, live.moves)
    return str(game)


def test_a_queued_review_waits_for_a_worker_survives_its_death_and_is_read_anywhere(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        chosen = settings(tmp_path, bots="workers", bot_lease=0.4, review_seconds=0.01)
        a, b = GameService(chosen), GameService(chosen)
        await a.start()
        await b.start()
        try:
            game = await finished_game(a, random.Random(2))
            asked = await a.coach.start_review(game, 0)
            assert asked["status"] == "running" and asked["queued"] is True, asked
            assert asked["position"] == 1  # the first waiting: next for a worker
            total = asked["total"]
            assert total >= 2 and asked["done"] == 0
            await asyncio.sleep(0.3)  # no worker: nothing happens, in either process
            assert (await b.coach.review(game, 0))["queued"] is True
            assert a.coach.reviews == {}  # not computed in the web process
            storage = Storage(chosen.db)
            try:
                # a worker claims it, reviews one decision and dies
                with storage.engine.begin() as conn:
                    jobs = reviewing.claim(conn, "dead", time.time(), 0.4, 5)
                assert [(j.game_id, j.seat, j.total) for j in jobs] == [(game, 0, total)]
                live = await a.any_game(game)
                first = reviewing.review_one(live.state.to_json(), 0, _numbers(live)[0], 0.01)
                # A lease long enough that a loaded machine cannot run it out between these lines
                # (a 0.4 s one did, once, at load 27); its end is then brought forward instead of
                # waited for: the dead worker's last word was a lease that is over now.
                with storage.engine.begin() as conn:
                    assert reviewing.record_progress(
                        conn, game, 0, "dead", [first], time.time() + 600
                    )
                    # held: no other worker gets it meanwhile
                    assert reviewing.claim(conn, "other", time.time(), 0.4, 5) == []
                seen = await b.coach.review(game, 0)  # its progress, through the other process
                assert (seen["done"], seen["queued"], seen["position"]) == (1, False, 0), seen
                with storage.engine.begin() as conn:  # the lease runs out
                    assert reviewing.record_progress(
                        conn, game, 0, "dead", [first], time.time() - 1
                    )
                worker = BotWorker(chosen, name="alive")
                stop = asyncio.Event()
                running = asyncio.create_task(worker.run(stop))
                for _ in range(400):
                    await asyncio.sleep(0.05)
                    if worker.reviewer.reviewed:
                        break
                stop.set()
                await running
                assert worker.reviewer.reviewed == 1
            finally:
                storage.close()
            done = await b.coach.review(game, 0)
            assert done["status"] == "done", done
            decisions = done["review"]["decisions"]
            assert len(decisions) == total and decisions[0] == first  # carried on, not redone
            assert await a.coach.review(game, 0) == done
            again = await b.coach.start_review(game, 0)  # stored: never queued again
            assert again == done
        finally:
            await a.stop()
            await b.stop()

    run(scenario())


def _numbers(live: Any) -> list[int]:
    return analysis.decisions_of(live.state.to_json(), 0)
