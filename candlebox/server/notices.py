"""Turn-based games and notices (issue 35; docs/server.md, "Turn-based games and notices").

When a move makes a signed-in player's seat one the game waits for, that player is told — unless
they are watching the game right then (a websocket of their seat open in any process):

- an in-app notice (the bell in every page's header): at most one unread per game, a later turn
  renews it;
- an e-mail "your turn in GAME" when they want it, to a confirmed address, at most one per game an
  hour (:data:`MAIL_EVERY`), with a one-click unsubscribe link (RFC 8058);
- a Web Push to every browser they subscribed (candlebox/server/pushing.py sends it).

The move's own transaction is never touched: once the move is committed and broadcast, the notices
are written by the database writer in the background (:class:`TurnNotices`); mail and pushes are
sent later by their senders, which retry. A daily digest of the games waiting for a player is taken
by one process at a time (a guarded update of ``digest_at``).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import json
import logging
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from functools import partial
from typing import Any

from sqlalchemy import Connection, Engine, and_, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from candlebox.server import security
from candlebox.server.config import Settings
from candlebox.server.errors import Rejected
from candlebox.server.live import LiveGame
from candlebox.server.mail import Outbox, link
from candlebox.server.registry import LiveGames
from candlebox.server.storage import (
    accounts,
    games,
    notice_preferences,
    notices,
    presence,
    push_outbox,
    push_subscriptions,
    server_keys,
    turn_mail,
)

log = logging.getLogger("candlebox.server")

YOUR_TURN = "your-turn"  # the one kind of notice so far
MAIL_EVERY = 3600.0  # seconds: at most one "your turn" mail per account and game in this time
DIGEST_EVERY = 86400.0  # seconds between two digests of one account
LISTED = 50  # notices listed at once (newest first)
UNSUBSCRIBE_KEY = "unsubscribe"  # the server_keys row of the key that signs unsubscribe links
UNSUBSCRIBABLE = ("turn-mail", "digest")  # what an unsubscribe link may turn off

TURN_SUBJECT = "Your turn in {title}"
TURN_BODY = """Hello {name},

it is your turn in {title}:

{game}

You get at most one such mail per game an hour. To get none, open this link (one click, no
sign-in needed): {unsubscribe}
or change what you are told on your account page: {account}
"""
DIGEST_SUBJECT = "Your Candlebox games waiting for you"
DIGEST_BODY = """Hello {name},

these games are waiting for your move:

{lines}

To stop this daily mail, open this link (one click, no sign-in needed): {unsubscribe}
or change what you are told on your account page: {account}
"""


@dataclass(frozen=True)
class Preferences:
    """What a player wants told outside the site (the defaults: no row yet)."""

    turn_mail: bool = True
    digest: bool = False
    push: bool = True


@dataclass(frozen=True)
class Notice:
    id: int
    game_id: str
    kind: str
    text: str
    at: float
    read: bool


@dataclass(frozen=True)
class Turn:
    """A seat a move made one the game waits for, and the account that holds it."""

    seat: int
    account_id: int


@dataclass(frozen=True)
class Told:
    """What enqueueing turns wrote, so that the senders are woken."""

    mails: int = 0
    pushes: int = 0


# ---------------------------------------------------------------------------- server keys
def server_key(engine: Engine, name: str, make: Callable[[], str]) -> str:
    """The kept secret ``name``, made with ``make`` the first time (several processes starting
    together: the first insert wins, the others read it)."""
    with engine.connect() as conn:
        found = conn.execute(select(server_keys.c.value).where(server_keys.c.name == name)).first()
    if found is not None:
        return str(found.value)
    with contextlib.suppress(IntegrityError), engine.begin() as conn:
        conn.execute(insert(server_keys).values(name=name, value=make(), created_at=time.time()))
    with engine.connect() as conn:
        return str(
            conn.execute(select(server_keys.c.value).where(server_keys.c.name == name)).scalar_one()
        )


def unsubscribe_secret(engine: Engine) -> str:
    return server_key(engine, UNSUBSCRIBE_KEY, security.new_token)


def _signature(secret: str, message: str) -> str:
    mac = hmac.new(secret.encode(), message.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:24]).decode().rstrip("=")


def unsubscribe_token(secret: str, account_id: int, what: str) -> str:
    """A link's token that turns ``what`` off for the account, signed (it needs no sign-in)."""
    message = f"{account_id}.{what}"
    return f"{message}.{_signature(secret, message)}"


def read_unsubscribe_token(secret: str, token: str) -> tuple[int, str]:
    """(account id, what) of a token from :func:`unsubscribe_token`; 400 for anything else."""
    refused = Rejected("unsubscribe-token", "this unsubscribe link is not valid")
    parts = token.split(".") if isinstance(token, str) and len(token) <= 100 else []
    if len(parts) != 3 or not parts[0].isdigit() or parts[1] not in UNSUBSCRIBABLE:
        raise refused
    expected = _signature(secret, f"{parts[0]}.{parts[1]}")
    if not hmac.compare_digest(expected, parts[2]):
        raise refused
    return int(parts[0]), parts[1]


def unsubscribe_headers(url: str) -> dict[str, str]:
    """RFC 8058: a mail client's "unsubscribe" button posts to ``url`` with no sign-in."""
    return {"List-Unsubscribe": f"<{url}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}


# ---------------------------------------------------------------------------- preferences
def preferences_of(conn: Connection, account_id: int) -> Preferences:
    row = conn.execute(
        select(notice_preferences).where(notice_preferences.c.account_id == account_id)
    ).first()
    if row is None:
        return Preferences()
    return Preferences(bool(row.turn_mail), bool(row.digest), bool(row.push))


def set_preferences(conn: Connection, account_id: int, chosen: Preferences) -> None:
    values = {"turn_mail": chosen.turn_mail, "digest": chosen.digest, "push": chosen.push}
    done = conn.execute(
        update(notice_preferences)
        .where(notice_preferences.c.account_id == account_id)
        .values(**values)
    )
    if done.rowcount == 0:
        conn.execute(
            insert(notice_preferences).values(account_id=account_id, digest_at=0.0, **values)
        )


def turn_off(conn: Connection, account_id: int, what: str) -> Preferences:
    """An unsubscribe link used: ``what`` ("turn-mail" or "digest") is off from now."""
    was = preferences_of(conn, account_id)
    now = Preferences(
        turn_mail=was.turn_mail and what != "turn-mail",
        digest=was.digest and what != "digest",
        push=was.push,
    )
    set_preferences(conn, account_id, now)
    return now


# ---------------------------------------------------------------------------- enqueueing turns
def watching(conn: Connection, game_id: str, seat: int, now: float) -> bool:
    """A websocket of ``seat`` is open on the game in some process (several processes: their
    presence rows, refreshed while connected)."""
    row = conn.execute(
        select(presence.c.seat).where(
            presence.c.game_id == game_id,
            presence.c.seat == seat,
            presence.c.connected.is_(True),
            presence.c.expires > now,
        )
    ).first()
    return row is not None


def enqueue_turns(
    conn: Connection,
    settings: Settings,
    secret: str,
    game_id: str,
    title: str,
    turns: list[Turn],
    now: float,
    shared: bool,
) -> Told:
    """Write the notices, mail and pushes of ``turns`` (in the writer's transaction)."""
    mails = pushes = 0
    text = f"Your turn in {title}"
    for turn in turns:
        if shared and watching(conn, game_id, turn.seat, now):
            continue
        renew_notice(conn, turn.account_id, game_id, text, now)
        chosen = preferences_of(conn, turn.account_id)
        if settings.smtp_url and chosen.turn_mail:
            mails += mail_turn(conn, settings, secret, turn.account_id, game_id, title, now)
        if chosen.push:
            pushes += push_turn(conn, turn.account_id, game_id, text)
    return Told(mails, pushes)


def renew_notice(conn: Connection, account_id: int, game_id: str, text: str, now: float) -> None:
    """The account's unread notice of its turn in the game, made or renewed (one per game)."""
    unread = and_(
        notices.c.account_id == account_id,
        notices.c.game_id == game_id,
        notices.c.kind == YOUR_TURN,
        notices.c.read_at.is_(None),
    )
    if conn.execute(update(notices).where(unread).values(created_at=now, text=text)).rowcount:
        return
    conn.execute(
        insert(notices).values(
            account_id=account_id,
            game_id=game_id,
            kind=YOUR_TURN,
            text=text,
            created_at=now,
            read_at=None,
        )
    )


def mail_turn(
    conn: Connection,
    settings: Settings,
    secret: str,
    account_id: int,
    game_id: str,
    title: str,
    now: float,
) -> int:
    """A "your turn" mail to the account's confirmed address, unless one went for this game within
    :data:`MAIL_EVERY`; 1 if one was written."""
    account = conn.execute(
        select(accounts.c.name, accounts.c.email, accounts.c.email_verified_at).where(
            accounts.c.id == account_id
        )
    ).first()
    if account is None or not account.email or account.email_verified_at is None:
        return 0
    mine = and_(turn_mail.c.account_id == account_id, turn_mail.c.game_id == game_id)
    last = conn.execute(select(turn_mail.c.sent_at).where(mine)).scalar()
    if last is not None and last > now - MAIL_EVERY:
        return 0
    if last is None:
        conn.execute(insert(turn_mail).values(account_id=account_id, game_id=game_id, sent_at=now))
    else:
        conn.execute(update(turn_mail).where(mine).values(sent_at=now))
    off = link(settings, f"/unsubscribe?token={unsubscribe_token(secret, account_id, 'turn-mail')}")
    body = TURN_BODY.format(
        name=account.name,
        title=title,
        game=link(settings, f"/g/{game_id}"),
        unsubscribe=off,
        account=link(settings, "/account"),
    )
    subject = TURN_SUBJECT.format(title=title)
    headers = unsubscribe_headers(off)
    # the mail is due at once, by the wall clock (``now`` may be a test's)
    Outbox.add(conn, account.email, subject, body, account_id, headers)
    return 1


def push_turn(conn: Connection, account_id: int, game_id: str, text: str) -> int:
    """A push to each browser the account subscribed, due at once by the wall clock; how many
    were written."""
    now = time.time()
    ids = [
        row.id
        for row in conn.execute(
            select(push_subscriptions.c.id).where(push_subscriptions.c.account_id == account_id)
        )
    ]
    payload = json.dumps({"title": "Candlebox", "body": text, "url": f"/g/{game_id}"})
    for subscription in ids:
        conn.execute(
            insert(push_outbox).values(
                account_id=account_id,
                subscription_id=subscription,
                payload=payload,
                status="waiting",
                tries=0,
                next_try=now,
                created_at=now,
            )
        )
    return len(ids)


class TurnNotices:
    """The moves' part: after a move is committed and broadcast, the seats it made to act that a
    signed-in player holds and is not watching are told — in the background, through the
    database writer, so the move never waits for any of it."""

    def __init__(self, games: LiveGames) -> None:
        self.games = games
        self.clock: Callable[[], float] = time.time  # tests move time on
        self.wake: Callable[[Told], None] = lambda told: None  # the app's senders
        self.secret: str | None = None
        self.tasks: set[asyncio.Task[None]] = set()

    @staticmethod
    def waiting(live: LiveGame) -> frozenset[int]:
        """The seats the game waits for (before a move: to tell which ones the move added)."""
        return frozenset() if live.over else frozenset(live.state.to_act)

    def after_move(self, live: LiveGame, before: frozenset[int]) -> None:
        if live.over or self.games.closed:
            return
        turns = [
            Turn(seat, held.account_id)
            for seat in sorted(self.waiting(live) - before)
            if (held := live.seat(seat)).kind == "human"
            and held.account_id is not None
            and not live.watchers.get(seat)  # watching here (other processes: presence rows)
        ]
        if turns:
            self._background(self._tell(live.id, live.title, turns))

    def _background(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _tell(self, game_id: str, title: str, turns: list[Turn]) -> None:
        try:
            if self.secret is None:
                self.secret = await asyncio.to_thread(unsubscribe_secret, self.games.storage.engine)
            op = partial(
                enqueue_turns,
                settings=self.games.settings,
                secret=self.secret,
                game_id=game_id,
                title=title,
                turns=turns,
                now=self.clock(),
                shared=self.games.shared,
            )
            told: Told = await self.games.writer.run(op)
        except Exception:  # a courtesy: the move stands whatever happens here
            log.exception("telling the players of game %s it is their turn failed", game_id)
            return
        self.wake(told)

    async def settle(self) -> None:
        """Wait for the notices being written (tests, and a stopping process)."""
        while self.tasks:
            await asyncio.gather(*list(self.tasks), return_exceptions=True)


# ---------------------------------------------------------------------------- reading notices
class Notices:
    """An account's notices and preferences (synchronous: the routes call it in a thread)."""

    def __init__(self, engine: Engine, settings: Settings) -> None:
        self.engine = engine
        self.settings = settings

    def listed(self, account_id: int) -> tuple[list[Notice], int]:
        """The newest notices, and how many are unread."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(notices)
                .where(notices.c.account_id == account_id)
                .order_by(notices.c.created_at.desc(), notices.c.id.desc())
                .limit(LISTED)
            ).all()
            unread = conn.execute(
                select(func.count())
                .select_from(notices)
                .where(notices.c.account_id == account_id, notices.c.read_at.is_(None))
            ).scalar_one()
        found = [
            Notice(r.id, r.game_id, r.kind, r.text, r.created_at, r.read_at is not None)
            for r in rows
        ]
        return found, int(unread)

    def mark_read(self, account_id: int, ids: list[int] | None) -> int:
        """Mark read the account's notices ``ids`` (None: all of them); how many were unread."""
        mine = and_(notices.c.account_id == account_id, notices.c.read_at.is_(None))
        if ids is not None:
            mine = and_(mine, notices.c.id.in_(ids))
        with self.engine.begin() as conn:
            return int(
                conn.execute(update(notices).where(mine).values(read_at=time.time())).rowcount
            )

    def preferences(self, account_id: int) -> Preferences:
        with self.engine.connect() as conn:
            return preferences_of(conn, account_id)

    def choose(self, account_id: int, chosen: Preferences) -> Preferences:
        with self.engine.begin() as conn:
            set_preferences(conn, account_id, chosen)
        return chosen

    def unsubscribe(self, token: str) -> str:
        """Use an unsubscribe link: what it turned off (400 for a link that is not valid)."""
        account_id, what = read_unsubscribe_token(unsubscribe_secret(self.engine), token)
        with self.engine.begin() as conn:
            known = conn.execute(select(accounts.c.id).where(accounts.c.id == account_id)).first()
            if known is None:
                raise Rejected("unsubscribe-token", "this unsubscribe link is not valid")
            turn_off(conn, account_id, what)
        return what

    # ------------------------------------------------------------------ the daily digest
    def digests(self, now: float) -> int:
        """Write the digest of each account that wants one and had none for a day; how many mails
        were written. Each account is taken by one process (the guarded update)."""
        if not self.settings.smtp_url:
            return 0
        with self.engine.connect() as conn:
            due = conn.execute(
                select(notice_preferences.c.account_id, notice_preferences.c.digest_at).where(
                    notice_preferences.c.digest.is_(True),
                    notice_preferences.c.digest_at <= now - DIGEST_EVERY,
                )
            ).all()
        secret = unsubscribe_secret(self.engine) if due else ""
        return sum(self._digest(row.account_id, row.digest_at, now, secret) for row in due)

    def _digest(self, account_id: int, last: float, now: float, secret: str) -> int:
        with self.engine.begin() as conn:
            taken = conn.execute(
                update(notice_preferences)
                .where(
                    notice_preferences.c.account_id == account_id,
                    notice_preferences.c.digest_at == last,
                )
                .values(digest_at=now)
            )
            if taken.rowcount != 1:
                return 0  # another process took it
            account = conn.execute(
                select(accounts.c.name, accounts.c.email, accounts.c.email_verified_at).where(
                    accounts.c.id == account_id
                )
            ).first()
            if account is None or not account.email or account.email_verified_at is None:
                return 0
            waiting = conn.execute(
                select(notices.c.game_id, notices.c.text)
                .join(games, games.c.id == notices.c.game_id)
                .where(
                    notices.c.account_id == account_id,
                    notices.c.kind == YOUR_TURN,
                    notices.c.read_at.is_(None),
                    games.c.status == "live",
                )
                .order_by(notices.c.created_at)
            ).all()
            if not waiting:
                return 0
            lines = "\n".join(
                f"- {row.text}: {link(self.settings, f'/g/{row.game_id}')}" for row in waiting
            )
            token = unsubscribe_token(secret, account_id, "digest")
            off = link(self.settings, f"/unsubscribe?token={token}")
            body = DIGEST_BODY.format(
                name=account.name,
                lines=lines,
                unsubscribe=off,
                account=link(self.settings, "/account"),
            )
            headers = unsubscribe_headers(off)
            Outbox.add(conn, account.email, DIGEST_SUBJECT, body, account_id, headers)
            return 1
