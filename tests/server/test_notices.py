"""Turn-based games and notices (issue 35; candlebox/server/notices.py, pushing.py, routes/notices.py;
docs/server.md, "Turn-based games and notices"): a game played over three simulated days tells its
signed-in player each time it waits for them — a notice, and a mail received by a local SMTP server
(aiosmtpd) at most once per game an hour — but never while they watch it; the mail's unsubscribe
link and its RFC 8058 one-click post turn the mail off; the daily digest; a Web Push received and
decrypted by a local HTTP endpoint, and a subscription its push service ended; and the bodies and
endpoints these routes refuse."""

from __future__ import annotations

import base64
import json
import os
import random
import threading
import time
import warnings
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from sqlalchemy import insert

from candlebox.server.config import Settings
from candlebox.server.notices import Told, Turn, enqueue_turns
from candlebox.server.pushing import PushOutbox, vapid_key
from candlebox.server.storage import (
    Storage,
    accounts,
    notice_preferences,
    outbox,
    presence,
    push_outbox,
    push_subscriptions,
)
from candlebox.server.storage import (
    notices as notice_rows,
)
from tests.server.conftest import make_client, move, state, wait_for
from tests.server.pg import free_port
from tests.server.test_accounts import rows, sign_in, sign_up
from tests.server.test_mail import (
    ADDRESS,
    HERE,
    Inbox,
    aiosmtpd_controller,
    mail_client,
    text_of,
    verified,
)

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

GAME = "sixteen-candies"
HOUR = 3600.0
DAY = 86400.0


class Table:
    """A two-player game: seat 0 the signed-in Wickham's, seat 1 a guest's, played through the API
    (neither watching: no websocket) at an injected time."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        # pools of 1000 candies: random play never ends the game within the days played (the
        # server deals from a seed of its own, so a game of the printed 16 could end at any move)
        body = {"game": GAME, "seats": [{}, {}], "you": 0, "options": {"pool": 1000}}
        made = client.post("/api/games", json=body)
        assert made.status_code == 201, made.text
        self.id = made.json()["id"]
        guest = TestClient(client.app)
        guest.headers.update(HERE)
        claimed = guest.post(
            f"/api/games/{self.id}/seats/1/claim",
            json={"name": "Guest", "invite": made.json()["invites"]["1"]},
        )
        assert claimed.status_code == 200, claimed.text
        self.tokens = [made.json()["token"], claimed.json()["token"]]
        self.rng = random.Random(7)
        self.now = time.time()
        client.app.state.service.moves.turns.clock = lambda: self.now  # type: ignore[attr-defined]

    def waiting(self) -> list[int]:
        return list(state(self.client, self.id)["view"]["pending"]["seats"])

    def play(self, seat: int) -> None:
        mine = state(self.client, self.id, self.tokens[seat])
        answer = move(self.client, self.id, self.tokens[seat], self.rng.choice(mine["legal"]),
                      mine["move"])  # fmt: skip
        assert answer.status_code == 200, answer.text

    def wickhams_turn(self, at: float) -> None:
        """Play (Wickham first, if the game waits for him) until a move of the guest makes the
        game wait for Wickham, at ``at``; returns once his notice of it is written."""
        self.now = at
        for _ in range(100):
            waiting = self.waiting()
            if 0 in waiting:
                self.play(0)
                continue
            self.play(waiting[0])
            if 0 in self.waiting():
                wait_for(lambda: any(n["at"] == at for n in notices(self.client)["notices"]))
                return
        raise AssertionError("the game never waited for seat 0")


def notices(client: TestClient) -> dict[str, Any]:
    answer = client.get("/api/me/notices")
    assert answer.status_code == 200, answer.text
    return answer.json()  # type: ignore[no-any-return]


def turn_mails(url: str) -> list[Any]:
    return [row for row in rows(url, outbox) if row.subject.startswith("Your turn")]


@pytest.fixture
def mailing(sqlite_url: str) -> Iterator[tuple[TestClient, Inbox, str]]:
    """A server mailing through a local SMTP server, and Wickham signed in, his address confirmed."""
    inbox = Inbox()
    controller = aiosmtpd_controller.Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        with mail_client(sqlite_url, controller.port, mail_poll=0.2) as client:
            verified(client, inbox)
            yield client, inbox, sqlite_url
    finally:
        controller.stop()


# ----------------------------------------------------------------------------- over three days
def test_a_game_over_three_days_mails_its_player_at_most_once_an_hour(
    mailing: tuple[TestClient, Inbox, str],
) -> None:
    client, inbox, url = mailing
    table = Table(client)
    start = table.now
    expected = 0
    for at, mailed in (
        (start, True),  # day 1: his turn, a mail
        (start + 600, False),  # ten minutes later, his turn again: no second mail within the hour
        (start + 1800, False),
        (start + HOUR + 60, True),  # over an hour after the first
        (start + DAY, True),  # day 2
        (start + DAY + 300, False),
        (start + 2 * DAY, True),  # day 3
    ):
        table.wickhams_turn(at)
        expected += mailed
        assert len(turn_mails(url)) == expected, at - start
    received = wait_for(lambda: len(inbox.to(ADDRESS, "Your turn")) == expected and inbox.messages)
    mail = next(m for m in received if "Your turn" in str(m["Subject"]))
    assert str(mail["Subject"]) == "Your turn in 16 Candies"
    assert f"http://localhost/g/{table.id}" in text_of(mail)
    # one unread notice for the game, renewed by each turn; the page title's count is 1
    seen = notices(client)
    assert seen["unread"] == 1 and seen["your_turn"] == 1
    assert [(n["game_id"], n["text"], n["read"]) for n in seen["notices"]] == [
        (table.id, "Your turn in 16 Candies", False)
    ]
    assert seen["notices"][0]["at"] == start + 2 * DAY


def test_the_unsubscribe_link_and_one_click_post_turn_the_mail_off(
    mailing: tuple[TestClient, Inbox, str],
) -> None:
    client, inbox, url = mailing
    table = Table(client)
    table.wickhams_turn(table.now)
    mail = wait_for(lambda: inbox.to(ADDRESS, "Your turn"))[0]
    link = mail["List-Unsubscribe"].strip("<>")
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert link.startswith("http://localhost/unsubscribe?token=") and link in text_of(mail)
    path = link.removeprefix("http://localhost")
    page = client.get(path)  # opening the link (a mail scanner may) changes nothing
    assert page.status_code == 200 and "Unsubscribe" in page.text
    assert client.get("/api/me/notices/preferences").json()["turn_mail"] is True
    forged = path[:-3] + ("AAA" if not path.endswith("AAA") else "BBB")
    refused = client.post(forged, content=b"List-Unsubscribe=One-Click", headers=FORM)
    assert refused.status_code == 400
    assert client.get("/api/me/notices/preferences").json()["turn_mail"] is True
    # a mail client's one click: a form post, no Origin, no session
    done = TestClient(client.app).post(path, content=b"List-Unsubscribe=One-Click", headers=FORM)
    assert done.status_code == 200, done.text
    assert "no more" in done.text
    assert client.get("/api/me/notices/preferences").json()["turn_mail"] is False
    table.wickhams_turn(table.now + 2 * HOUR)  # a turn later: a notice, and no mail
    assert len(turn_mails(url)) == 1


FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def test_no_notice_nor_mail_while_the_player_watches_the_game(
    mailing: tuple[TestClient, Inbox, str],
) -> None:
    client, inbox, url = mailing
    table = Table(client)
    with client.websocket_connect(f"/ws/games/{table.id}") as ws:
        ws.send_json({"type": "hello", "token": table.tokens[0]})
        assert ws.receive_json()["type"] == "snapshot"
        for _ in range(100):  # the guest plays until the game waits for Wickham, who watches
            waiting = table.waiting()
            if 0 in waiting:
                break
            table.play(waiting[0])
        assert 0 in table.waiting()
    assert notices(client)["unread"] == 0
    table.play(0)  # gone from the table: his next turn is told (so the earlier one was not)
    table.wickhams_turn(table.now + 60)
    assert notices(client)["unread"] == 1
    assert len(turn_mails(url)) == 1
    wait_for(lambda: inbox.to(ADDRESS, "Your turn"))


def test_the_daily_digest_lists_the_games_waiting(mailing: tuple[TestClient, Inbox, str]) -> None:
    client, inbox, url = mailing
    chosen = client.post("/api/me/notices/preferences", json={"digest": True, "turn_mail": False})
    assert chosen.status_code == 200, chosen.text
    assert chosen.json()["digest"] is True and chosen.json()["turn_mail"] is False
    table = Table(client)
    table.wickhams_turn(table.now)
    senders = client.app.state.notices  # type: ignore[attr-defined]
    assert senders.notices.digests(time.time()) == 1
    assert senders.notices.digests(time.time() + 60) == 0  # one a day
    mail = wait_for(lambda: inbox.to(ADDRESS, "waiting for you"))[0]
    assert f"http://localhost/g/{table.id}" in text_of(mail)
    assert "unsubscribe?token=" in mail["List-Unsubscribe"]
    assert turn_mails(url) == []
    client.post("/api/me/notices/read", json={"all": True})
    assert senders.notices.digests(time.time() + DAY + 60) == 0  # nothing waits unread


# ----------------------------------------------------------------------------- the notices API
def test_notices_are_listed_and_marked_read(mailing: tuple[TestClient, Inbox, str]) -> None:
    client, _, _ = mailing
    table = Table(client)
    table.wickhams_turn(table.now)
    listed = notices(client)
    assert listed["unread"] == 1
    for bad, field in (
        ({}, "ids"),
        ({"ids": [1], "all": True}, "ids"),
        ({"ids": "1"}, "ids"),
        ({"ids": [0]}, "ids"),
        ({"ids": list(range(1, 102))}, "ids"),
        ({"all": "yes"}, "all"),
        ({"every": True}, "every"),
    ):
        answer = client.post("/api/me/notices/read", json=bad)
        assert answer.status_code == 400, (bad, answer.text)
        assert field in answer.json()["message"], (bad, answer.text)
    assert notices(client)["unread"] == 1  # nothing changed
    done = client.post("/api/me/notices/read", json={"ids": [listed["notices"][0]["id"]]})
    assert done.json() == {"read": 1}
    assert notices(client)["unread"] == 0 and notices(client)["notices"][0]["read"] is True
    bad_pref = client.post("/api/me/notices/preferences", json={"digest": "on"})
    assert bad_pref.status_code == 400 and "digest" in bad_pref.json()["message"]
    client.cookies.clear()
    assert client.get("/api/me/notices").status_code == 401
    assert client.post("/api/me/notices/read", json={"all": True}).status_code == 401


# ----------------------------------------------------------------------------- Web Push
class Receiver:
    """A push service on this machine: records each POST, answers ``status``."""

    def __init__(self, status: int = 201) -> None:
        self.received: list[tuple[str, dict[str, str], bytes]] = []
        self.status = status
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                outer.received.append((self.path, dict(self.headers.items()), body))
                self.send_response(outer.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/push/{os.urandom(4).hex()}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def browser_keys() -> tuple[Any, str, bytes]:
    """A browser's push keys: its private key, its public key (p256dh) and its auth secret."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return key, b64(public), os.urandom(16)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    found = Receiver()
    try:
        yield found
    finally:
        found.close()


def test_a_push_reaches_the_browsers_endpoint_encrypted_for_it(
    sqlite_url: str, receiver: Receiver
) -> None:
    http_ece = pytest.importorskip("http_ece")
    with make_client(sqlite_url, push_private_endpoints=True, mail_poll=0.2) as client:
        client.headers.update(HERE)
        assert sign_up(client).status_code == 201
        key, p256dh, secret = browser_keys()
        endpoint = receiver.endpoint
        subscribed = client.post(
            "/api/me/push",
            json={"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": b64(secret)}},
        )
        assert subscribed.status_code == 201, subscribed.text
        push_key = client.get("/api/me/notices/preferences").json()["push_key"]
        table = Table(client)
        table.wickhams_turn(table.now)
        path, headers, body = wait_for(lambda: receiver.received)[0]
        assert endpoint.endswith(path)
        lowered = {name.lower(): value for name, value in headers.items()}
        assert lowered["content-encoding"] == "aes128gcm"
        assert lowered["ttl"] == "86400"
        assert lowered["authorization"].startswith("vapid t=")
        assert f"k={push_key}" in lowered["authorization"]
        plain = http_ece.decrypt(body, private_key=key, auth_secret=secret, version="aes128gcm")
        assert json.loads(plain) == {
            "title": "Candlebox",
            "body": "Your turn in 16 Candies",
            "url": f"/g/{table.id}",
        }
        wait_for(lambda: [r.status for r in rows(sqlite_url, push_outbox)] == ["sent"])
        # the key is kept: a restart signs with the same one
    with make_client(sqlite_url, push_private_endpoints=True) as again:
        again.headers.update(HERE)
        assert sign_in(again).status_code == 200
        assert again.get("/api/me/notices/preferences").json()["push_key"] == push_key


def pushed_a_turn(client: TestClient, service: Receiver) -> None:
    """A player subscribed to pushes through ``service`` whose turn comes: a push is queued."""
    client.headers.update(HERE)
    assert sign_up(client).status_code == 201
    _, p256dh, secret = browser_keys()
    body = {"endpoint": service.endpoint, "keys": {"p256dh": p256dh, "auth": b64(secret)}}
    assert client.post("/api/me/push", json=body).status_code == 201
    table = Table(client)
    table.wickhams_turn(table.now)


def test_a_push_its_service_refuses_waits_for_another_try_then_is_given_up(
    sqlite_url: str,
) -> None:
    failing = Receiver(status=500)
    try:
        settings = {"push_private_endpoints": True, "mail_poll": 0.2, "mail_tries": 2}
        with make_client(sqlite_url, **settings) as client:
            pushed_a_turn(client, failing)
            row = wait_for(lambda: [r for r in rows(sqlite_url, push_outbox) if r.last_error])[0]
            assert (row.status, row.tries, row.last_error) == (
                "waiting",
                1,
                "WebPushException: 500",
            )
            assert row.next_try - time.time() > 25  # about 30 s off: not tried again at once
            pusher = client.app.state.notices.pusher  # type: ignore[attr-defined]
            client.portal.call(pusher.send_due, row.next_try + 1)  # type: ignore[union-attr]
            kept = rows(sqlite_url, push_outbox)
            assert [(r.status, r.tries) for r in kept] == [("failed", 2)]
            assert len(failing.received) == 2
            assert rows(sqlite_url, push_subscriptions) != []  # a refusal is not an ending
    finally:
        failing.close()


def test_a_subscription_its_push_service_ended_is_forgotten(sqlite_url: str) -> None:
    gone = Receiver(status=410)
    try:
        with make_client(sqlite_url, push_private_endpoints=True, mail_poll=0.2) as client:
            pushed_a_turn(client, gone)
            wait_for(lambda: gone.received)
            wait_for(lambda: rows(sqlite_url, push_subscriptions) == [])
            assert rows(sqlite_url, push_outbox) == []
    finally:
        gone.close()


def test_push_subscriptions_refuse_what_a_browser_would_not_send(sqlite_url: str) -> None:
    _, p256dh, secret = browser_keys()
    keys = {"p256dh": p256dh, "auth": b64(secret)}
    with make_client(sqlite_url) as client:
        client.headers.update(HERE)
        guest = client.post(
            "/api/me/push", json={"endpoint": "https://push.example/x", "keys": keys}
        )
        assert guest.status_code == 401
        assert sign_up(client).status_code == 201
        for body, field in (
            ({"endpoint": "http://push.example.org/x", "keys": keys}, "endpoint"),
            ({"endpoint": "https://127.0.0.1/x", "keys": keys}, "endpoint"),
            ({"endpoint": "https://10.1.2.3/x", "keys": keys}, "endpoint"),
            ({"endpoint": "https://[::1]/x", "keys": keys}, "endpoint"),
            ({"endpoint": "https://localhost/x", "keys": keys}, "endpoint"),
            ({"endpoint": "https://push.example.org/x"}, "keys"),
            ({"endpoint": "https://push.example.org/x", "keys": {**keys, "auth": "AA"}}, "auth"),
            (
                {"endpoint": "https://push.example.org/x", "keys": {**keys, "p256dh": "!!"}},
                "p256dh",
            ),
            ({"endpoint": 5, "keys": keys}, "endpoint"),
            ({"endpoint": "https://push.example.org/x", "keys": keys, "more": 1}, "more"),
        ):
            answer = client.post("/api/me/push", json=body)
            assert answer.status_code == 400, (body, answer.text)
            assert field in answer.json()["message"], (body, answer.text)
        assert rows(sqlite_url, push_subscriptions) == []
        good = {"endpoint": "https://push.example.org/x", "keys": keys}
        assert client.post("/api/me/push", json=good).status_code == 201
        assert client.post("/api/me/push", json=good).status_code == 201  # again: replaced
        assert len(rows(sqlite_url, push_subscriptions)) == 1
        removed = client.request("DELETE", "/api/me/push", json={"endpoint": good["endpoint"]})
        assert removed.json() == {"unsubscribed": True}
        assert rows(sqlite_url, push_subscriptions) == []


def test_the_service_worker_is_served_from_the_root(sqlite_url: str) -> None:
    with make_client(sqlite_url) as client:
        answer = client.get("/sw.js")
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/javascript")
        assert answer.headers["service-worker-allowed"] == "/"
        assert "showNotification" in answer.text


def test_an_account_deleted_takes_its_notices_with_it(
    mailing: tuple[TestClient, Inbox, str],
) -> None:
    client, _, url = mailing
    table = Table(client)
    table.wickhams_turn(table.now)
    client.post("/api/me/notices/preferences", json={"digest": True})
    deleted = client.request("DELETE", "/api/me", json={"password": "correct horse battery"})
    assert deleted.status_code == 200, deleted.text
    assert rows(url, notice_preferences) == [] and rows(url, notice_rows) == []


# ----------------------------------------------------------------------------- several processes
def test_two_push_senders_on_postgresql_never_take_the_same_push(postgres_url: str) -> None:
    """Two processes' push senders taking at once: FOR UPDATE SKIP LOCKED hands each row to one."""
    storage = Storage(postgres_url)
    settings = Settings(db=postgres_url)
    try:
        with storage.engine.begin() as conn:
            account = conn.execute(
                insert(accounts)
                .values(name="Wickham", name_key="wickham", password_hash="x", created_at=0.0)
                .returning(accounts.c.id)
            ).scalar_one()
            subscription = conn.execute(
                insert(push_subscriptions)
                .values(
                    account_id=account,
                    endpoint="https://push.example.org/x",
                    p256dh="p",
                    auth="a",
                    created_at=0.0,
                )
                .returning(push_subscriptions.c.id)
            ).scalar_one()
            for _ in range(40):
                conn.execute(
                    insert(push_outbox).values(
                        account_id=account,
                        subscription_id=subscription,
                        payload="{}",
                        status="waiting",
                        tries=0,
                        next_try=0.0,
                        created_at=0.0,
                    )
                )
        senders = [PushOutbox(storage.engine, settings) for _ in range(2)]
        taken: list[list[int]] = [[], []]
        start = threading.Barrier(2)

        def take(which: int) -> None:
            start.wait()
            while pushes := senders[which].take(time.time(), limit=3):
                taken[which].extend(push.id for push in pushes)

        threads = [threading.Thread(target=take, args=(n,)) for n in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        every = taken[0] + taken[1]
        assert sorted(every) == sorted(set(every)) and len(every) == 40
        assert {row.tries for row in rows(postgres_url, push_outbox)} == {1}
    finally:
        storage.close()


def test_processes_starting_together_keep_one_vapid_key(postgres_url: str) -> None:
    storage = Storage(postgres_url)
    try:
        found: list[str] = []
        start = threading.Barrier(4)

        def ask() -> None:
            start.wait()
            found.append(vapid_key(storage.engine))

        threads = [threading.Thread(target=ask) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(found) == 4 and len(set(found)) == 1
        assert vapid_key(storage.engine) == found[0]
    finally:
        storage.close()


def test_a_seat_watched_through_another_process_is_not_told(postgres_url: str) -> None:
    """Several processes: whether the player watches is read from the presence rows every process
    writes, so a move taken by one process tells nobody watching through another."""
    with make_client(postgres_url) as client:
        client.headers.update(HERE)
        assert sign_up(client).status_code == 201
        table = Table(client)
        account = client.get("/api/me").json()
        assert account["name"] == "Wickham"
    storage = Storage(postgres_url)
    settings = Settings(db=postgres_url)
    turn = [Turn(seat=0, account_id=account_id(postgres_url))]
    now = time.time()
    try:
        with storage.engine.begin() as conn:
            conn.execute(
                insert(presence).values(
                    game_id=table.id,
                    seat=0,
                    process="elsewhere",
                    connected=True,
                    seen=now,
                    expires=now + 30,
                )
            )
            told = enqueue_turns(conn, settings, "s", table.id, "16 Candies", turn, now, True)
        assert told == Told() and rows(postgres_url, notice_rows) == []
        with storage.engine.begin() as conn:  # that process died: its row is no longer believed
            enqueue_turns(conn, settings, "s", table.id, "16 Candies", turn, now + 60, True)
        assert [row.game_id for row in rows(postgres_url, notice_rows)] == [table.id]
    finally:
        storage.close()


def account_id(url: str) -> int:
    return int(next(row.id for row in rows(url, accounts) if row.name == "Wickham"))
