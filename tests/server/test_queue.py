"""Quick play through the API (candlebox/server/matchmaking.py, routes/quickplay.py; docs/server.md,
"Quick play"): tickets matched into one table with distinct seats, the rating window widening as
players wait (an injected clock: the tests wait for the matchmaker's rounds, never for time), bots
after the wait a player chose, cancelling, expiry, hostile input, the per-client cap, the seat's
credential handed over once, and a match kept across a restart."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from candlebox.server import ratings
from candlebox.server.matchmaking import (
    STARTING_MU,
    Matchmaker,
    Ticket,
    Window,
    plan,
)
from candlebox.server.storage import queue_tickets
from tests.server.conftest import auth, make_client, wait_for
from tests.server.test_accounts import HERE, PASSWORD, as_player, rows, signed_up

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

QUICK = {"trusted_proxies": ("testclient",), "queue_every": 0.05}  # X-Forwarded-For: the client


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with make_client(sqlite_url, **QUICK) as test_client:
        test_client.headers.update(HERE)
        yield test_client


class Clock:
    """The matchmaker's clock, moved by the test."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@dataclass(frozen=True)
class Fixed:
    mu: float


def matchmaker(client: TestClient) -> Matchmaker:
    found: Matchmaker = client.app.state.service.matchmaker  # type: ignore[attr-defined]
    return found


def from_address(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


def enter(client: TestClient, address: str = "10.0.0.1", **body: Any) -> Any:
    wanted = {"game": "candle-quest", "players": 2, **body}
    return client.post("/api/queue", json=wanted, headers=from_address(address))


def ticket_of(client: TestClient, address: str = "10.0.0.1", **body: Any) -> str:
    answer = enter(client, address, **body)
    assert answer.status_code == 201, answer.text
    return str(answer.json()["ticket"])


def look(client: TestClient, ticket: str) -> dict[str, Any]:
    answer = client.get(f"/api/queue/{ticket}")
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def matched(client: TestClient, ticket: str) -> dict[str, Any]:
    """The ticket's first look once matched (the one that carries the seat's credential)."""
    return wait_for(lambda: (now := look(client, ticket))["status"] == "matched" and now)  # type: ignore[no-any-return]


def a_round_at(client: TestClient, clock: Clock, now: float) -> None:
    """Move the clock, then wait until the matchmaker has run a whole round at that time."""
    clock.now = now
    rounds_pass(client)


def rounds_pass(client: TestClient) -> None:
    """Wait until the matchmaker has run a whole round from now."""
    seen = matchmaker(client).rounds
    wait_for(lambda: matchmaker(client).rounds >= seen + 2)  # one may have begun before


# ----------------------------------------------------------------------------- matching
def test_two_tickets_are_matched_into_one_table_with_distinct_seats(client: TestClient) -> None:
    first = ticket_of(client, "10.0.0.1")
    assert look(client, first)["status"] == "waiting"
    second = ticket_of(client, "10.0.0.2")
    one, two = matched(client, first), matched(client, second)
    assert one["game"] == two["game"] is not None
    assert {one["seat"], two["seat"]} == {0, 1}
    assert one["token"] and two["token"] and one["token"] != two["token"]
    for answer in (one, two):
        frame = client.get(f"/api/games/{answer['game']}/state", headers=auth(answer["token"]))
        assert frame.status_code == 200, frame.text
        assert frame.json()["you"] == answer["seat"]
    seats = client.get(f"/api/games/{one['game']}").json()["seats"]
    assert [(seat["kind"], seat["taken"]) for seat in seats] == [("human", True)] * 2
    # the credential is handed over once: a later look names the seat, not its credential
    again = look(client, first)
    assert (again["status"], again["game"], again["seat"], again["token"]) == (
        "matched",
        one["game"],
        one["seat"],
        None,
    )


def test_many_tickets_make_tables_seating_nobody_twice(client: TestClient) -> None:
    held = [ticket_of(client, f"10.0.1.{n}", players=3) for n in range(7)]
    answers = [matched(client, ticket) for ticket in held[:6]]
    places = {(answer["game"], answer["seat"]) for answer in answers}
    assert len(places) == 6 and len({game for game, _ in places}) == 2
    assert look(client, held[6])["status"] == "waiting"  # the seventh waits for two more


def test_queues_of_another_count_or_variant_are_not_mixed(client: TestClient) -> None:
    basic = ticket_of(client, "10.0.0.1", variant="basic")
    junior = ticket_of(client, "10.0.0.2", variant="junior")
    three = ticket_of(client, "10.0.0.3", players=3, variant="basic")
    rounds_pass(client)
    assert [look(client, t)["status"] for t in (basic, junior, three)] == ["waiting"] * 3


def test_the_window_widens_as_players_wait(client: TestClient) -> None:
    """Ratings 10 apart: the window starts at 2 and grows by 0.25 a second, so they are matched
    once both have waited 32 seconds (2 + 0.25 × 32 = 10), not before."""
    clock = Clock()
    queue = matchmaker(client)
    queue.clock = clock
    wick, rival = signed_up(client, "Wickham"), signed_up(client, "Rival")
    ratings = {1: 25.0, 2: 35.0}  # by account id: Wickham's, then Rival's

    def rating_of(conn: Any, account_id: int, game: str) -> Fixed:
        return Fixed(ratings[account_id])

    queue.rating_of = rating_of
    with as_player(client, wick):
        low = ticket_of(client, "10.0.0.1")
    with as_player(client, rival):
        high = ticket_of(client, "10.0.0.2")
    now = look(client, low)
    assert (now["status"], now["window"], now["rating"]) == ("waiting", 2.0, 25.0)
    a_round_at(client, clock, 1020.0)
    assert [look(client, t)["status"] for t in (low, high)] == ["waiting"] * 2  # seen: kept
    a_round_at(client, clock, 1031.0)
    now = look(client, high)
    assert (now["status"], now["waited"], now["window"], now["rating"]) == (
        "waiting",
        31.0,
        9.75,
        35.0,
    )
    a_round_at(client, clock, 1032.0)
    one, two = matched(client, low), matched(client, high)
    assert one["game"] == two["game"]
    assert (one["waited"], one["window"]) == (32.0, 10.0)
    # signed in, each seat is its account's, under its name, and in its games
    seats = client.get(f"/api/games/{one['game']}").json()["seats"]
    assert {seat["name"] for seat in seats} == {"Wickham", "Rival"}
    with as_player(client, wick):
        assert one["game"] in [game["id"] for game in client.get("/api/me").json()["games"]]


def test_bots_fill_the_table_after_the_wait_the_player_chose(client: TestClient) -> None:
    clock = Clock()
    matchmaker(client).clock = clock
    patient = ticket_of(client, "10.0.0.1", players=3, variant="basic")  # waits for people
    hasty = ticket_of(client, "10.0.0.2", players=3, variant="basic", bots_after=30)
    a_round_at(client, clock, 1029.0)
    assert look(client, hasty)["status"] == "waiting"
    look(client, patient)
    a_round_at(client, clock, 1030.0)
    answer = matched(client, hasty)
    seats = client.get(f"/api/games/{answer['game']}").json()["seats"]
    assert sorted(seat["kind"] for seat in seats) == ["bot", "bot", "human"]
    assert seats[answer["seat"]]["kind"] == "human"
    assert {seat["level"] for seat in seats if seat["kind"] == "bot"} == {"medium"}
    assert look(client, patient)["status"] == "waiting"


def test_the_plan_seats_the_oldest_with_the_nearest_ratings() -> None:
    def ticket(key: str, mu: float, at: float, **more: Any) -> Ticket:
        fields: dict[str, Any] = {
            "game": "candle-quest",
            "variant": "basic",
            "players": 2,
            "rated": False,
            "bots_after": None,
            "account_id": None,
            "name": "",
            "seat_hash": key,
        }
        fields.update(more)
        return Ticket(key=key, mu=mu, created_at=at, **fields)

    window = Window(start=2.0, growth=0.25, largest=25.0)
    old, near, far = ticket("old", 25.0, 0.0), ticket("near", 26.5, 1.0), ticket("far", 26.0, 2.0)
    made = plan([far, near, old], now=2.0, window=window)
    assert [[t.key for t in match.tickets] for match in made] == [["old", "far"]]
    # apart by more than the window of either: not yet; later, both windows reach the gap
    low, high = ticket("low", 20.0, 0.0), ticket("high", 30.0, 0.0)
    assert plan([low, high], now=31.0, window=window) == []
    assert len(plan([low, high], now=32.0, window=window)) == 1
    # with bots: only once the ticket has waited what its holder chose, and never when rated
    alone = ticket("alone", 25.0, 0.0, bots_after=5.0)
    assert plan([alone], now=4.9, window=window) == []
    assert plan([alone], now=5.0, window=window)[0].bots == 1


def test_the_matchmaker_reads_the_players_ratings(client: TestClient) -> None:
    # the lookup the server's matchmaker is given is the players' ratings, not a stand-in
    assert matchmaker(client).rating_of is ratings.rating_of
    assert STARTING_MU == ratings.MU


# ----------------------------------------------------------------------------- leaving the queue
def test_a_cancelled_ticket_is_never_matched(client: TestClient, sqlite_url: str) -> None:
    gone = ticket_of(client, "10.0.0.1")
    cancelled = client.delete(f"/api/queue/{gone}")
    assert cancelled.status_code == 200, cancelled.text
    assert cancelled.json()["status"] == "cancelled"
    assert client.delete(f"/api/queue/{gone}").json()["status"] == "cancelled"  # said again
    later = ticket_of(client, "10.0.0.2")
    assert look(client, gone)["status"] == "cancelled"
    assert look(client, later)["status"] == "waiting"
    # the same player may queue again at once (its place in that queue is free)
    again = ticket_of(client, "10.0.0.1")
    assert matched(client, again)["game"] == matched(client, later)["game"]
    refused = client.delete(f"/api/queue/{again}")
    assert (refused.status_code, refused.json()["error"]) == (409, "matched")


def test_a_ticket_nobody_looks_at_expires(client: TestClient) -> None:
    clock = Clock()
    matchmaker(client).clock = clock
    silent = ticket_of(client, "10.0.0.1")
    a_round_at(client, clock, 1030.0)
    assert look(client, silent)["status"] == "waiting"  # looked at in time: it lives on
    a_round_at(client, clock, 1061.0)
    assert look(client, silent)["status"] == "expired"
    other = ticket_of(client, "10.0.0.2")
    assert look(client, other)["status"] == "waiting"  # the expired one is not matched
    assert matched(client, ticket_of(client, "10.0.0.1"))["game"] == matched(client, other)["game"]


def test_a_match_is_kept_across_a_restart(sqlite_url: str) -> None:
    with make_client(sqlite_url, **QUICK) as client:
        first, second = ticket_of(client, "10.0.0.1"), ticket_of(client, "10.0.0.2")
        one = matched(client, first)
    with make_client(sqlite_url, **QUICK) as client:
        two = look(client, second)
        assert (two["status"], two["game"]) == ("matched", one["game"])
        frame = client.get(f"/api/games/{two['game']}/state", headers=auth(two["token"]))
        assert frame.status_code == 200 and frame.json()["you"] == two["seat"] != one["seat"]


# ----------------------------------------------------------------------------- hostile input
@pytest.mark.parametrize(
    ("body", "code", "named"),
    [
        ({"game": "chess", "players": 2}, "bad-game", "chess"),
        ({"game": "candle-quest", "players": 9}, "bad-players", "2–5 players"),
        ({"game": "candle-quest", "players": 99}, "bad-players", "players"),
        ({"game": "candle-quest", "players": "2"}, "bad-players", "players"),
        ({"game": "candle-quest", "players": True}, "bad-players", "players"),
        ({"game": "candle-quest", "players": 2, "variant": "nope"}, "bad-variant", "nope"),
        ({"game": "candle-quest", "players": 2, "rated": "yes"}, "bad-rated", "rated"),
        ({"game": "candle-quest", "players": 2, "bots_after": -1}, "bad-bots-after", "bots_after"),
        ({"game": "candle-quest", "players": 2, "bots_after": 1e9}, "bad-bots-after", "bots_after"),
        ({"game": "candle-quest", "players": 2, "seat": 0}, "malformed", "seat"),
        ({"players": 2}, "malformed", "game"),
        ({"game": "x" * 500, "players": 2}, "bad-game", "game"),
    ],
)
def test_bad_tickets_are_refused_naming_the_field(
    client: TestClient, sqlite_url: str, body: dict[str, Any], code: str, named: str
) -> None:
    answer = client.post("/api/queue", json=body)
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"] == code
    assert named in answer.json()["message"]
    assert rows(sqlite_url, queue_tickets) == []


def test_requests_that_are_not_tickets_are_refused(client: TestClient, sqlite_url: str) -> None:
    not_json = client.post(
        "/api/queue", content=b"{nope", headers={"Content-Type": "application/json"}
    )
    assert (not_json.status_code, not_json.json()["error"]) == (400, "malformed")
    for path in ("/api/queue/short", "/api/queue/" + "a" * 200):
        answer = client.get(path)
        assert (answer.status_code, answer.json()["error"]) == (400, "bad-ticket")
        assert "ticket" in answer.json()["message"]
    unknown = client.get("/api/queue/" + "A" * 43)
    assert (unknown.status_code, unknown.json()["error"]) == (404, "no-ticket")
    assert client.delete("/api/queue/" + "A" * 43).status_code == 404
    cross = client.post(
        "/api/queue",
        json={"game": "candle-quest", "players": 2},
        headers={"Origin": "https://elsewhere.example"},
    )
    assert (cross.status_code, cross.json()["error"]) == (403, "cross-origin")
    assert rows(sqlite_url, queue_tickets) == []


def test_rated_tickets_need_a_session_and_no_bots(client: TestClient, sqlite_url: str) -> None:
    guest = enter(client, rated=True)
    assert (guest.status_code, guest.json()["error"]) == (401, "signed-out")
    with as_player(client, signed_up(client, "Wickham")):
        bots = enter(client, rated=True, bots_after=30)
        assert (bots.status_code, bots.json()["error"]) == (400, "bad-bots-after")
        rated = enter(client, rated=True)
    assert rated.status_code == 201, rated.text


def test_two_signed_in_players_are_matched_into_a_rated_table(client: TestClient) -> None:
    first, second = signed_up(client, "Ratedone"), signed_up(client, "Ratedtwo")
    held = []
    for session, address in ((first, "10.0.0.1"), (second, "10.0.0.2")):
        with as_player(client, session):
            held.append(ticket_of(client, address, rated=True))
    one, two = (matched(client, ticket) for ticket in held)
    assert one["game"] == two["game"] is not None
    table = client.get(f"/api/games/{one['game']}/state").json()
    assert table["game"]["rated"] is True
    assert one["window_points"] == round(one["window"] * ratings.SCALE)


def test_one_waiting_ticket_per_queue_and_a_cap_per_client(client: TestClient) -> None:
    held = [ticket_of(client, "10.0.0.9", players=n) for n in (2, 3)]
    twice = enter(client, "10.0.0.9", players=2)
    assert (twice.status_code, twice.json()["error"]) == (409, "already-waiting")
    held.append(ticket_of(client, "10.0.0.9", players=4))
    over = enter(client, "10.0.0.9", players=5)
    assert (over.status_code, over.json()["error"]) == (429, "too-many-tickets")
    assert "at most 3" in over.json()["message"]
    assert enter(client, "10.0.0.8", players=5).status_code == 201  # another client is not capped
    assert client.delete(f"/api/queue/{held[0]}").status_code == 200
    assert enter(client, "10.0.0.9", players=5).status_code == 201


def test_deleting_an_account_takes_its_tickets_out_of_the_queue(
    client: TestClient, sqlite_url: str
) -> None:
    session = signed_up(client, "Leaver")
    with as_player(client, session):
        ticket = ticket_of(client, "10.0.0.1")
        answer = client.request("DELETE", "/api/me", json={"password": PASSWORD})
        assert answer.status_code == 200, answer.text
    assert rows(sqlite_url, queue_tickets) == []
    assert client.get(f"/api/queue/{ticket}").status_code == 404
    # the next player waits alone: nobody is seated beside the deleted account
    other = ticket_of(client, "10.0.0.2")
    rounds_pass(client)
    assert look(client, other)["status"] == "waiting"
