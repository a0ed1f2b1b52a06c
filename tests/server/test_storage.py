"""The storage layer against SQLite and a real PostgreSQL server: records, moves in order, the unique
(game, move number) constraint, group commit with a failure inside a batch, and two writers."""

from __future__ import annotations

import asyncio
import concurrent.futures
from typing import Any

import pytest
from sqlalchemy import delete, inspect, select, update

from candlebox.server.storage import (
    CHANNEL,
    GameRecord,
    MoveConflict,
    MoveRecord,
    SeatRecord,
    Storage,
    Writer,
    bot_turns,
    database_url,
    metadata,
    move_payload,
    moves,
)
from tests.server.pg import start_together


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest) -> str:
    if request.param == "sqlite":
        return str(request.getfixturevalue("sqlite_url"))
    return str(request.getfixturevalue("postgres_url"))


def record(game_id: str = "g1", status: str = "live") -> GameRecord:
    return GameRecord(
        id=game_id,
        game="candle-quest",
        variant="basic",
        players=2,
        options={"max_turns": 1000, "deck": None},
        seed=(1 << 62) + 7,  # seeds are 63-bit
        public=True,
        bot_delay=0.5,
        status=status,
        seats=[
            SeatRecord(0, "human", "Ann", token_hash="a" * 64),
            SeatRecord(1, "bot", "Bot", bot="heuristic", params={"epsilon": 0.3}),
        ],
    )


def run(coro: Any) -> Any:
    """Run a coroutine on a fresh loop in its own thread: a browser test sharing this worker process
    may hold Playwright's event loop open on the main thread, where asyncio.run would refuse."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()


def test_database_url_forms() -> None:
    assert database_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url("sqlite:///x.db") == "sqlite:///x.db"
    assert database_url("games.sqlite3").startswith("sqlite:////")


def test_a_game_and_its_moves_round_trip(url: str) -> None:
    storage = Storage(url)
    try:
        with storage.engine.begin() as conn:
            Storage.insert_game(conn, record())
            for n, action in enumerate(["flip", "buy", "flip"]):
                Storage.insert_move(conn, "g1", MoveRecord(n, n % 2, action))
        loaded = storage.load_game("g1")
        assert loaded is not None
        game, moves = loaded
        assert (game.game, game.variant, game.players, game.seed) == (
            "candle-quest",
            "basic",
            2,
            (1 << 62) + 7,
        )
        assert game.options == {"max_turns": 1000, "deck": None}
        assert [(s.seat, s.kind, s.name, s.bot, s.params) for s in game.seats] == [
            (0, "human", "Ann", None, {}),
            (1, "bot", "Bot", "heuristic", {"epsilon": 0.3}),
        ]
        assert game.seats[0].token_hash == "a" * 64
        assert [m.action for m in moves] == ["flip", "buy", "flip"]
        assert storage.live_game_ids() == ["g1"]
        assert storage.load_game("nope") is None
    finally:
        storage.close()


def test_move_numbers_are_unique_per_game(url: str) -> None:
    storage = Storage(url)
    try:
        with storage.engine.begin() as conn:
            Storage.insert_game(conn, record())
            Storage.insert_move(conn, "g1", MoveRecord(0, 0, "flip"))
        with pytest.raises(MoveConflict), storage.engine.begin() as conn:
            Storage.insert_move(conn, "g1", MoveRecord(0, 1, "pass"))
        assert [m.action for m in storage.moves_of("g1")] == ["flip"]
    finally:
        storage.close()


def bot_turn(storage: Storage, game_id: str) -> tuple[int, float, str | None] | None:
    with storage.engine.connect() as conn:
        row = conn.execute(
            select(bot_turns.c.number, bot_turns.c.lease_until, bot_turns.c.worker).where(
                bot_turns.c.game_id == game_id
            )
        ).first()
    return None if row is None else (row.number, row.lease_until, row.worker)


def test_recording_a_move_owes_the_bot_turn_and_notifies_in_one_go(url: str) -> None:
    """``record_move`` (one statement on PostgreSQL): the move, the next bot turn owed (new, then
    moved on, its lease cleared), the notification only once the transaction commits; a duplicate
    move number changes nothing, the bot turn included."""
    storage = Storage(url)
    listener = None
    if storage.engine.dialect.name == "postgresql":
        import psycopg

        dsn = url.replace("postgresql+psycopg://", "postgresql://")
        listener = psycopg.connect(dsn, autocommit=True)
        listener.execute(f"LISTEN {CHANNEL}")
    try:
        with storage.engine.begin() as conn:
            Storage.insert_game(conn, record())
            Storage.record_move(conn, "g1", MoveRecord(0, 0, "flip"), owe_next=False)
        assert bot_turn(storage, "g1") is None
        with storage.engine.begin() as conn:
            Storage.record_move(conn, "g1", MoveRecord(1, 1, "buy"), owe_next=True)
        assert bot_turn(storage, "g1") == (2, 0.0, None)
        with storage.engine.begin() as conn:  # a worker holds the turn's lease
            conn.execute(update(bot_turns).values(lease_until=1e12, worker="w1"))
        with storage.engine.begin() as conn:
            Storage.record_move(conn, "g1", MoveRecord(2, 0, "flip"), owe_next=True)
        assert bot_turn(storage, "g1") == (3, 0.0, None)
        with pytest.raises(MoveConflict), storage.engine.begin() as conn:
            Storage.record_move(conn, "g1", MoveRecord(2, 1, "pass"), owe_next=True)
        assert bot_turn(storage, "g1") == (3, 0.0, None)
        assert [(m.seat, m.action) for m in storage.moves_of("g1")] == [
            (0, "flip"),
            (1, "buy"),
            (0, "flip"),
        ]
        if listener is not None:
            heard = [n.payload for n in listener.notifies(timeout=1.0, stop_after=3)]
            # each carries its move, so listeners need not read it; none for the refused duplicate
            assert heard == ["g1 0 0 flip", "g1 1 1 buy", "g1 2 0 flip"]
    finally:
        if listener is not None:
            listener.close()
        storage.close()


def test_a_move_too_long_to_carry_is_notified_by_its_number_alone() -> None:
    assert move_payload("g1", MoveRecord(4, 2, "auction 3")) == "g1 4 2 auction 3"
    assert move_payload("g1", MoveRecord(4, 2, "x" * 8000)) == "g1 4"


def test_group_commit_isolates_a_failing_operation(url: str) -> None:
    """Many operations queued at once share transactions; a conflict fails only its own."""
    storage = Storage(url)

    async def scenario() -> list[Any]:
        writer = Writer(storage)
        try:
            await writer.run(lambda c: Storage.insert_game(c, record()))
            ops = [
                writer.run(lambda c, n=n: Storage.insert_move(c, "g1", MoveRecord(n, 0, f"m{n}")))
                for n in range(20)
            ]
            ops.insert(7, writer.run(lambda c: Storage.insert_move(c, "g1", MoveRecord(3, 1, "x"))))
            return await asyncio.gather(*ops, return_exceptions=True)
        finally:
            writer.close()

    try:
        results = run(scenario())
        failures = [r for r in results if isinstance(r, Exception)]
        assert len(failures) == 1 and isinstance(failures[0], MoveConflict)
        moves = storage.moves_of("g1")
        assert [m.number for m in moves] == list(range(20))
        assert moves[3].action in ("m3", "x")
    finally:
        storage.close()


def test_two_writers_race_for_the_same_move(url: str) -> None:
    """Two servers (two Storage objects) on one database: exactly one records move 0."""
    first, second = Storage(url), Storage(url)

    async def scenario() -> list[Any]:
        w1, w2 = Writer(first), Writer(second)
        try:
            await w1.run(lambda c: Storage.insert_game(c, record()))
            return await asyncio.gather(
                w1.run(lambda c: Storage.insert_move(c, "g1", MoveRecord(0, 0, "flip"))),
                w2.run(lambda c: Storage.insert_move(c, "g1", MoveRecord(0, 0, "loot 1"))),
                return_exceptions=True,
            )
        finally:
            w1.close()
            w2.close()

    try:
        results = run(scenario())
        assert sum(isinstance(r, MoveConflict) for r in results) == 1
        assert len(first.moves_of("g1")) == 1
    finally:
        first.close()
        second.close()


def test_status_seats_and_finished_listing(url: str) -> None:
    storage = Storage(url)
    try:
        with storage.engine.begin() as conn:
            Storage.insert_game(conn, record("g1"))
            Storage.insert_game(conn, record("g2"))
            Storage.set_status(conn, "g2", "over", {"winners": [1], "scores": [0.0, 1.0]})
            Storage.update_seat(conn, "g1", 0, kind="bot", bot="random", params={})
            assert not Storage.claim_seat(conn, "g1", 1, "Zed", "b" * 64)  # a bot's seat
        assert storage.live_game_ids() == ["g1"]
        finished = storage.finished_games(10)
        assert [g.id for g in finished] == ["g2"]
        assert finished[0].result == {"winners": [1], "scores": [0.0, 1.0]}
        loaded = storage.load_game("g1")
        assert loaded is not None and loaded[0].seats[0].kind == "bot"
    finally:
        storage.close()


def test_processes_starting_together_on_a_fresh_database_all_start(url: str) -> None:
    # `serve --workers N` on an empty PostgreSQL: every process creates the missing tables at the
    # same moment; without the schema lock PostgreSQL refuses all but one (a duplicate row type)
    start_together(url, starters=6)  # raises the refused one's error
    storage = Storage(url)
    try:
        assert set(inspect(storage.engine).get_table_names()) == {
            *metadata.tables,
            "alembic_version",
        }
    finally:
        storage.close()


def test_a_move_without_the_one_before_it_is_refused(url: str) -> None:
    """Move *n* is recorded only after move *n - 1* (issue 35: a take-back elsewhere may just have
    removed it): ``insert_move`` and ``record_move`` both refuse with MoveConflict and write
    nothing, so a game's moves never have a gap and it always replays."""
    storage = Storage(url)
    try:
        with storage.engine.begin() as conn:
            Storage.insert_game(conn, record())
            Storage.insert_move(conn, "g1", MoveRecord(0, 0, "flip"))
            Storage.insert_move(conn, "g1", MoveRecord(1, 1, "buy"))
        for insert_one in (
            lambda c, m: Storage.insert_move(c, "g1", m),
            lambda c, m: Storage.record_move(c, "g1", m, owe_next=True),
        ):
            with pytest.raises(MoveConflict, match="move 2"), storage.engine.begin() as conn:
                insert_one(conn, MoveRecord(3, 0, "flip"))
        with storage.engine.begin() as conn:  # a take-back removes move 1
            conn.execute(delete(moves).where(moves.c.game_id == "g1", moves.c.number >= 1))
        with pytest.raises(MoveConflict), storage.engine.begin() as conn:
            Storage.record_move(conn, "g1", MoveRecord(2, 0, "flip"), owe_next=True)
        assert [m.number for m in storage.moves_of("g1")] == [0]
        assert bot_turn(storage, "g1") is None, "nothing of the refused move is written"
        with storage.engine.begin() as conn:  # the move after the last one is recorded
            Storage.record_move(conn, "g1", MoveRecord(1, 1, "pass"), owe_next=False)
        assert [(m.number, m.action) for m in storage.moves_of("g1")] == [(0, "flip"), (1, "pass")]
    finally:
        storage.close()
