"""Web Push (issue 35; docs/server.md, "Turn-based games and notices"; docs/deploy.md, "Web Push").

- The server signs its pushes with a VAPID key (P-256) made the first time one is needed (a
  browser asking for it, or a push to sign) and kept in the database (``server_keys``), so every
  process signs with the same key and a restart never makes a new one (which would silently end
  every browser's subscription). Not made at each start: the tests start thousands of apps on
  fresh databases, and writing a key cost each about 15 ms. docs/deploy.md says how to rotate it.
- A browser subscribes through ``POST /api/me/push`` with the PushSubscription its service worker
  (``/sw.js``) made; ``DELETE /api/me/push`` forgets it.
- A turn writes a row per subscription to ``push_outbox`` (candlebox/server/notices.py); a
  :class:`Pusher` in each web process takes due rows as the mail sender takes mail (``FOR UPDATE
  SKIP LOCKED``, a lease while sending, retries further apart, given up after
  ``Settings.mail_tries``) and sends them with ``pywebpush`` (encrypted, aes128gcm). A push service
  that answers 404 or 410 says the subscription has ended: it is deleted.
- The server only posts to push services on the public internet: an endpoint that is not https, or
  whose host is (or resolves to) a loopback, private or link-local address, is refused unless
  ``Settings.push_private_endpoints`` (tests with a local receiver) — a player could otherwise make
  the server post to machines behind it.
"""

from __future__ import annotations

import asyncio
import base64
import ipaddress
import logging
import socket
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid
from pywebpush import WebPushException, webpush
from sqlalchemy import Engine, delete, insert, select, update

from candlebox.server.config import Settings
from candlebox.server.errors import Rejected
from candlebox.server.mail import LEASE, note_failure, sender_address
from candlebox.server.notices import server_key
from candlebox.server.outbox_worker import BATCH, OutboxWorker
from candlebox.server.storage import push_outbox, push_subscriptions

log = logging.getLogger("candlebox.server")

VAPID_KEY = "vapid"  # the server_keys row of the VAPID private key (PEM)
SEND_TIMEOUT = 10.0  # seconds to hand a push to its push service
PUSH_TTL = 86400  # seconds a push service keeps a push for a browser that is away
MOST_SUBSCRIPTIONS = 10  # browsers one account may subscribe
ENDED = (404, 410)  # a push service's answer for a subscription that is gone


@dataclass(frozen=True)
class Subscription:
    endpoint: str
    p256dh: str
    auth: str


@dataclass(frozen=True)
class Push:
    id: int
    subscription: Subscription
    subscription_id: int
    payload: str
    tries: int  # this one included


# ---------------------------------------------------------------------------- the VAPID key
def new_vapid_key() -> str:
    key = ec.generate_private_key(ec.SECP256R1())
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    return pem.decode()


def vapid_key(engine: Engine) -> str:
    """The VAPID private key (PEM), made the first time any process asks."""
    return server_key(engine, VAPID_KEY, new_vapid_key)


def public_key(pem: str) -> str:
    """The browser's ``applicationServerKey``: the public point, base64url without padding."""
    key = serialization.load_pem_private_key(pem.encode(), password=None)
    assert isinstance(key, ec.EllipticCurvePrivateKey)
    raw = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def contact(settings: Settings) -> str:
    """The VAPID ``sub`` claim: how a push service reaches the operator."""
    address = sender_address(settings)
    return "mailto:" + address.rpartition("<")[2].rstrip(">").strip()


# ---------------------------------------------------------------------------- endpoints
def check_endpoint(endpoint: str, settings: Settings) -> None:
    """400 naming ``endpoint`` unless it is a push service's https URL on the public internet."""
    parts = urlsplit(endpoint)
    private = settings.push_private_endpoints
    if parts.scheme != "https" and not (private and parts.scheme == "http"):
        raise Rejected("endpoint", "endpoint: a push service's https:// URL")
    if not parts.hostname:
        raise Rejected("endpoint", "endpoint: the URL names no host")
    if not private and _private_host(parts.hostname):
        raise Rejected("endpoint", "endpoint: not a push service on the public internet")


def _private_host(host: str) -> bool:
    if host.lower() in ("localhost", "localhost.localdomain") or host.lower().endswith(".local"):
        return True
    try:
        return _private_address(host)
    except ValueError:
        return False  # a name: checked again, resolved, when a push is sent


def _private_address(text: str) -> bool:
    address = ipaddress.ip_address(text.split("%")[0])
    return not address.is_global


def resolves_privately(endpoint: str) -> bool:
    """Whether the endpoint's host resolves to any address that is not on the public internet
    (or does not resolve at all)."""
    host = urlsplit(endpoint).hostname or ""
    try:
        found = socket.getaddrinfo(host, None)
    except OSError:
        return True
    return any(_private_address(str(info[4][0])) for info in found)


def check_keys(p256dh: str, auth: str) -> None:
    """400 naming the key that is not what a browser's PushSubscription gives."""
    for name, text, size in (("keys.p256dh", p256dh, 65), ("keys.auth", auth, 16)):
        try:
            raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        except ValueError:
            raise Rejected("keys", f"{name}: not base64url") from None
        if len(raw) != size or (name == "keys.p256dh" and raw[0] != 4):
            raise Rejected("keys", f"{name}: not a browser's push key ({size} bytes)")


# ---------------------------------------------------------------------------- subscriptions
class Subscriptions:
    """An account's subscribed browsers (synchronous: the routes call it in a thread)."""

    def __init__(self, engine: Engine, settings: Settings) -> None:
        self.engine = engine
        self.settings = settings

    def subscribe(self, account_id: int, subscription: Subscription) -> None:
        check_endpoint(subscription.endpoint, self.settings)
        check_keys(subscription.p256dh, subscription.auth)
        mine = push_subscriptions.c.endpoint == subscription.endpoint
        with self.engine.begin() as conn:
            conn.execute(delete(push_subscriptions).where(mine))  # the browser's latest keys
            held = conn.execute(
                select(push_subscriptions.c.id).where(push_subscriptions.c.account_id == account_id)
            ).all()
            if len(held) >= MOST_SUBSCRIPTIONS:
                raise Rejected(
                    "too-many-subscriptions",
                    f"an account subscribes at most {MOST_SUBSCRIPTIONS} browsers; "
                    "unsubscribe one first",
                    409,
                )
            conn.execute(
                insert(push_subscriptions).values(
                    account_id=account_id,
                    endpoint=subscription.endpoint,
                    p256dh=subscription.p256dh,
                    auth=subscription.auth,
                    created_at=time.time(),
                )
            )

    def unsubscribe(self, account_id: int, endpoint: str) -> bool:
        with self.engine.begin() as conn:
            gone = conn.execute(
                delete(push_subscriptions).where(
                    push_subscriptions.c.account_id == account_id,
                    push_subscriptions.c.endpoint == endpoint,
                )
            )
        return bool(gone.rowcount)


# ---------------------------------------------------------------------------- the push outbox
class PushOutbox:
    """Pushes kept in the database until they are sent (synchronous)."""

    def __init__(self, engine: Engine, settings: Settings) -> None:
        self.engine = engine
        self.settings = settings

    def take(self, now: float, limit: int = BATCH) -> list[Push]:
        """Due pushes, each held for a lease and counted as one more try (rows another process is
        taking are skipped); pushes whose subscription has gone are dropped."""
        with self.engine.begin() as conn:
            rows = conn.execute(
                select(push_outbox)
                .where(push_outbox.c.status == "waiting", push_outbox.c.next_try <= now)
                .order_by(push_outbox.c.next_try, push_outbox.c.id)
                .limit(limit)
                .with_for_update(skip_locked=True)
            ).all()
            if not rows:
                return []
            conn.execute(
                update(push_outbox)
                .where(push_outbox.c.id.in_([row.id for row in rows]))
                .values(next_try=now + LEASE, tries=push_outbox.c.tries + 1)
            )
            wanted = {row.subscription_id for row in rows}
            found = {
                sub.id: Subscription(sub.endpoint, sub.p256dh, sub.auth)
                for sub in conn.execute(
                    select(push_subscriptions).where(push_subscriptions.c.id.in_(wanted))
                )
            }
            orphans = [row.id for row in rows if row.subscription_id not in found]
            if orphans:
                conn.execute(delete(push_outbox).where(push_outbox.c.id.in_(orphans)))
        return [
            Push(
                row.id, found[row.subscription_id], row.subscription_id, row.payload, row.tries + 1
            )
            for row in rows
            if row.subscription_id in found
        ]

    def sent(self, push: Push) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(push_outbox)
                .where(push_outbox.c.id == push.id)
                .values(status="sent", last_error=None)
            )

    def failed(self, push: Push, now: float, reason: str) -> None:
        with self.engine.begin() as conn:
            note_failure(
                conn, push_outbox, push.id, push.tries, self.settings.mail_tries, now, reason
            )

    def ended(self, push: Push) -> None:
        """The push service says the subscription is gone: it and its pushes are deleted."""
        with self.engine.begin() as conn:
            conn.execute(
                delete(push_outbox).where(push_outbox.c.subscription_id == push.subscription_id)
            )
            conn.execute(
                delete(push_subscriptions).where(push_subscriptions.c.id == push.subscription_id)
            )

    def forget_old(self, before: float) -> None:
        done = push_outbox.c.status.in_(("sent", "failed"))
        with self.engine.begin() as conn:
            conn.execute(delete(push_outbox).where(done, push_outbox.c.created_at < before))


# ---------------------------------------------------------------------------- the sender
class Pusher(OutboxWorker[Push]):
    """Sends the push outbox in the background of a web process (the loop: OutboxWorker)."""

    what = "push"

    def __init__(self, engine: Engine, settings: Settings) -> None:
        super().__init__(settings)
        self.outbox = PushOutbox(engine, settings)
        self.engine = engine
        self.key_pem: str | None = None

    def take(self, now: float) -> list[Push]:
        return self.outbox.take(now)

    def key(self) -> str:
        """The VAPID private key (PEM), read (or made) once per process (call it in a thread)."""
        if self.key_pem is None:
            self.key_pem = vapid_key(self.engine)
        return self.key_pem

    def application_key(self) -> str:
        """The browser's ``applicationServerKey`` (call it in a thread)."""
        return public_key(self.key())

    async def deliver(self, push: Push) -> bool:
        status, reason = await asyncio.to_thread(self._send, push)
        if status is not None and 200 <= status < 300:
            await asyncio.to_thread(self.outbox.sent, push)
            return True
        if status in ENDED:
            await asyncio.to_thread(self.outbox.ended, push)
            return False
        log.warning("push %s not delivered (try %s): %s", push.id, push.tries, reason)
        await asyncio.to_thread(self.outbox.failed, push, time.time(), reason)
        return False

    def _send(self, push: Push) -> tuple[int | None, str]:
        """The push service's status (None: not reached) and why it failed (in a thread)."""
        endpoint = push.subscription.endpoint
        if not self.settings.push_private_endpoints and resolves_privately(endpoint):
            return None, "the endpoint's host is not on the public internet"
        pem = self.key()
        try:
            answer = webpush(
                subscription_info={
                    "endpoint": endpoint,
                    "keys": {"p256dh": push.subscription.p256dh, "auth": push.subscription.auth},
                },
                data=push.payload,
                vapid_private_key=Vapid.from_pem(pem.encode()),
                vapid_claims={"sub": contact(self.settings)},
                ttl=PUSH_TTL,
                timeout=SEND_TIMEOUT,
            )
        except WebPushException as exc:
            response = exc.response
            code = None if response is None else int(response.status_code)
            return code, f"WebPushException: {code}"
        except Exception as exc:  # the network: refused, timed out, a name that does not resolve
            return None, f"{type(exc).__name__}: {exc}"
        return int(answer.status_code), ""
