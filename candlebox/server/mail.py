"""E-mail (docs/server.md, "E-mail"; docs/deploy.md, "Sending e-mail"): an outbox in the database
and a background sender that delivers it through an SMTP server with ``aiosmtplib``.

- Configured by ``CANDLEBOX_SMTP_URL`` (``smtp://user:password@host:port``, ``smtps://`` for TLS
  from the first byte; a plain ``smtp://`` connection is upgraded with STARTTLS when the server
  offers it) or ``candlebox serve --smtp URL``, with ``CANDLEBOX_PUBLIC_URL`` for the links in the
  mail (never the Host a request named: anyone can write that header, and a reset link pointing
  elsewhere would hand its token to whoever wrote it).
- A request only adds a row to the outbox (in the same transaction as the token its mail carries)
  and wakes this process's sender: nothing waits for the SMTP server.
- A sender takes due rows — ``FOR UPDATE SKIP LOCKED`` on PostgreSQL, so that the senders of
  several processes never take the same row — and holds each for a lease while it sends; a mail
  refused or not delivered is tried again later, each wait twice the one before (30 s, 1 min, …,
  at most an hour), and given up after ``Settings.mail_tries`` tries. Sent mail is kept for
  ``storage.MAIL_KEPT`` (the sweep deletes it), and goes with its account when that is deleted.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from urllib.parse import unquote, urlsplit

import aiosmtplib
from sqlalchemy import Connection, Engine, Table, insert, select, update

from candlebox.server.config import Settings
from candlebox.server.outbox_worker import BATCH, OutboxWorker
from candlebox.server.storage import outbox

log = logging.getLogger("candlebox.server")

LEASE = 120.0  # seconds a taken mail is held by its sender before another may take it
SEND_TIMEOUT = 30.0  # seconds to reach the SMTP server and hand it one mail
FIRST_WAIT, LONGEST_WAIT = 30.0, 3600.0  # seconds before the first retry, and the longest wait
SCHEMES = {"smtp": 25, "smtps": 465}


@dataclass(frozen=True)
class SmtpServer:
    """Where mail goes: ``tls`` for TLS from the first byte (smtps://)."""

    host: str
    port: int
    tls: bool
    username: str | None = None
    password: str | None = field(default=None, repr=False)  # never in a log line


@dataclass(frozen=True)
class Mail:
    id: int
    recipient: str
    subject: str
    body: str
    tries: int  # this one included
    headers: dict[str, str] = field(default_factory=dict)  # extra ones (List-Unsubscribe)


def smtp_server(url: str) -> SmtpServer:
    """The SMTP server of a ``smtp://`` or ``smtps://`` URL; a ValueError naming what is wrong
    (never repeating the URL: it may hold a password)."""
    parts = urlsplit(url.strip())
    if parts.scheme not in SCHEMES:
        raise ValueError("the SMTP URL starts smtp:// or smtps:// (smtp://user:password@host:port)")
    try:
        port = parts.port or SCHEMES[parts.scheme]
    except ValueError:
        raise ValueError("the SMTP URL's port is not a number from 1 to 65535") from None
    if not parts.hostname:
        raise ValueError("the SMTP URL names no host (smtp://user:password@host:port)")
    return SmtpServer(
        host=parts.hostname,
        port=port,
        tls=parts.scheme == "smtps",
        username=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password else None,
    )


def check(settings: Settings) -> None:
    """A ValueError naming the setting when mail is configured in a way that cannot work."""
    if not settings.smtp_url:
        return
    try:
        smtp_server(settings.smtp_url)
    except ValueError as exc:
        raise ValueError(f"CANDLEBOX_SMTP_URL (--smtp): {exc}") from None
    public = urlsplit(settings.public_url)
    if public.scheme not in ("http", "https") or not public.hostname:
        raise ValueError(
            "sending e-mail needs CANDLEBOX_PUBLIC_URL (--public-url), the address players reach "
            "the site at (https://candlebox.example.org), for the links in the mail"
        )


def sender_address(settings: Settings) -> str:
    """The From address: ``Settings.mail_from``, else candlebox@ the public URL's host."""
    if settings.mail_from:
        return settings.mail_from
    return f"Candlebox <candlebox@{urlsplit(settings.public_url).hostname or 'localhost'}>"


def link(settings: Settings, path: str) -> str:
    """A link into the site for a mail (``path`` starts with /)."""
    return settings.public_url.rstrip("/") + path


def retry_wait(tries: int) -> float:
    """Seconds before the next try of a mail tried ``tries`` times."""
    return min(LONGEST_WAIT, FIRST_WAIT * 2 ** max(0, tries - 1))


def note_failure(
    conn: Connection, table: Table, item: int, tries: int, most: int, now: float, reason: str
) -> None:
    """An outbox's item (of ``table``: the mail's or the pushes') that failed its try number
    ``tries``: waiting for its next try, or given up after its ``most``-th."""
    conn.execute(
        update(table)
        .where(table.c.id == item)
        .values(
            status="failed" if tries >= most else "waiting",
            next_try=now + retry_wait(tries),
            last_error=reason[:200],
        )
    )


# ---------------------------------------------------------------------------- the outbox
class Outbox:
    """Mail kept in the database until it is sent (synchronous: call it in a worker thread)."""

    def __init__(self, engine: Engine, settings: Settings) -> None:
        self.engine = engine
        self.settings = settings

    @staticmethod
    def add(
        conn: Connection,
        recipient: str,
        subject: str,
        body: str,
        account_id: int | None,
        headers: dict[str, str] | None = None,
    ) -> None:
        """A mail to send, in ``conn``'s transaction (so it exists exactly when what it tells of
        does), with any extra ``headers``; the caller wakes the sender after the commit."""
        now = time.time()
        conn.execute(
            insert(outbox).values(
                account_id=account_id,
                recipient=recipient,
                subject=subject[:200],
                body=body,
                status="waiting",
                tries=0,
                next_try=now,
                created_at=now,
                headers=json.dumps(headers) if headers else None,
            )
        )

    def take(self, now: float, limit: int = BATCH) -> list[Mail]:
        """Due mail, each held for :data:`LEASE` seconds by this sender and counted as one more
        try; rows another sender is taking at this moment are skipped, not waited for."""
        with self.engine.begin() as conn:
            rows = conn.execute(
                select(
                    outbox.c.id,
                    outbox.c.recipient,
                    outbox.c.subject,
                    outbox.c.body,
                    outbox.c.tries,
                    outbox.c.headers,
                )
                .where(outbox.c.status == "waiting", outbox.c.next_try <= now)
                .order_by(outbox.c.next_try, outbox.c.id)
                .limit(limit)
                .with_for_update(skip_locked=True)  # SQLite: one process, and no such clause
            ).all()
            if rows:
                conn.execute(
                    update(outbox)
                    .where(outbox.c.id.in_([row.id for row in rows]))
                    .values(next_try=now + LEASE, tries=outbox.c.tries + 1)
                )
        return [
            Mail(
                r.id,
                r.recipient,
                r.subject,
                r.body,
                r.tries + 1,
                json.loads(r.headers) if r.headers else {},
            )
            for r in rows
        ]

    def sent(self, mail: Mail, now: float) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(outbox)
                .where(outbox.c.id == mail.id)
                .values(status="sent", sent_at=now, last_error=None)
            )

    def failed(self, mail: Mail, now: float, reason: str) -> None:
        """Try again later, or give the mail up after its last try."""
        with self.engine.begin() as conn:
            note_failure(conn, outbox, mail.id, mail.tries, self.settings.mail_tries, now, reason)


# ---------------------------------------------------------------------------- the sender
class Sender(OutboxWorker[Mail]):
    """Delivers the outbox in the background of a web process (the loop: OutboxWorker)."""

    what = "mail"

    def __init__(self, outbox_: Outbox, server: SmtpServer, settings: Settings) -> None:
        super().__init__(settings)
        self.outbox = outbox_
        self.server = server
        self.sender = sender_address(settings)

    def take(self, now: float) -> list[Mail]:
        return self.outbox.take(now)

    async def deliver(self, mail: Mail) -> bool:
        try:
            message = self.message(mail)  # a header that cannot be written is a ValueError
            await aiosmtplib.send(
                message,
                hostname=self.server.host,
                port=self.server.port,
                username=self.server.username,
                password=self.server.password,
                use_tls=self.server.tls,
                timeout=SEND_TIMEOUT,
            )
        except (aiosmtplib.SMTPException, OSError, TimeoutError, ValueError) as exc:
            reason = f"{type(exc).__name__}: {exc}"
            log.warning("mail %s not delivered (try %s): %s", mail.id, mail.tries, reason)
            await asyncio.to_thread(self.outbox.failed, mail, time.time(), reason)
            return False
        await asyncio.to_thread(self.outbox.sent, mail, time.time())
        return True

    def message(self, mail: Mail) -> EmailMessage:
        message = EmailMessage()
        message["From"] = self.sender
        message["To"] = mail.recipient
        message["Subject"] = mail.subject
        message["Date"] = formatdate(localtime=False)
        message["Message-ID"] = make_msgid(domain=self.sender.rpartition("@")[2].rstrip(">"))
        for name, value in mail.headers.items():
            message[name] = value
        message.set_content(mail.body)
        return message


class Mailer:
    """The app's mail: its outbox, and (when SMTP is configured) the sender started with the app."""

    def __init__(self, engine: Engine, settings: Settings) -> None:
        self.outbox = Outbox(engine, settings)
        self.sender: Sender | None = None
        if settings.smtp_url:
            check(settings)
            self.sender = Sender(self.outbox, smtp_server(settings.smtp_url), settings)

    @property
    def configured(self) -> bool:
        return self.sender is not None

    def start(self) -> None:
        if self.sender is not None:
            self.sender.start()

    async def stop(self) -> None:
        if self.sender is not None:
            await self.sender.stop()

    def wake(self) -> None:
        """Send what was just added (call after its transaction committed)."""
        if self.sender is not None:
            self.sender.wake()
