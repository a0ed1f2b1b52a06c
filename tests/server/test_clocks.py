"""Clocks (issue 35; docs/server.md, "Clocks"): chosen at creation within limits, kept by the server
(an injected time: ``Settings.clock_now``, moved by the test, so days pass without waiting), shown to
every seat and spectator, a seat out of time marked by the watcher and handed to its bot by another
player (a rated table: it loses on time, tests/server/test_lost_on_time.py)."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from candlebox.server import clocks
from candlebox.server.storage import ClockRecord, SeatClock
from tests.server.clocking import TWO, FakeTime, clock_of, to_act
from tests.server.conftest import all_human, auth, create, make_client, move, state, wait_for

HOUR, DAY = 3600.0, 86400.0


@pytest.fixture
def timed(sqlite_url: str, fake_time: FakeTime) -> Iterator[TestClient]:
    with make_client(sqlite_url, clock_now=fake_time, clock_every=0.02) as client:
        yield client


def play_one(client: TestClient, game_id: str, tokens: list[str], rng: random.Random) -> int:
    """A random legal move by the seat to act; returns that seat."""
    seat = to_act(client, game_id)
    mine = state(client, game_id, tokens[seat])
    answer = move(client, game_id, tokens[seat], rng.choice(mine["legal"]), mine["move"])
    assert answer.status_code == 200, answer.text
    return seat


# ----------------------------------------------------------------------------- limits
@pytest.mark.parametrize(
    ("clock", "field"),
    [
        ({"mode": "realtime", "initial": 30}, "clock.initial"),
        ({"mode": "realtime", "initial": 4 * HOUR}, "clock.initial"),
        ({"mode": "realtime", "initial": 300, "increment": 200}, "clock.increment"),
        ({"mode": "turn-based", "per_move": 1800}, "clock.per_move"),
        ({"mode": "turn-based", "per_move": 15 * DAY}, "$.clock.per_move"),
        ({"mode": "turn-based", "per_move": "24h"}, "$.clock.per_move"),
        ({"mode": "blitz", "initial": 300}, "$.clock.mode"),
        ({"mode": "realtime"}, "initial"),
        ({"mode": "realtime", "initial": 300, "extra": 1}, "extra"),
        ({"initial": 300}, "mode"),
        ({"mode": "realtime", "initial": 0.5}, "$.clock.initial"),
        ({"mode": "realtime", "initial": -5}, "$.clock.initial"),
        ("fast", "$.clock"),
    ],
)
def test_a_clock_outside_the_limits_is_refused_naming_the_field(
    client: TestClient, clock: Any, field: str
) -> None:
    answer = client.post("/api/games", json={"game": "candle-quest", "seats": TWO, "clock": clock})
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"] == "bad-clock"
    assert field in answer.json()["message"]
    assert client.get("/api/games?list=open").json()["games"] == []  # nothing was created


@pytest.mark.parametrize(
    "clock",
    [
        {"mode": "realtime", "initial": 60},
        {"mode": "realtime", "initial": 3 * HOUR, "increment": 180},
        {"mode": "turn-based", "per_move": 12 * HOUR},
        {"mode": "turn-based", "per_move": 24 * HOUR},
        {"mode": "turn-based", "per_move": 72 * HOUR},
        {"mode": "turn-based", "per_move": 14 * DAY},
        None,
    ],
)
def test_clocks_within_the_limits_are_taken_and_shown(client: TestClient, clock: Any) -> None:
    made = create(client, TWO, you=0, clock=clock)
    game = client.get(f"/api/games/{made['id']}").json()["game"]
    assert game["clock"] == (
        None
        if clock is None
        else {**clock, "increment": clock.get("increment", 0.0)}
        if clock["mode"] == "realtime"
        else clock
    )


def test_a_practice_table_takes_any_clock_of_a_second_or_more(client: TestClient) -> None:
    made = create(client, TWO, you=0, practice=True, clock={"mode": "realtime", "initial": 1})
    assert state(client, made["id"])["clock"] == {"mode": "realtime", "initial": 1, "increment": 0}
    made = create(client, TWO, you=0, practice=True, clock={"mode": "turn-based", "per_move": 2})
    assert state(client, made["id"])["clock"] == {"mode": "turn-based", "per_move": 2}


def test_a_table_of_bots_has_no_clock(client: TestClient) -> None:
    bots = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    answer = client.post(
        "/api/games",
        json={"game": "candle-quest", "seats": bots, "clock": {"mode": "realtime", "initial": 60}},
    )
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"] == "bad-clock"
    assert "bots" in answer.json()["message"]


# ----------------------------------------------------------------------------- keeping time
def test_every_seat_and_spectator_sees_each_clock_running_down(
    timed: TestClient, fake_time: FakeTime
) -> None:
    clock = {"mode": "realtime", "initial": 300, "increment": 5}
    game_id, tokens = all_human(timed, 2, clock=clock)
    first = to_act(timed, game_id)
    fake_time.pass_(40)
    views = [state(timed, game_id, token) for token in tokens] + [state(timed, game_id)]
    for view in views:
        assert view["clock"] == {"mode": "realtime", "initial": 300, "increment": 5}
        assert clock_of(view, first) == {
            "seat": first,
            "remaining": 260,
            "running": True,
            "out_of_time": False,
        }
        assert clock_of(view, 1 - first)["running"] is False
        assert clock_of(view, 1 - first)["remaining"] == 300
    assert play_one(timed, game_id, tokens, random.Random(1)) == first
    after = state(timed, game_id)
    assert clock_of(after, first) == {
        "seat": first,
        "remaining": 265,  # 300 − 40 + the increment
        "running": first in after["view"]["pending"]["seats"],
        "out_of_time": False,
    }
    second = to_act(timed, game_id)
    if second != first:
        fake_time.pass_(7)
        assert clock_of(state(timed, game_id), second)["remaining"] == 293


def test_a_turn_based_game_over_three_days(timed: TestClient, fake_time: FakeTime) -> None:
    """24 h a move: each move gives the next seat a fresh day; a seat that lets a day pass is out
    of time, marked by the watcher and pushed to the watchers."""
    game_id, tokens = all_human(timed, 2, clock={"mode": "turn-based", "per_move": DAY})
    rng = random.Random(3)
    for hours in (5, 20, 23, 2, 11, 9):  # three days of moves, each within its day
        seat = to_act(timed, game_id)
        fake_time.pass_(hours * HOUR)
        left = clock_of(state(timed, game_id), seat)
        assert left["remaining"] == DAY - hours * HOUR and left["running"]
        assert play_one(timed, game_id, tokens, rng) == seat
        assert clock_of(state(timed, game_id), seat)["remaining"] == DAY  # reset by the move
    late = to_act(timed, game_id)
    with timed.websocket_connect(f"/ws/games/{game_id}") as socket:
        socket.send_json({"type": "hello"})
        assert socket.receive_json()["type"] == "snapshot"
        fake_time.pass_(DAY + HOUR)
        frame = socket.receive_json()
        while frame["type"] != "clocks":
            frame = socket.receive_json()
    assert clock_of(frame, late) == {
        "seat": late,
        "remaining": 0,
        "running": True,
        "out_of_time": True,
    }
    assert clock_of(state(timed, game_id, tokens[1 - late]), late)["out_of_time"] is True


def test_a_realtime_clock_runs_out_and_another_player_hands_the_seat_to_its_bot(
    timed: TestClient, fake_time: FakeTime
) -> None:
    clock = {"mode": "realtime", "initial": 2}
    game_id, tokens = all_human(timed, 2, practice=True, clock=clock)
    late = to_act(timed, game_id)
    other = tokens[1 - late]
    path = f"/api/games/{game_id}/seats/{late}/timeout"
    early = timed.post(path, headers=auth(other))
    assert early.status_code == 409, early.text
    assert early.json()["error"] == "not-out-of-time"
    assert "2 s left" in early.json()["message"]
    fake_time.pass_(2.5)
    wait_for(lambda: clock_of(state(timed, game_id), late)["out_of_time"])
    itself = timed.post(path, headers=auth(tokens[late]))
    assert itself.status_code == 403, itself.text
    assert itself.json()["error"] == "own-seat"
    spectator = timed.post(path)
    assert spectator.status_code == 403, spectator.text
    before = state(timed, game_id)
    assert before["seats"][late]["kind"] == "human"  # nothing changed
    handed = timed.post(path, headers=auth(other))
    assert handed.status_code == 200, handed.text
    assert handed.json() == {"seat": late, "kind": "bot", "status": "bot"}
    seen = state(timed, game_id)
    assert seen["seats"][late]["kind"] == "bot"
    assert clock_of(seen, late)["out_of_time"] is False  # a bot is never out of time
    # the game goes on: the bot moves (counted from before the hand-over: on a busy machine its
    # moves may all be made before the state above is read, the turn back with a human)
    wait_for(lambda: state(timed, game_id)["move"] > before["move"])
    again = timed.post(path, headers=auth(other))
    assert again.status_code == 409 and again.json()["error"] == "not-out-of-time"


def test_a_table_without_a_clock_has_nobody_out_of_time(client: TestClient) -> None:
    game_id, tokens = all_human(client, 2)
    answer = client.post(f"/api/games/{game_id}/seats/1/timeout", headers=auth(tokens[0]))
    assert answer.status_code == 409 and answer.json()["error"] == "no-clock"
    assert state(client, game_id)["clocks"] == []
    bad = client.post(f"/api/games/{game_id}/seats/99/timeout", headers=auth(tokens[0]))
    assert bad.status_code == 400 and bad.json()["error"] == "bad-seat"


# ----------------------------------------------------------------------------- the accounting
def test_a_simultaneous_choice_runs_every_choosing_seats_clock() -> None:
    """Three seats choose at once from t=100: the first to choose stops its clock at t=110 (and
    gains its increment); the two still choosing keep running from t=100, not from its move."""
    clock = ClockRecord("realtime", 60.0, 2.0, [SeatClock(60.0, 100.0) for _ in range(3)])
    seats = clocks.advance(clock, clock.seats, 0, {1, 2}, [True, True, True], 110.0)
    assert seats[0] == SeatClock(52.0, None, False)
    assert seats[1] == seats[2] == SeatClock(60.0, 100.0, False)
    # then seat 2 chooses at t=130; seat 1 still runs; the choice done, seat 0 is to act again
    seats = clocks.advance(clock, seats, 2, {1}, [True, True, True], 130.0)
    assert seats[2] == SeatClock(32.0, None, False)
    assert clocks.left(seats[1], 130.0) == 30.0
    seats = clocks.advance(clock, seats, 1, {0}, [True, True, True], 200.0)
    assert seats[1] == SeatClock(-38.0, None, True)  # it ran out while choosing
    assert seats[0] == SeatClock(52.0, 200.0, False)


def test_time_in_words() -> None:
    assert clocks.spoken(2 * DAY + 4 * HOUR + 59) == "2 d 4 h"
    assert clocks.spoken(3 * HOUR + 5 * 60) == "3 h 5 min"
    assert clocks.spoken(250) == "4 min 10 s"
    assert clocks.spoken(9.7) == "9 s"


def test_a_restarted_app_keeps_the_time_running_from_the_stored_start(
    sqlite_url: str, fake_time: FakeTime, tmp_path: Path
) -> None:
    clock = {"mode": "realtime", "initial": 600}
    with make_client(sqlite_url, clock_now=fake_time, clock_every=0) as client:
        game_id, tokens = all_human(client, 2, clock=clock)
        play_one(client, game_id, tokens, random.Random(2))
        seat = to_act(client, game_id)
        fake_time.pass_(30)
        before = clock_of(state(client, game_id), seat)["remaining"]
    fake_time.pass_(100)  # the server is down for 100 s
    with make_client(sqlite_url, clock_now=fake_time, clock_every=0) as client:
        after = clock_of(state(client, game_id), seat)
    assert after["running"] is True
    assert after["remaining"] == before - 100


def test_a_turn_based_game_is_not_closed_while_its_clock_allows(tmp_path: Path) -> None:
    """The sweep closes a game nobody moved in for ``expire_after`` (a day); a turn-based game of
    72 h a move waits its 72 h more: inline, and (the query) with bot workers."""
    from candlebox.server import bodies
    from candlebox.server.config import Settings
    from candlebox.server.service import GameService
    from tests.server.conftest import run_async

    async def scenario(bots: str) -> tuple[list[str], list[str], str, str]:
        chosen = Settings(
            db=f"sqlite:///{tmp_path / f'{bots}.sqlite3'}",
            bots=bots,
            sweep_every=0,
            clock_every=0,
            bot_processes=0,
            requests_per_second=0,
        )
        service = GameService(chosen)
        await service.start()
        try:
            made = []
            for clock in (None, {"mode": "turn-based", "per_move": 72 * HOUR}):
                body = {"game": "candle-quest", "seats": TWO, "you": 0, "clock": clock}
                spec = bodies.convert(body, bodies.CreateSpec, bodies.CREATE_CODES)
                made.append((await service.create(spec))["id"])
            if bots == "workers":
                service.registry.games.clear()  # held by no process: the query closes them
            day_later, _ = await service.sweeper.sweep(time.time() + 25 * HOUR)
            days_later, _ = await service.sweeper.sweep(time.time() + 97 * HOUR)
            return day_later, days_later, made[0], made[1]
        finally:
            await service.stop()

    for bots in ("inline", "workers"):
        day_later, days_later, plain, clocked = run_async(scenario(bots))
        assert day_later == [plain], bots
        assert days_later == [clocked], bots


def test_a_rematch_keeps_the_clock(client: TestClient) -> None:
    clock = {"mode": "turn-based", "per_move": 12 * HOUR}
    game_id, tokens = all_human(client, 2, clock=clock)
    resigned = client.post(f"/api/games/{game_id}/resign", headers=auth(tokens[0]))
    assert resigned.status_code == 200, resigned.text
    again = client.post(f"/api/games/{game_id}/rematch", headers=auth(tokens[0]))
    assert again.status_code in (200, 201), again.text
    table = client.get(f"/api/games/{again.json()['id']}").json()["game"]
    assert table["clock"] == clock


def test_a_simultaneous_choice_at_a_real_table(timed: TestClient, fake_time: FakeTime) -> None:
    """The Curse of Candelabria's secret choice waits for several seats at once: every choosing
    seat's clock runs from the start of the choice, and each stops as its seat chooses."""
    clock = {"mode": "realtime", "initial": 3 * HOUR}
    game_id, tokens = all_human(timed, 3, game="candelabria", clock=clock)
    rng = random.Random(4)
    for _ in range(300):
        choosing = state(timed, game_id)["view"]["pending"]["seats"]
        if len(choosing) > 1:
            break
        play_one(timed, game_id, tokens, rng)
    else:
        pytest.fail("no simultaneous choice came up")
    start = {seat: clock_of(state(timed, game_id), seat)["remaining"] for seat in choosing}
    fake_time.pass_(100)
    first = choosing[0]
    mine = state(timed, game_id, tokens[first])
    answer = move(timed, game_id, tokens[first], rng.choice(mine["legal"]), mine["move"])
    assert answer.status_code == 200, answer.text
    fake_time.pass_(50)
    after = state(timed, game_id)
    assert clock_of(after, first)["remaining"] == start[first] - 100
    still = after["view"]["pending"]["seats"]
    assert set(choosing[1:]) & set(still), "the others were still to choose"
    for seat in choosing[1:]:
        if seat in still:  # still choosing: running since the choice began, 150 s ago
            assert clock_of(after, seat) == {
                "seat": seat,
                "remaining": start[seat] - 150,
                "running": True,
                "out_of_time": False,
            }


def test_a_hand_over_from_another_site_is_refused(timed: TestClient, fake_time: FakeTime) -> None:
    game_id, tokens = all_human(timed, 2, practice=True, clock={"mode": "realtime", "initial": 1})
    late = to_act(timed, game_id)
    fake_time.pass_(2)
    wait_for(lambda: clock_of(state(timed, game_id), late)["out_of_time"])
    answer = timed.post(
        f"/api/games/{game_id}/seats/{late}/timeout",
        headers={**auth(tokens[1 - late]), "Origin": "https://elsewhere.example"},
    )
    assert answer.status_code == 403 and answer.json()["error"] == "cross-origin"
    assert state(timed, game_id)["seats"][late]["kind"] == "human"
