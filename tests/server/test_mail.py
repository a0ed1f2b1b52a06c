"""E-mail (candlebox/server/mail.py, account_mail.py, routes/email.py; docs/server.md, "E-mail")
with a local SMTP server (aiosmtpd) receiving what the server sends: the link confirming an address
given at sign-up, "forgot password" and its reset link followed to a new password, one answer for
every "forgot" (and none of its work in the request), the throttle, retries with backoff when the
SMTP server refuses, giving up, and two senders on one PostgreSQL never taking the same mail."""

from __future__ import annotations

import email
import email.message
import email.policy
import re
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from candlebox.cli.app import app as cli_app
from candlebox.server.config import Settings
from candlebox.server.mail import Outbox, retry_wait, smtp_server
from candlebox.server.storage import Storage, email_verifications, outbox, sign_in_failures
from tests.server.conftest import make_client, wait_for
from tests.server.pg import free_port
from tests.server.test_accounts import PASSWORD, rows, sign_in, sign_up

aiosmtpd_controller = pytest.importorskip(
    "aiosmtpd.controller", reason="aiosmtpd is not installed: pip install -e '.[test]'"
)

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

SITE = "http://localhost"
HERE = {"Origin": "http://testserver"}
ADDRESS = "wick@example.org"


class Inbox:
    """What the SMTP server received; ``refuse``: that many deliveries answered "try later"."""

    def __init__(self) -> None:
        self.messages: list[email.message.EmailMessage] = []
        self.refuse = 0

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.refuse > 0:
            self.refuse -= 1
            return "451 4.3.0 not now, try again later"
        parsed = email.message_from_bytes(envelope.content, policy=email.policy.default)
        self.messages.append(parsed)  # type: ignore[arg-type]
        return "250 OK"

    def to(self, address: str, subject_word: str) -> list[email.message.EmailMessage]:
        return [
            m for m in self.messages if m["To"] == address and subject_word in str(m["Subject"])
        ]


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    inbox = Inbox()
    port = free_port()
    controller = aiosmtpd_controller.Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()


def mail_client(url: str, port: int, **settings: Any) -> TestClient:
    values: dict[str, Any] = {"smtp_url": f"smtp://127.0.0.1:{port}", "public_url": SITE}
    values.update(settings)
    client = make_client(url, **values)
    client.headers.update(HERE)
    return client


@pytest.fixture
def client(sqlite_url: str, smtp: tuple[Inbox, int]) -> Iterator[TestClient]:
    with mail_client(sqlite_url, smtp[1]) as test_client:
        yield test_client


def text_of(message: email.message.EmailMessage) -> str:
    return str(message.get_content())


def link_in(message: email.message.EmailMessage, pattern: str) -> str:
    found = re.search(pattern, text_of(message))
    assert found is not None, text_of(message)
    return found.group(1)


def delivered(url: str) -> list[Any]:
    """Every mail written so far, once each is delivered. A "forgot" writes its mail after its
    answer, but before the test client returns it (it runs a response's background task first)."""
    return wait_for(  # type: ignore[no-any-return]
        lambda: (found := rows(url, outbox)) and all(r.status == "sent" for r in found) and found
    )


def verified(client: TestClient, inbox: Inbox, name: str = "Wickham") -> None:
    """Sign up with the address and follow the link mailed to it."""
    assert sign_up(client, name, email=ADDRESS).status_code == 201
    mail = wait_for(lambda: inbox.to(ADDRESS, "Confirm"))[-1]
    token = link_in(mail, r"http://localhost/verify\?token=([A-Za-z0-9_-]+)")
    assert client.post("/api/accounts/verify", json={"token": token}).status_code == 200


# ----------------------------------------------------------------------------- verification
def test_an_address_given_at_sign_up_is_confirmed_by_the_link_mailed_to_it(
    client: TestClient, smtp: tuple[Inbox, int]
) -> None:
    inbox, _ = smtp
    made = sign_up(client, email=ADDRESS)
    assert made.status_code == 201 and made.json()["email_verified"] is False
    mail = wait_for(lambda: inbox.to(ADDRESS, "Confirm"))[0]
    assert mail["From"] == "Candlebox <candlebox@localhost>"
    assert "Wickham" in text_of(mail)
    token = link_in(mail, r"http://localhost/verify\?token=([A-Za-z0-9_-]+)")
    page = client.get(f"/verify?token={token}")  # the page: it confirms nothing by itself
    assert page.status_code == 200 and "Confirm my address" in page.text
    assert client.get("/api/me").json()["email_verified"] is False
    done = client.post("/api/accounts/verify", json={"token": token})
    assert done.status_code == 200, done.text
    assert done.json() == {"name": "Wickham", "email": ADDRESS, "email_verified": True}
    assert client.get("/api/me").json()["email_verified"] is True
    again = client.post("/api/accounts/verify", json={"token": token})
    assert again.status_code == 400 and again.json()["error"] == "verify-token"
    url = str(client.app.state.settings.db)  # type: ignore[attr-defined]
    assert rows(url, email_verifications) == []  # used once, and gone
    assert [row.status for row in rows(url, outbox)] == ["sent"]


def test_a_verification_link_ends(client: TestClient, smtp: tuple[Inbox, int]) -> None:
    inbox, _ = smtp
    assert sign_up(client, email=ADDRESS).status_code == 201
    mail = wait_for(lambda: inbox.to(ADDRESS, "Confirm"))[0]
    token = link_in(mail, r"verify\?token=([A-Za-z0-9_-]+)")
    url = str(client.app.state.settings.db)  # type: ignore[attr-defined]
    storage = Storage(url)
    with storage.engine.begin() as conn:
        conn.execute(email_verifications.update().values(expires_at=time.time() - 1))
    storage.close()
    late = client.post("/api/accounts/verify", json={"token": token})
    assert late.status_code == 400 and late.json()["error"] == "verify-token"
    for bad in ({"token": "short"}, {"token": 5}, {}, {"token": "x" * 43, "more": 1}):
        answer = client.post("/api/accounts/verify", json=bad)
        assert answer.status_code == 400


def test_a_sign_up_without_an_address_sends_nothing(
    client: TestClient, smtp: tuple[Inbox, int]
) -> None:
    assert sign_up(client).status_code == 201
    url = str(client.app.state.settings.db)  # type: ignore[attr-defined]
    assert rows(url, outbox) == [] and rows(url, email_verifications) == []


# ----------------------------------------------------------------------------- forgot password
def test_forgot_password_mails_a_reset_link_that_sets_a_new_one(
    client: TestClient, smtp: tuple[Inbox, int]
) -> None:
    inbox, _ = smtp
    verified(client, inbox)
    client.cookies.clear()
    for asked in ({"name": "WICKHAM"}, {"email": "Wick@Example.org"}):
        answer = client.post("/api/accounts/forgot", json=asked)
        assert answer.status_code == 202, answer.text
    mails = wait_for(
        lambda: len(inbox.to(ADDRESS, "password")) == 2 and inbox.to(ADDRESS, "password")
    )
    token = link_in(mails[0], r"http://localhost/reset#([A-Za-z0-9_-]+)")
    new = "a brand new password"
    reset = client.post("/api/accounts/reset", json={"token": token, "password": new})
    assert reset.status_code == 200 and reset.json()["name"] == "Wickham"
    assert sign_in(client, "Wickham", PASSWORD).status_code == 401
    assert sign_in(client, "Wickham", new).status_code == 200
    used = client.post("/api/accounts/reset", json={"token": token, "password": "another one!"})
    assert used.status_code == 400


def test_forgot_answers_the_same_whoever_is_asked_for(
    client: TestClient, smtp: tuple[Inbox, int]
) -> None:
    """An unknown name, an unknown address and an account whose address was never confirmed get
    the answer a real one gets, and no mail; the real one gets its mail."""
    inbox, _ = smtp
    assert sign_up(client, "Unconfirmed", email="other@example.org").status_code == 201
    verified(client, inbox)
    client.cookies.clear()
    answers = set()
    for asked in (
        {"name": "Nobody_here"},
        {"email": "nobody@example.org"},
        {"name": "Unconfirmed"},
        {"email": "other@example.org"},
        {"name": "Wickham"},
    ):
        answer = client.post("/api/accounts/forgot", json=asked)
        answers.add((answer.status_code, answer.text))
    assert len(answers) == 1 and next(iter(answers))[0] == 202
    delivered(str(client.app.state.settings.db))  # type: ignore[attr-defined]
    assert inbox.to("other@example.org", "password") == []
    assert len(inbox.to(ADDRESS, "password")) == 1


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({}, "forgot-field"),
        ({"name": "Wickham", "email": ADDRESS}, "forgot-field"),
        ({"name": 5}, "malformed"),
        ({"name": "x" * 201}, "malformed"),
        ({"user": "Wickham"}, "malformed"),
    ],
)
def test_a_forgot_request_names_what_is_wrong(
    client: TestClient, body: dict[str, Any], code: str
) -> None:
    answer = client.post("/api/accounts/forgot", json=body)
    assert answer.status_code == 400 and answer.json()["error"] == code


def test_forgot_is_throttled_per_client_address(sqlite_url: str, smtp: tuple[Inbox, int]) -> None:
    with mail_client(sqlite_url, smtp[1], forgot_limit=2) as client:
        for _ in range(2):
            assert client.post("/api/accounts/forgot", json={"name": "Anyone"}).status_code == 202
        refused = client.post("/api/accounts/forgot", json={"name": "Anyone"})
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1


def test_forgot_sends_an_account_a_few_links_at_most(
    sqlite_url: str, smtp: tuple[Inbox, int]
) -> None:
    inbox, port = smtp
    with mail_client(sqlite_url, port, forgot_limit=1) as client:
        verified(client, inbox)
        url = str(client.app.state.settings.db)  # type: ignore[attr-defined]
        for _ in range(2):  # from two addresses: the address's limit is not what stops it
            client.post("/api/accounts/forgot", json={"name": "Wickham"})
            key = "forgot-address:testclient"
            storage = Storage(url)
            with storage.engine.begin() as conn:
                conn.execute(sign_in_failures.delete().where(sign_in_failures.c.key == key))
            storage.close()
        assert client.post("/api/accounts/forgot", json={"name": "Other"}).status_code == 202
        delivered(url)
        assert len(inbox.to(ADDRESS, "password")) == 1


def test_without_smtp_forgot_says_the_operator_can_make_a_link(sqlite_url: str) -> None:
    with make_client(sqlite_url) as client:
        client.headers.update(HERE)
        answer = client.post("/api/accounts/forgot", json={"name": "Wickham"})
        assert answer.status_code == 501 and answer.json()["error"] == "no-mail"
        assert "candlebox accounts reset" in answer.json()["message"]
        assert sign_up(client, email=ADDRESS).status_code == 201  # kept, never mailed
        url = str(client.app.state.settings.db)  # type: ignore[attr-defined]
        assert rows(url, outbox) == []


# ----------------------------------------------------------------------------- delivery
def test_a_request_never_waits_for_the_smtp_server(sqlite_url: str) -> None:
    """Nothing listens at the SMTP address: the sign-up answers, and its mail waits its next try."""
    with mail_client(sqlite_url, free_port()) as client:
        assert sign_up(client, email=ADDRESS).status_code == 201
        url = str(client.app.state.settings.db)  # type: ignore[attr-defined]
        row = wait_for(lambda: [r for r in rows(url, outbox) if r.tries == 1 and r.last_error])[0]
        assert row.status == "waiting" and row.next_try > time.time() + 20


def test_a_refused_mail_is_tried_again_later(client: TestClient, smtp: tuple[Inbox, int]) -> None:
    inbox, _ = smtp
    inbox.refuse = 1
    assert sign_up(client, email=ADDRESS).status_code == 201
    url = str(client.app.state.settings.db)  # type: ignore[attr-defined]
    row = wait_for(lambda: [r for r in rows(url, outbox) if r.last_error])[0]
    assert row.status == "waiting" and row.tries == 1 and "451" in row.last_error
    assert row.next_try - time.time() > retry_wait(1) - 5  # about 30 s off, not now
    assert inbox.messages == []
    sender = client.app.state.mail.sender  # type: ignore[attr-defined]
    sent = client.portal.call(sender.send_due, row.next_try + 1)  # type: ignore[union-attr]
    assert sent == 1 and len(inbox.to(ADDRESS, "Confirm")) == 1
    assert [r.status for r in rows(url, outbox)] == ["sent"]


def test_a_mail_is_given_up_after_its_tries(sqlite_url: str, smtp: tuple[Inbox, int]) -> None:
    inbox, port = smtp
    inbox.refuse = 5
    with mail_client(sqlite_url, port, mail_tries=2) as client:
        assert sign_up(client, email=ADDRESS).status_code == 201
        url = str(client.app.state.settings.db)  # type: ignore[attr-defined]
        row = wait_for(lambda: [r for r in rows(url, outbox) if r.last_error])[0]
        sender = client.app.state.mail.sender  # type: ignore[attr-defined]
        client.portal.call(sender.send_due, row.next_try + 1)  # type: ignore[union-attr]
        assert [(r.status, r.tries) for r in rows(url, outbox)] == [("failed", 2)]
        client.portal.call(sender.send_due, time.time() + 10**6)  # type: ignore[union-attr]
        assert inbox.refuse == 3  # never tried again


def test_retries_wait_longer_each_time_up_to_an_hour() -> None:
    assert [retry_wait(n) for n in (1, 2, 3, 4)] == [30, 60, 120, 240]
    assert retry_wait(20) == 3600


def test_two_senders_on_postgresql_never_take_the_same_mail(postgres_url: str) -> None:
    """Two processes' senders taking at once: FOR UPDATE SKIP LOCKED hands each row to one."""
    storage = Storage(postgres_url)
    settings = Settings(db=postgres_url)
    try:
        with storage.engine.begin() as conn:
            for n in range(40):
                Outbox.add(conn, f"p{n}@example.org", "hello", "text", None)
        senders = [Outbox(storage.engine, settings) for _ in range(2)]
        taken: list[list[int]] = [[], []]
        start = threading.Barrier(2)

        def take(which: int) -> None:
            start.wait()
            while True:
                mails = senders[which].take(time.time(), limit=3)
                if not mails:
                    return
                taken[which].extend(mail.id for mail in mails)

        threads = [threading.Thread(target=take, args=(n,)) for n in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        every = taken[0] + taken[1]
        assert sorted(every) == sorted(set(every)) and len(every) == 40
        with storage.engine.connect() as conn:
            assert {row.tries for row in conn.execute(select(outbox))} == {1}
    finally:
        storage.close()


# ----------------------------------------------------------------------------- configuration
@pytest.mark.parametrize(
    ("settings", "named"),
    [
        ({"smtp_url": "http://mail.example.org"}, "CANDLEBOX_SMTP_URL"),
        ({"smtp_url": "smtp://user:secret@:25"}, "CANDLEBOX_SMTP_URL"),
        ({"smtp_url": "smtp://mail.example.org:99999"}, "CANDLEBOX_SMTP_URL"),
        ({"smtp_url": "smtp://user:secret@mail.example.org"}, "CANDLEBOX_PUBLIC_URL"),
    ],
)
def test_mail_set_up_wrong_is_refused_naming_the_setting(
    sqlite_url: str, settings: dict[str, Any], named: str
) -> None:
    with pytest.raises(ValueError, match=named) as refused:
        make_client(sqlite_url, **settings)
    assert "secret" not in str(refused.value)


def test_smtp_urls() -> None:
    plain = smtp_server("smtp://mailer:p%40ss@mail.example.org:587")
    assert (plain.host, plain.port, plain.tls, plain.username, plain.password) == (
        "mail.example.org",
        587,
        False,
        "mailer",
        "p@ss",
    )
    assert "p@ss" not in repr(plain)
    tls = smtp_server("smtps://mail.example.org")
    assert (tls.port, tls.tls, tls.username) == (465, True, None)


def test_serve_names_a_missing_public_url() -> None:
    result = CliRunner().invoke(cli_app, ["serve", "--smtp", "smtp://127.0.0.1:25"])
    assert result.exit_code != 0
    assert "CANDLEBOX_PUBLIC_URL (--public-url)" in result.output


def test_the_sweep_deletes_ended_links_and_old_mail(
    client: TestClient, smtp: tuple[Inbox, int]
) -> None:
    inbox, _ = smtp
    assert sign_up(client, email=ADDRESS).status_code == 201
    wait_for(lambda: inbox.to(ADDRESS, "Confirm"))
    url = str(client.app.state.settings.db)  # type: ignore[attr-defined]
    wait_for(lambda: [row.status for row in rows(url, outbox)] == ["sent"])
    service = client.app.state.service  # type: ignore[attr-defined]
    soon = time.time() + 3600  # the link still works: kept, and so is the mail
    client.portal.call(service.sweeper.sweep, soon)  # type: ignore[union-attr]
    assert len(rows(url, email_verifications)) == 1 and len(rows(url, outbox)) == 1
    later = time.time() + 31 * 86400
    client.portal.call(service.sweeper.sweep, later)  # type: ignore[union-attr]
    assert rows(url, email_verifications) == [] and rows(url, outbox) == []


def test_a_player_asks_for_another_confirmation_link(
    sqlite_url: str, smtp: tuple[Inbox, int]
) -> None:
    inbox, port = smtp
    with mail_client(sqlite_url, port, forgot_limit=2) as client:
        assert sign_up(client, email=ADDRESS).status_code == 201
        again = client.post("/api/accounts/verify/send", json={})
        assert again.status_code == 202 and again.json() == {"sent_to": ADDRESS}
        mails = wait_for(
            lambda: len(inbox.to(ADDRESS, "Confirm")) == 2 and inbox.to(ADDRESS, "Confirm")
        )
        token = link_in(mails[1], r"verify\?token=([A-Za-z0-9_-]+)")
        assert client.post("/api/accounts/verify", json={"token": token}).status_code == 200
        done = client.post("/api/accounts/verify/send", json={})
        assert done.status_code == 409 and done.json()["error"] == "email-verified"
        assert sign_up(client, "Nomail").status_code == 201
        missing = client.post("/api/accounts/verify/send", json={})
        assert missing.status_code == 400 and missing.json()["error"] == "email-missing"
        client.cookies.clear()
        assert client.post("/api/accounts/verify/send", json={}).status_code == 401


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("passkey_seconds", "{:g}"),
        ("max_passkeys", "{}"),
        ("max_passkey_flows", "{}"),
        ("mail_tries", "{}"),
        ("mail_poll", "{:g} s"),
        ("verify_hours", "{:g}"),
        ("forgot_limit", "{}"),
    ],
)
def test_the_docs_tables_show_the_defaults(name: str, shown: str) -> None:
    default = getattr(Settings(db="sqlite://"), name)
    text = (Path(__file__).resolve().parents[2] / "docs" / "server.md").read_text()
    assert f"| `{name}` | {shown.format(default)} |" in text
