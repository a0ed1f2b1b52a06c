"""What a take-back removes from the tables (candlebox/server/takeback_cut.py; docs/server.md,
"Take-backs"): the moves and everything recorded about them, in one transaction — owed bot turns,
stand-ins, hints, the clocks — and, on PostgreSQL, a take-back and a move of the same game one after
the other, never both: whichever comes second is refused with MoveConflict and writes nothing."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from sqlalchemy import insert, select, text

import candlebox
from candlebox.engine import State
from candlebox.server.storage import (
    ClockRecord,
    GameRecord,
    MoveConflict,
    MoveRecord,
    SeatClock,
    SeatRecord,
    Storage,
    bot_turns,
    hints_given,
    seat_clocks,
    stand_ins,
    take_backs,
)
from candlebox.server.takeback_cut import Cut
from tests.server.conftest import wait_for

GAME = "candle-quest"
NOW = 1_800_000_000.0
T0 = NOW - 30.0  # when seat 1's clock started running


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest) -> str:
    if request.param == "sqlite":
        return str(request.getfixturevalue("sqlite_url"))
    return str(request.getfixturevalue("postgres_url"))


def played(moves: int, seed: int = 3) -> State:
    """A two-player game after ``moves`` random moves."""
    state = candlebox.new_game(GAME, players=2, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def replayed(state: State, moves: int) -> State:
    again = candlebox.new_game(GAME, players=2, seed=state.seed)
    for seat, action in state.history[:moves]:
        again.apply(seat, action)
    return again


def stored_game(storage: Storage, state: State, clock: ClockRecord | None = None) -> None:
    game = GameRecord(
        id="g1",
        game=GAME,
        variant=state.variant,
        players=2,
        options=dict(state.options),
        seed=state.seed,
        public=True,
        bot_delay=0.0,
        seats=[SeatRecord(0, "human", "Ann", token_hash="a" * 64), SeatRecord(1, "bot", "Bot")],
        clock=clock,
    )
    with storage.engine.begin() as conn:
        Storage.insert_game(conn, game)
        for number, (seat, action) in enumerate(state.history):
            Storage.insert_move(conn, "g1", MoveRecord(number, seat, action))


def cut(state: State, keep: int, clock: ClockRecord | None = None, owes: bool = False) -> Cut:
    return Cut(
        game_id="g1",
        at=len(state.history),
        keep=keep,
        after=replayed(state, keep),
        removed=list(state.history[keep:]),
        owes_bot=owes,
        clock=clock,
        runs=[True, True],
        now=NOW,
    )


def rows(storage: Storage, query: Any) -> list[tuple[Any, ...]]:
    with storage.engine.connect() as conn:
        return [tuple(row) for row in conn.execute(query)]


def test_a_take_back_trims_every_record_of_the_moves_it_removes(url: str) -> None:
    state = played(6)
    clock = ClockRecord("realtime", 60.0, 5.0, [SeatClock(50.0), SeatClock(100.0, T0)])
    storage = Storage(url)
    try:
        stored_game(storage, state, clock)
        with storage.engine.begin() as conn:
            conn.execute(
                insert(take_backs).values(
                    game_id="g1", seat=0, at_move=6, moves=3, accepted="", asked_at=0.0
                )
            )
            conn.execute(insert(bot_turns).values(game_id="g1", number=6, lease_until=0.0))
            spans = [(0, 1), (2, 4), (4, 5), (5, None)]  # seat 1's bot for its player
            for start, end in spans:
                conn.execute(
                    insert(stand_ins).values(game_id="g1", seat=1, from_move=start, until_move=end)
                )
            for move in (1, 3, 5):
                conn.execute(insert(hints_given).values(game_id="g1", seat=0, move=move, at=0.0))
        done = cut(state, 3, clock)
        with storage.engine.begin() as conn:
            done.write(conn)

        assert [m.number for m in storage.moves_of("g1")] == [0, 1, 2]
        assert rows(storage, select(take_backs)) == []
        assert rows(storage, select(bot_turns)) == [], "no bot is owed a turn past the new end"
        assert sorted(rows(storage, select(stand_ins.c.from_move, stand_ins.c.until_move))) == [
            (0, 1),  # before the moves taken back: kept
            (2, 3),  # ended among them: ends at the new end
            (3, None),  # began among them and goes on: the bot plays from the new end
        ]  # (4, 5), wholly among them, is gone
        assert rows(storage, select(hints_given.c.move).order_by(hints_given.c.move)) == [
            (1,),
            (3,),  # the decision the game is back at: its hint stands
        ]
        earned = [sum(1 for seat, _ in state.history[3:] if seat == n) for n in (0, 1)]
        waiting = set(done.after.to_act)
        expected = []
        for seat, before in enumerate(clock.seats):
            left = before.remaining - 5.0 * earned[seat]  # no increment for a move taken back
            if seat in waiting:  # runs: seat 1 on from its start, seat 0 from now
                expected.append((left, before.since if before.since is not None else NOW, False))
            else:  # stops, with the time it spent
                spent = 0.0 if before.since is None else NOW - before.since
                expected.append((left - spent, None, False))
        got = rows(
            storage,
            select(
                seat_clocks.c.remaining, seat_clocks.c.since, seat_clocks.c.out_of_time
            ).order_by(seat_clocks.c.seat),
        )
        assert [(r, s, bool(o)) for r, s, o in got] == expected
        assert [(s.remaining, s.since, s.out_of_time) for s in done.seats] == expected
        loaded = storage.load_game("g1")
        assert loaded is not None and [h[1] for h in loaded[0].hints_given] == [1, 3]
    finally:
        storage.close()


def test_a_bot_to_act_after_a_take_back_is_owed_its_turn(url: str) -> None:
    state = played(5)
    storage = Storage(url)
    try:
        stored_game(storage, state)
        with storage.engine.begin() as conn:
            conn.execute(insert(bot_turns).values(game_id="g1", number=5, lease_until=9e9))
        with storage.engine.begin() as conn:
            cut(state, 2, owes=True).write(conn)
        assert rows(storage, select(bot_turns.c.number, bot_turns.c.lease_until)) == [(2, 0.0)]
    finally:
        storage.close()


def test_a_take_back_of_a_game_that_moved_on_is_refused(url: str) -> None:
    """The take-back was worked out at move 4; the tables have move 4 already (another process):
    MoveConflict, and nothing is removed."""
    state = played(5)
    storage = Storage(url)
    try:
        stored_game(storage, state)
        stale = cut(replayed(state, 4), 2)
        with pytest.raises(MoveConflict), storage.engine.begin() as conn:
            stale.write(conn)
        assert len(storage.moves_of("g1")) == 5
    finally:
        storage.close()


def waiting_on_a_lock(storage: Storage) -> bool:
    with storage.engine.connect() as conn:
        found = conn.execute(
            text(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                "AND datname = current_database()"
            )
        ).scalar_one()
    return bool(found)


def test_a_move_waits_for_a_take_back_and_then_is_refused(postgres_url: str) -> None:
    """PostgreSQL: a take-back holds the game's row while it removes moves 2 and 3; a move 4
    recorded meanwhile by another process waits for it, then finds move 3 gone: refused."""
    state = played(4)
    storage, other = Storage(postgres_url), Storage(postgres_url)
    try:
        stored_game(storage, state)
        with storage.engine.connect() as conn, ThreadPoolExecutor(1) as pool:
            taking = conn.begin()
            cut(state, 2).write(conn)

            def move() -> None:
                with other.engine.begin() as moving:
                    Storage.record_move(moving, "g1", MoveRecord(4, 0, "x"), owe_next=False)

            recorded = pool.submit(move)
            wait_for(lambda: waiting_on_a_lock(storage))
            assert not recorded.done(), "the move waits for the take-back"
            taking.commit()
            with pytest.raises(MoveConflict):
                recorded.result(timeout=20)
        assert [m.number for m in storage.moves_of("g1")] == [0, 1]
    finally:
        storage.close()
        other.close()


def test_a_take_back_waits_for_a_move_and_then_is_refused(postgres_url: str) -> None:
    """PostgreSQL: a move 4 holds the game's row (shared) until it commits; a take-back worked
    out at move 4 waits for it, then finds five moves: refused, and the move stands."""
    state = played(5)
    storage, other = Storage(postgres_url), Storage(postgres_url)
    try:
        stored_game(storage, replayed(state, 4))
        seat, action = state.history[4]
        with storage.engine.connect() as conn, ThreadPoolExecutor(1) as pool:
            moving = conn.begin()
            Storage.record_move(conn, "g1", MoveRecord(4, seat, action), owe_next=False)

            def take_back() -> None:
                with other.engine.begin() as taking:
                    cut(replayed(state, 4), 2).write(taking)

            cutting = pool.submit(take_back)
            wait_for(lambda: waiting_on_a_lock(storage))
            assert not cutting.done(), "the take-back waits for the move"
            moving.commit()
            with pytest.raises(MoveConflict):
                cutting.result(timeout=20)
        assert [m.number for m in storage.moves_of("g1")] == [0, 1, 2, 3, 4]
    finally:
        storage.close()
        other.close()
