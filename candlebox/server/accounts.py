"""Accounts (issue 34): names that last, passwords, sessions, and the seats an account holds.

- A name is 3–20 characters: letters, digits, ``_`` and ``-`` (no spaces, so it reads in a link).
  It is unique regardless of case: the key kept beside it is its case-folded NFKC form, so ``Wick``,
  ``WICK`` and ``ｗｉｃｋ`` are one name. The bot levels, the bots' seat names and a few words
  (``admin``, ``candlebox``, ``deleted player``, ...) are reserved.
- A password is 8–256 characters, stored as its argon2id hash (OWASP's parameters: 19 MiB, two
  passes, one lane); a hash made with other parameters is replaced at the next sign-in.
- A session is a random 256-bit token in an HttpOnly cookie; only its SHA-256 is stored, with an
  end that moves forward (at most once a day) while it is used.
- Wrong passwords are counted per account name and per client address, in the database so that
  every process counts together; past the limit, tries get 429 until the window has passed. An
  unknown name costs the same hash as a known one and gets the same answer.

Everything here is synchronous (the routes call it in a worker thread): a hash takes tens of
milliseconds of CPU and must not hold the event loop.
"""

from __future__ import annotations

import functools
import time
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Connection, Engine, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from candlebox.engine.levels import LEVEL_NAMES
from candlebox.server import security
from candlebox.server.config import Settings
from candlebox.server.errors import Rejected
from candlebox.server.storage import (
    FINISHED,
    NOTICE_TABLES,
    Storage,
    account_sessions,
    accounts,
    chat_messages,
    chat_mutes,
    database_url,
    email_verifications,
    follows,
    games,
    outbox,
    passkey_challenges,
    passkeys,
    password_resets,
    queue_tickets,
    ratings,
    seat_invites,
    seats,
    sign_in_failures,
)

NAME_MIN, NAME_MAX = 3, 20
PASSWORD_MIN, PASSWORD_MAX = 8, 256
EMAIL_MAX = 254
DELETED = "deleted player"  # a deleted account's name in the games it finished
# Words nobody may take as a name: they would pass for the site, its staff or its bots.
RESERVED = (
    "admin",
    "administrator",
    "moderator",
    "mod",
    "candlebox",
    "deleted player",
    "deleted_player",
    "deleted-player",
    "root",
    "system",
    "staff",
    "support",
    "guest",
    "spectator",
    "bot",
    *LEVEL_NAMES,
    # the names the server gives bot seats (candlebox/server/creating.py's BOT_NAMES)
    "ember",
    "wick",
    "taper",
    "lumen",
    "flicker",
    "tallow",
    "beacon",
    "glim",
)
DAY = 86400.0
# OWASP's Password Storage Cheat Sheet, argon2id: m=19 MiB, t=2, p=1 (docs/server.md: its cost here)
HASHER = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1, hash_len=32, salt_len=16)


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    email: str | None
    created_at: float
    email_verified: bool = False  # the address was confirmed by a link sent to it


@dataclass(frozen=True)
class Session:
    account: Account
    token_hash: str
    expires_at: float
    extended: bool  # its end moved on with this use (the cookie is sent again)


# ---------------------------------------------------------------------------- rules
def name_key(name: str) -> str:
    """The form two names are compared in: case-folded NFKC (so case and width do not count)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def check_name(name: str) -> str:
    """The name as it will be shown (NFKC), or :class:`Rejected` saying what is wrong with it."""
    shown = unicodedata.normalize("NFKC", name)
    if len(shown) < NAME_MIN:
        raise Rejected("name-short", f"a name has at least {NAME_MIN} characters")
    if len(shown) > NAME_MAX:
        raise Rejected("name-long", f"a name has at most {NAME_MAX} characters")
    if any(ch.isspace() for ch in shown):
        raise Rejected("name-characters", "a name has no spaces (use _ or - between words)")
    if not all(_allowed(ch, at) for at, ch in enumerate(shown)):
        raise Rejected("name-characters", "a name has only letters, digits, _ and -")
    key = name_key(shown)
    if key in _reserved():
        raise Rejected("name-reserved", f"the name {shown!r} is reserved; choose another")
    return shown


def _allowed(ch: str, at: int) -> bool:
    kind = unicodedata.category(ch)
    if ch in "_-" or kind.startswith("L") or kind == "Nd":
        return True
    return at > 0 and kind in ("Mn", "Mc")  # the marks some scripts need, after a letter


@functools.cache
def _reserved() -> frozenset[str]:
    return frozenset(name_key(word) for word in RESERVED)


def check_password(password: str) -> None:
    if len(password) < PASSWORD_MIN:
        raise Rejected("password-short", f"a password has at least {PASSWORD_MIN} characters")
    if len(password) > PASSWORD_MAX:
        raise Rejected("password-long", f"a password has at most {PASSWORD_MAX} characters")


def check_email(email: str | None) -> str | None:
    """An address kept for later (verified once e-mail is sent, issue 21); only its shape here."""
    if email is None or not email.strip():
        return None
    email = email.strip()
    local, _, domain = email.rpartition("@")
    if len(email) > EMAIL_MAX or not local or "." not in domain or any(c.isspace() for c in email):
        raise Rejected("email", "that is not an e-mail address (name@example.org)")
    return email


@functools.cache
def _dummy_hash() -> str:
    """What an unknown name's password is checked against, so it costs what a known one does."""
    return HASHER.hash(security.new_token())


def _verify(stored: str, password: str) -> bool:
    try:
        return HASHER.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


# ---------------------------------------------------------------------------- the store
class Accounts:
    """Accounts, sessions and reset tokens in the server's database."""

    def __init__(self, engine: Engine, settings: Settings) -> None:
        self.engine = engine
        self.settings = settings

    @property
    def session_seconds(self) -> float:
        return self.settings.session_days * DAY

    # ------------------------------------------------------------------ signing up and in
    def sign_up(self, name: str, password: str, email: str | None) -> tuple[Account, str]:
        """A new account and its first session's token."""
        shown = check_name(name)
        check_password(password)
        address = check_email(email)
        hashed = HASHER.hash(password)
        now = time.time()
        try:
            with self.engine.begin() as conn:
                done = conn.execute(
                    insert(accounts).values(
                        name=shown,
                        name_key=name_key(shown),
                        password_hash=hashed,
                        email=address,
                        created_at=now,
                    )
                )
                key = done.inserted_primary_key
                assert key is not None
                account = Account(int(key[0]), shown, address, now)
                token = self._new_session(conn, account.id, now)
        except IntegrityError:
            raise Rejected(
                "name-taken", f"the name {shown!r} is taken; choose another", 409
            ) from None
        return account, token

    def sign_in(self, name: str, password: str, client: str) -> tuple[Account, str]:
        """A new session for the name and password, or the same refusal whether the name exists
        or not (after the same work); 429 while too many tries failed."""
        key = name_key(name)[:100]
        dummy = (
            _dummy_hash()
        )  # made before anything is looked up: the first unknown name costs no more
        now = time.time()
        self._check_throttle(key, client, now)
        with self.engine.connect() as conn:
            row = conn.execute(select(accounts).where(accounts.c.name_key == key)).first()
        stored = row.password_hash if row is not None else dummy
        if not _verify(stored, password) or row is None:
            self._failed(key, client, now)
            raise Rejected("credentials", "wrong name or password", 401)
        with self.engine.begin() as conn:
            if HASHER.check_needs_rehash(stored):
                new_hash = HASHER.hash(password)
                conn.execute(
                    update(accounts).where(accounts.c.id == row.id).values(password_hash=new_hash)
                )
            conn.execute(delete(sign_in_failures).where(sign_in_failures.c.key == f"name:{key}"))
            token = self._new_session(conn, row.id, now)
        return _account(row), token

    def open_session(self, conn: Connection, account_id: int) -> str:
        """A new session for an account signed in another way (a passkey), in ``conn``'s
        transaction: the same token and cookie as a password sign-in's."""
        return self._new_session(conn, account_id, time.time())

    def _new_session(self, conn: Connection, account_id: int, now: float) -> str:
        token = security.new_token()
        conn.execute(
            insert(account_sessions).values(
                token_hash=security.digest(token),
                account_id=account_id,
                created_at=now,
                expires_at=now + self.session_seconds,
            )
        )
        return token

    # ------------------------------------------------------------------ throttling
    def _check_throttle(self, key: str, client: str, now: float) -> None:
        name, address = _counted(key, client)
        limits = {
            name: self.settings.sign_in_failures,
            address: self.settings.sign_in_address_failures,
        }
        self.refuse_if_throttled(limits, now)

    def _failed(self, key: str, client: str, now: float) -> None:
        self.count_failures(_counted(key, client), now)

    def refuse_if_throttled(
        self, limits: dict[str, int], now: float, what: str = "failed sign-ins"
    ) -> None:
        """429 with Retry-After while any of the keys has failed its limit of times within the
        window (passwords, passkeys and "forgot password" count in the same table and window)."""
        window = self.settings.sign_in_window
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(sign_in_failures).where(sign_in_failures.c.key.in_(list(limits)))
            ).all()
        for row in rows:
            if row.since + window > now and row.failures >= limits[row.key] > 0:
                wait = row.since + window - now
                raise Rejected("slow-down", f"too many {what}; try again later", 429).retry_in(wait)

    def count_failures(self, keys: Iterable[str], now: float) -> None:
        """One more failure for each key, counted afresh when its window has passed."""
        window = self.settings.sign_in_window
        with self.engine.begin() as conn:
            for counted in keys:
                row = conn.execute(
                    select(sign_in_failures).where(sign_in_failures.c.key == counted)
                ).first()
                if row is None:
                    conn.execute(
                        insert(sign_in_failures).values(key=counted, failures=1, since=now)
                    )
                elif row.since + window <= now:  # the window has passed: count afresh
                    conn.execute(
                        update(sign_in_failures)
                        .where(sign_in_failures.c.key == counted)
                        .values(failures=1, since=now)
                    )
                else:
                    conn.execute(
                        update(sign_in_failures)
                        .where(sign_in_failures.c.key == counted)
                        .values(failures=sign_in_failures.c.failures + 1)
                    )

    # ------------------------------------------------------------------ sessions
    def session(self, token: str | None) -> Session | None:
        """The live session of a cookie's token (None: no token, unknown, or expired); its end
        moves on when a day of it has been used."""
        if not security.well_formed(token):
            return None
        assert token is not None
        digest = security.digest(token)
        now = time.time()
        with self.engine.connect() as conn:
            row = conn.execute(
                select(account_sessions.c.expires_at, accounts)
                .join(accounts, accounts.c.id == account_sessions.c.account_id)
                .where(account_sessions.c.token_hash == digest, account_sessions.c.expires_at > now)
            ).first()
        if row is None:
            return None
        expires, extended = row.expires_at, False
        if expires - now < self.session_seconds - DAY:
            expires, extended = now + self.session_seconds, True
            with self.engine.begin() as conn:
                conn.execute(
                    update(account_sessions)
                    .where(account_sessions.c.token_hash == digest)
                    .values(expires_at=expires)
                )
        return Session(_account(row), digest, expires, extended)

    def sign_out(self, session: Session, everywhere: bool) -> None:
        """End this session, or (``everywhere``) every session of its account."""
        mine = (
            account_sessions.c.account_id == session.account.id
            if everywhere
            else account_sessions.c.token_hash == session.token_hash
        )
        with self.engine.begin() as conn:
            conn.execute(delete(account_sessions).where(mine))
            conn.execute(
                delete(account_sessions).where(account_sessions.c.expires_at < time.time())
            )

    # ------------------------------------------------------------------ password resets
    def reset_token(self, name: str) -> tuple[str, float]:
        """A one-time token to set a new password (``candlebox accounts reset NAME``) and when it
        stops working; a LookupError for an unknown name (the operator is told)."""
        with self.engine.begin() as conn:
            row = conn.execute(
                select(accounts.c.id).where(accounts.c.name_key == name_key(name))
            ).first()
            if row is None:
                raise LookupError(f"no account is named {name!r}")
            token = security.new_token()
            expires = time.time() + self.settings.reset_hours * 3600
            conn.execute(
                insert(password_resets).values(
                    token_hash=security.digest(token), account_id=row.id, expires_at=expires
                )
            )
        return token, expires

    def reset_password(self, token: str, password: str) -> Account:
        """Use a reset token (once): the new password, and every session ended."""
        check_password(password)
        refused = Rejected("reset-token", "this reset link is not valid (used, or too old)", 400)
        if not security.well_formed(token):
            raise refused
        hashed = HASHER.hash(password)
        with self.engine.begin() as conn:
            gone = conn.execute(
                delete(password_resets)
                .where(password_resets.c.token_hash == security.digest(token))
                .returning(password_resets.c.account_id, password_resets.c.expires_at)
            ).first()
            if gone is None or gone.expires_at < time.time():
                raise refused
            conn.execute(
                update(accounts)
                .where(accounts.c.id == gone.account_id)
                .values(password_hash=hashed)
            )
            conn.execute(
                delete(account_sessions).where(account_sessions.c.account_id == gone.account_id)
            )
            row = conn.execute(select(accounts).where(accounts.c.id == gone.account_id)).one()
        return _account(row)

    # ------------------------------------------------------------------ the account's data
    def confirm(self, account: Account, password: str) -> None:
        """The account's password, asked again before it is deleted."""
        with self.engine.connect() as conn:
            stored = conn.execute(
                select(accounts.c.password_hash).where(accounts.c.id == account.id)
            ).scalar_one()
        if not _verify(stored, password):
            raise Rejected("credentials", "wrong password", 401)

    def delete(self, account: Account) -> list[str]:
        """Delete the account: its sessions and reset links end, its name becomes "deleted player"
        in the games it finished (they still replay) and its seats in the others belong to nobody;
        returns the ids of the finished games renamed (for the copies held in memory)."""
        with self.engine.begin() as conn:
            finished = [
                row.game_id
                for row in conn.execute(
                    select(seats.c.game_id)
                    .join(games, games.c.id == seats.c.game_id)
                    .where(seats.c.account_id == account.id, games.c.status.in_(FINISHED))
                )
            ]
            if finished:
                conn.execute(
                    update(seats)
                    .where(seats.c.account_id == account.id, seats.c.game_id.in_(finished))
                    .values(name=DELETED)
                )
            conn.execute(
                update(seats).where(seats.c.account_id == account.id).values(account_id=None)
            )
            # everything else kept of the account (its passkeys, links, mail) goes with it
            for table in (
                account_sessions,
                password_resets,
                passkeys,
                passkey_challenges,
                email_verifications,
                outbox,
                queue_tickets,  # a waiting ticket must never seat a deleted account
                ratings,
                *NOTICE_TABLES,  # notices, their preferences, pushes (issue 35)
                chat_mutes,
            ):
                conn.execute(delete(table).where(table.c.account_id == account.id))
            # its chat messages stay with their games, under no name of theirs
            conn.execute(
                update(chat_messages)
                .where(chat_messages.c.account_id == account.id)
                .values(name=DELETED, author="deleted", account_id=None)
            )
            mine = account.id
            conn.execute(
                delete(follows).where(
                    (follows.c.follower_id == mine) | (follows.c.followed_id == mine)
                )
            )
            conn.execute(
                delete(seat_invites).where(
                    (seat_invites.c.from_id == mine) | (seat_invites.c.to_id == mine)
                )
            )
            key = f"name:{name_key(account.name)}"
            conn.execute(delete(sign_in_failures).where(sign_in_failures.c.key == key))
            conn.execute(delete(accounts).where(accounts.c.id == account.id))
        return finished

    def seats_of(self, account: Account, limit: int = 200) -> list[dict[str, Any]]:
        """The account's seats, newest game first: the game's facts and the seat."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    games.c.id,
                    games.c.game,
                    games.c.variant,
                    games.c.players,
                    games.c.public,
                    games.c.status,
                    games.c.created_at,
                    games.c.updated_at,
                    seats.c.seat,
                    seats.c.name,
                )
                .join(seats, seats.c.game_id == games.c.id)
                .where(seats.c.account_id == account.id)
                .order_by(games.c.updated_at.desc(), games.c.id)
                .limit(limit)
            ).all()
        return [dict(row._mapping) for row in rows]

    def claim_seats(self, account: Account, held: list[tuple[str, str]]) -> list[tuple[str, int]]:
        """Bind to the account the seats whose credentials a browser kept as a guest (``held``:
        game id and seat token each): each seat whose token checks out and that no account holds
        yet. Returns the (game id, seat) bound; a wrong token, another account's seat or a game
        that is gone changes nothing and is not told apart (the seat's name stays as the other
        players know it)."""
        bound: list[tuple[str, int]] = []
        with self.engine.begin() as conn:
            for game_id, token in held:
                if not security.well_formed(token):
                    continue
                mine = (
                    (seats.c.game_id == game_id)
                    & (seats.c.token_hash == security.digest(token))
                    & seats.c.account_id.is_(None)
                )
                found = conn.execute(select(seats.c.seat).where(mine)).first()
                if found is None:
                    continue
                done = conn.execute(update(seats).where(mine).values(account_id=account.id))
                if done.rowcount != 1:  # bound meanwhile by another request
                    continue
                Storage.notify(conn, game_id, "seats")  # other processes' copies learn it
                bound.append((game_id, int(found.seat)))
        return bound

    def export(self, account: Account) -> dict[str, Any]:
        """Everything kept about the account, as JSON (no hash of any secret)."""
        with self.engine.connect() as conn:
            sessions = conn.execute(
                select(account_sessions.c.created_at, account_sessions.c.expires_at)
                .where(account_sessions.c.account_id == account.id)
                .order_by(account_sessions.c.created_at)
            ).all()
            keys = conn.execute(
                select(passkeys.c.name, passkeys.c.created_at, passkeys.c.used_at)
                .where(passkeys.c.account_id == account.id)
                .order_by(passkeys.c.id)
            ).all()
            count = conn.execute(
                select(func.count()).select_from(seats).where(seats.c.account_id == account.id)
            ).scalar_one()
            followed = conn.execute(
                select(accounts.c.name, follows.c.created_at)
                .join(follows, follows.c.followed_id == accounts.c.id)
                .where(follows.c.follower_id == account.id)
                .order_by(follows.c.created_at)
            ).all()
            records = conn.execute(
                select(ratings).where(ratings.c.account_id == account.id).order_by(ratings.c.game)
            ).all()
        return {
            "account": {
                "name": account.name,
                "email": account.email,
                "member_since": account.created_at,
                "email_verified": account.email_verified,
            },
            "sessions": [dict(row._mapping) for row in sessions],
            "passkeys": [dict(row._mapping) for row in keys],
            "follows": [{"name": row.name, "since": row.created_at} for row in followed],
            "games": self.seats_of(account, limit=max(1, int(count))),
            # per game: the OpenSkill rating (mu, sigma) over its rated games, games played, won
            "ratings": [
                {k: v for k, v in row._mapping.items() if k != "account_id"} for row in records
            ],
        }


def _counted(key: str, client: str) -> tuple[str, str]:
    """The keys failed sign-ins are counted under: the name's and the client address's."""
    return f"name:{key}"[:128], f"address:{client}"[:128]


def reset_link(name: str, url: str, settings: Settings, db: str | None) -> tuple[str, float]:
    """The operator's reset link for ``name`` on the site at ``url`` and when it stops working
    (``candlebox accounts reset``); ``db``: the server's database, else ``settings.db``."""
    storage = Storage(database_url(db or settings.db))
    try:
        token, expires = Accounts(storage.engine, settings).reset_token(name)
    finally:
        storage.close()
    # the token after '#': a browser never sends it to a server, nor in a Referer header
    return f"{url.rstrip('/')}/reset#{token}", expires


def _account(row: Any) -> Account:
    verified = row.email_verified_at is not None
    return Account(int(row.id), row.name, row.email, float(row.created_at), verified)
