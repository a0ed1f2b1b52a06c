"""Durable records: games, seats and moves in SQL (SQLite by default, PostgreSQL through the same code).

A game is stored as what it takes to replay it exactly: its id, game, variant, player count, validated
options and seed, and its moves in order. ``moves`` has the primary key ``(game_id, number)``, so two
writers can never both record move *n* of a game: the second insert fails with :class:`MoveConflict`.
Live state is never stored; on start the server rebuilds every game by replaying its moves through
the engine.

All writes go through one :class:`Writer` thread that commits whatever is queued in one transaction
(group commit): each caller's future resolves only after its rows are committed, so the server can
broadcast a move knowing it is on disk, and many games moving at once share one fsync.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    UniqueConstraint,
    and_,
    create_engine,
    delete,
    event,
    exists,
    func,
    insert,
    literal,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError

from candlebox.server import migrating

metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("variant", String(64), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", Text, nullable=False),  # JSON: the validated options, defaults included
    Column("seed", BigInteger, nullable=False),
    Column("public", Boolean, nullable=False),  # listed in the lobby's open games
    Column("bot_delay", Float, nullable=False),  # seconds a bot waits before moving
    # "live", "over", "broken", "expired" (closed unplayed), "resigned" (a seat resigned: over,
    # the result says who), "lost-on-time" (a rated seat ran out of time: over, the result's
    # ``out_of_time`` says who), "stopped" (a bot-only table stopped by its creator or its time
    # limit: over, the result says why) or "abandoned" (its host left it before anyone else
    # played); a plain string, so databases made before a status existed need no migration
    Column("status", String(16), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("result", Text, nullable=True),  # JSON {"winners": [...], "scores": [...]} when over
)

seats = Table(
    "seats",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("kind", String(8), nullable=False),  # "human" or "bot"
    Column("bot", String(64), nullable=True),
    Column("params", Text, nullable=True),  # JSON: the bot's parameters
    Column("name", String(64), nullable=False),
    Column("token_hash", String(64), nullable=True),  # sha256 of the seat's credential, once taken
    Column("invite_hash", String(64), nullable=True),  # sha256 of the join link's invite code
    # the account that took the seat, signed in (NULL: a guest, a bot, or nobody yet); no foreign
    # key, so that SQLite could add the column in place (migration 0002): deleting an account
    # clears it first (candlebox/server/accounts.py)
    Column("account_id", Integer, nullable=True),
    PrimaryKeyConstraint("game_id", "seat", name="seats_game_seat"),
    Index("seats_account", "account_id"),
)

moves = Table(
    "moves",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
    Column("number", Integer, nullable=False),  # 0 for the first move
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),
    Column("at", Float, nullable=False),
    PrimaryKeyConstraint("game_id", "number", name="moves_game_number"),
)


# Verifiable shuffles (candlebox/engine/fairness.py), one row per game created with them: the
# commitment shown from the start and the nonce revealed at the end (the seed is the game's own).
# A table of its own, so databases made before it gain it with ``create_all`` and nothing else moves.
fairness = Table(
    "fairness",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("practice", Boolean, nullable=False),  # created as a practice game
    Column("seed_chosen", Boolean, nullable=False),  # the creator chose the seed (practice only)
    Column("nonce", String(64), nullable=False),
    Column("commitment", String(64), nullable=False),
)


LOST_ON_TIME = "lost-on-time"  # a rated game's seat ran out of time (issue 35): it lost
# statuses of games with a result (listed, replayable)
FINISHED = ("over", "resigned", LOST_ON_TIME, "stopped")
ENDED = (*FINISHED, "expired", "abandoned")  # statuses of games deleted once old
MAIL_KEPT = 30 * 86400.0  # seconds sent and given-up mail is kept (the sweep deletes it)

# Bot-only tables (no human seat; docs/server.md, "Bot-only tables"): the SHA-256 of the credential
# their creator stops them with, and when they stop themselves (their time limit, stored so that it
# holds across a restart). A table of its own, so databases made before it gain it with
# ``create_all`` and nothing else moves; a bot-only game made before it has no row (nobody holds a
# credential for it) and stops ``bot_table_seconds`` after its creation.
bot_tables = Table(
    "bot_tables",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("owner_hash", String(64), nullable=True),
    Column(
        "stop_at", Float, nullable=True
    ),  # the wall-clock time (Unix seconds) it stops; NULL: never
)

# Turns owed by bots, for bot workers (``candlebox bots-worker``, docs/deploy.md): at most one row per
# game, "at move ``number`` a bot may be to act". Written in the same transaction as the move (or the
# seat change, or the new game) that made it owed, so no turn is ever lost; a worker claims a row by
# setting ``lease_until`` and, if it dies, the row is claimed again once the lease has passed.
bot_turns = Table(
    "bot_turns",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("number", Integer, nullable=False),
    Column("lease_until", Float, nullable=False),  # 0: claimable now
    Column("worker", String(64), nullable=True),  # who holds the lease (for the logs)
)

# PostgreSQL's NOTIFY channel: every app process LISTENs on it (candlebox/server/notify.py). A payload
# is "GAME_ID NUMBER SEAT ACTION" after move NUMBER is committed (the move itself, so a process whose
# copy is at move NUMBER applies it without reading the moves table), or "GAME_ID seats" after a seat
# changed ("presence" and "review" for the other listeners).
CHANNEL = "candlebox"
NOTIFY_LIMIT = 7900  # PostgreSQL refuses a payload of 8000 bytes or more


def move_payload(game_id: str, move: MoveRecord) -> str:
    """The notification of a committed move; only its number when the action is too long to carry
    (the listeners then read it from the moves table)."""
    payload = f"{game_id} {move.number} {move.seat} {move.action}"
    if len(payload.encode()) > NOTIFY_LIMIT:
        return f"{game_id} {move.number}"
    return payload


# A move on PostgreSQL in one statement (Storage.record_move), once the game's row is held
# (Storage.hold_game): the move, only when the move before it is recorded (a take-back may have just
# removed it), the bot turn it may make owed (an upsert on the game's one row) and the notification,
# which PostgreSQL delivers only when the transaction commits. The CTEs run even though nothing reads
# ``owed``; both depend on ``recorded``, so a duplicate move number fails the whole statement, a
# missing previous move records nothing, and nothing of it is written.
_RECORD_MOVE = text(
    """
    WITH recorded AS (
        INSERT INTO moves (game_id, number, seat, action, at)
        SELECT CAST(:game_id AS VARCHAR), :number, :seat, :action, :at
        WHERE :first OR EXISTS (
            SELECT 1 FROM moves WHERE game_id = :game_id AND number = :previous
        )
        RETURNING game_id
    ), owed AS (
        INSERT INTO bot_turns (game_id, number, lease_until, worker)
        SELECT game_id, :next, 0.0, NULL FROM recorded WHERE :owes
        ON CONFLICT (game_id) DO UPDATE
        SET number = EXCLUDED.number, lease_until = 0.0, worker = NULL
    )
    SELECT pg_notify(:channel, :payload) FROM recorded
    """
)


class MoveConflict(Exception):
    """Move number *n* of this game cannot be recorded: it is already (another writer got there
    first), or move *n - 1* is not (taken back meanwhile): the game's copy is behind the tables."""


def _missing_previous(game_id: str, number: int) -> MoveConflict:
    return MoveConflict(
        f"move {number} of game {game_id} follows move {number - 1}, which is not recorded "
        "(taken back meanwhile)"
    )


@dataclass
class SeatRecord:
    seat: int
    kind: str  # "human" or "bot"
    name: str
    bot: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
    token_hash: str | None = None
    invite_hash: str | None = None
    account_id: int | None = None  # the signed-in account that took it (None: a guest, or nobody)


@dataclass
class GameRecord:
    id: str
    game: str
    variant: str
    players: int
    options: dict[str, Any]
    seed: int
    public: bool
    bot_delay: float
    status: str = "live"
    created_at: float = 0.0
    updated_at: float = 0.0
    result: dict[str, Any] | None = None
    hints: bool = False  # the table allowed hints for everyone (a creation option)
    hints_given: list[tuple[int, int]] = field(default_factory=list)  # (seat, move) per hint
    seats: list[SeatRecord] = field(default_factory=list)
    fair: FairRecord | None = None  # None: a game from before verifiable shuffles
    table: BotTable | None = None  # a bot-only table's credential and time limit (None: other)
    rated: bool = False  # a rated table (issue 34): every seat a signed-in player, no bot, no hint
    clock: ClockRecord | None = None  # the table's clock (issue 35); None: no clock


@dataclass
class SeatClock:
    """One seat's clock: the seconds left at ``since`` (None: stopped, left as it is)."""

    remaining: float
    since: float | None = None
    out_of_time: bool = False


@dataclass
class ClockRecord:
    """A table's clock (candlebox/server/clocks.py): ``initial`` is each seat's time (turn-based:
    the time for one move) and ``increment`` what a move adds (realtime)."""

    mode: str  # "realtime" or "turn-based"
    initial: float
    increment: float = 0.0
    seats: list[SeatClock] = field(default_factory=list)


@dataclass
class BotTable:
    """A bot-only table's stop credential (its hash) and when it stops itself."""

    owner_hash: str | None
    stop_at: float | None  # None: no time limit


@dataclass
class FairRecord:
    practice: bool
    seed_chosen: bool
    nonce: str
    commitment: str


@dataclass(frozen=True)
class MoveRecord:
    number: int
    seat: int
    action: str


def database_url(text: str) -> str:
    """A SQLAlchemy URL from what a user types: a URL, ``postgresql://...``, or a SQLite file path."""
    if "://" not in text:
        return f"sqlite:///{Path(text).expanduser().resolve()}"
    scheme, rest = text.split("://", 1)
    if scheme in ("postgresql", "postgres"):
        return f"postgresql+psycopg://{rest}"
    return text


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA busy_timeout=10000")
    _wal(cursor)
    cursor.execute("PRAGMA synchronous=FULL")  # a commit survives a crash of the machine too
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _wal(cursor: Any) -> None:
    """Put the file in WAL mode (kept in the file: once done, later connections only read it).
    Switching needs the file to itself, and SQLite refuses at once, without waiting, when another
    connection is creating the tables of a fresh file (processes starting together): try again."""
    for attempt in range(100):
        try:
            if cursor.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == 99:
                raise
            time.sleep(0.05)


def _private_file(path: Path) -> None:
    """Create the SQLite file readable by its owner only (0600): SQLite gives its -wal and -shm
    files the database file's permissions, so they are private too."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    if not path.exists():
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))


def make_engine(url: str) -> Engine:
    url = database_url(url)
    if url.startswith("sqlite"):
        path = url.split(":///", 1)[1] if ":///" in url else ""
        if path and path != ":memory:":
            _private_file(Path(path))
        engine = create_engine(url, connect_args={"check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=4, max_overflow=4)


def take_leases(
    conn: Connection,
    table: Table,
    keys: tuple[str, ...],
    rows: Sequence[Any],
    worker: str,
    now: float,
    lease: float,
) -> list[Any]:
    """Of ``rows`` (of ``table``, selected with their lease passed and named by their ``keys``
    columns), those now leased to ``worker`` until ``now + lease``: each update is guarded by the
    lease, so a row another worker took meanwhile is left out (a claim is exclusive)."""
    taken = []
    for row in rows:
        done = conn.execute(
            update(table)
            .where(*(table.c[key] == getattr(row, key) for key in keys), table.c.lease_until <= now)
            .values(lease_until=now + lease, worker=worker)
        )
        if done.rowcount == 1:
            taken.append(row)
    return taken


def _seat_from_row(row: Any) -> SeatRecord:
    return SeatRecord(
        seat=row.seat,
        kind=row.kind,
        name=row.name,
        bot=row.bot,
        params=json.loads(row.params) if row.params else {},
        token_hash=row.token_hash,
        invite_hash=row.invite_hash,
        account_id=row.account_id,
    )


def _game_from_row(row: Any) -> GameRecord:
    return GameRecord(
        id=row.id,
        game=row.game,
        variant=row.variant,
        players=row.players,
        options=json.loads(row.options),
        seed=row.seed,
        public=row.public,
        bot_delay=row.bot_delay,
        status=row.status,
        created_at=row.created_at,
        updated_at=row.updated_at,
        result=json.loads(row.result) if row.result else None,
    )


# Coaching (issue 16; candlebox/server/coaching.py): whether the table allowed hints when it was
# created (a game without a row did not), and each seat's post-game review once computed. Tables of
# their own, so databases made before them gain them with ``create_all`` and nothing else moves.
coaching = Table(
    "coaching",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("hints", Boolean, nullable=False),
)

reviews = Table(
    "reviews",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("result", Text, nullable=False),  # JSON: candlebox.analysis.Review.to_json()
    Column("at", Float, nullable=False),
    PrimaryKeyConstraint("game_id", "seat", name="reviews_game_seat"),
)

# The spans of moves in which a bot played a seat for its player ("Let a bot play for me", or another
# player's hand-over of an absent one): a review of the seat leaves those decisions out, so nobody is
# told a bot's moves were their mistakes. ``from_move``: the moves made when the bot took the seat;
# ``until_move``: when its player took it back (NULL: never).
stand_ins = Table(
    "stand_ins",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("from_move", Integer, nullable=False),
    Column("until_move", Integer, nullable=True),
    PrimaryKeyConstraint("game_id", "seat", "from_move", name="stand_ins_key"),
)

# Every hint the coach gave (issue 33): the seat and the move it was for, so that the other players see
# that hints were used (the seat's public facts, the saved game). A table of its own, as above.
hints_given = Table(
    "hints_given",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("move", Integer, nullable=False),
    Column("at", Float, nullable=False),
    PrimaryKeyConstraint("game_id", "seat", "move", name="hints_given_key"),
)

# Reviews computed by bot workers (``bots = "workers"``; candlebox/server/reviewing.py): one row per
# review asked for and not yet stored, claimed like a bot turn (a lease); the decisions reviewed so
# far are kept in the row, so any web process can report the progress and a worker that dies
# mid-review costs only the decision it was on.
review_jobs = Table(
    "review_jobs",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("total", Integer, nullable=False),  # decisions to review
    Column("decisions", Text, nullable=False),  # JSON list: those reviewed so far, in order
    Column("seconds", Float, nullable=False),  # the search time per decision
    Column("asked_at", Float, nullable=False),
    Column("lease_until", Float, nullable=False),  # 0: claimable now
    Column("worker", String(64), nullable=True),
    PrimaryKeyConstraint("game_id", "seat", name="review_jobs_game_seat"),
)

# Who is connected to which seat, for several web processes (candlebox/server/presence.py): one row
# per (game, seat, process) that has or had a websocket of that seat, refreshed while connected and
# trusted until ``expires`` (a process killed with its sockets open stops refreshing).
presence = Table(
    "presence",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("process", String(64), nullable=False),
    Column("connected", Boolean, nullable=False),
    Column("seen", Float, nullable=False),  # the last time the seat was known connected here
    Column("expires", Float, nullable=False),  # a connected row is believed until then
    PrimaryKeyConstraint("game_id", "seat", "process", name="presence_game_seat_process"),
)


# Accounts (issue 34; candlebox/server/accounts.py). A name is kept as its player wrote it (after
# NFKC) and, to keep names unique regardless of case, as its case-folded key. Only hashes of secrets
# are stored: the password's argon2id hash, the SHA-256 of each session and reset token.
accounts = Table(
    "accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(20), nullable=False),
    Column("name_key", String(80), nullable=False),  # casefold(NFKC(name)): ß folds to ss
    Column("password_hash", String(255), nullable=False),
    Column("email", String(254), nullable=True),
    Column("created_at", Float, nullable=False),
    # when the address was confirmed by a link sent to it (NULL: not yet); migration 0003
    Column("email_verified_at", Float, nullable=True),
    UniqueConstraint("name_key", name="accounts_name_key"),
)

# Signed-in browsers: one row per session, so that any process can check a cookie and "sign out
# everywhere" is one delete. ``expires_at`` slides forward as the session is used.
account_sessions = Table(
    "account_sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
    Index("account_sessions_account", "account_id"),
)

# One-time password reset tokens (``candlebox accounts reset NAME``), deleted when used.
password_resets = Table(
    "password_resets",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("expires_at", Float, nullable=False),
    Index("password_resets_account", "account_id"),
)

# Failed sign-ins counted per account name and per client address, in the database so that several
# processes count together: ``failures`` since ``since`` (the start of the current window).
sign_in_failures = Table(
    "sign_in_failures",
    metadata,
    Column("key", String(128), primary_key=True),  # "name:<key>" or "address:<address>"
    Column("failures", Integer, nullable=False),
    Column("since", Float, nullable=False),
)

# Passkeys (WebAuthn; candlebox/server/passkeys.py): an account's credentials, each its public key
# (COSE) and the signature counter its authenticator last reported; ``user_handle`` is the random
# handle the account's passkeys were made for (a discoverable credential's answer names it).
passkeys = Table(
    "passkeys",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("credential_id", String(1400), nullable=False),  # base64url of at most 1023 bytes
    Column("user_handle", String(128), nullable=False),  # base64url
    Column("public_key", Text, nullable=False),  # base64url of the COSE key
    Column("sign_count", BigInteger, nullable=False),  # the authenticator's, 32 bits unsigned
    Column("name", String(60), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("used_at", Float, nullable=True),
    UniqueConstraint("credential_id", name="passkeys_credential"),
    Index("passkeys_account", "account_id"),
)

# A WebAuthn ceremony under way: its challenge, answerable once before ``expires_at``, bound to
# the flow token handed out with it (only its hash kept) and, to register, to the session asking.
passkey_challenges = Table(
    "passkey_challenges",
    metadata,
    Column("flow_hash", String(64), primary_key=True),
    Column("purpose", String(16), nullable=False),  # "register" or "sign-in"
    Column("challenge", String(128), nullable=False),  # base64url
    Column("session_hash", String(64), nullable=True),  # registering: the session that asked
    Column("user_handle", String(128), nullable=True),  # registering: the handle offered
    Column("account_id", Integer, nullable=True),  # registering: its account
    Column("client", String(128), nullable=False),  # the client address (flows are counted)
    Column("expires_at", Float, nullable=False),
    Index("passkey_challenges_client", "client"),
)

# Links that confirm an account's e-mail address (only the token's hash kept), deleted when used.
email_verifications = Table(
    "email_verifications",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("email", String(254), nullable=False),  # the address the link was sent to
    Column("expires_at", Float, nullable=False),
    Index("email_verifications_account", "account_id"),
)

# Mail waiting to be sent, or kept after (candlebox/server/mail.py): a sender takes a due row
# (SKIP LOCKED on PostgreSQL), holds it until ``next_try`` while it sends, then marks it sent or
# sets its next try further off; after ``Settings.mail_tries`` it is given up ("failed").
outbox = Table(
    "outbox",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", Integer, nullable=True),  # whom it concerns (deleted with the account)
    Column("recipient", String(254), nullable=False),
    Column("subject", String(200), nullable=False),
    Column("body", Text, nullable=False),
    Column("status", String(8), nullable=False),  # "waiting", "sent" or "failed"
    Column("tries", Integer, nullable=False),
    Column("next_try", Float, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("sent_at", Float, nullable=True),
    Column("last_error", String(200), nullable=True),
    # JSON {name: value} of extra headers (List-Unsubscribe; migration 0008); NULL: none
    Column("headers", Text, nullable=True),
    Index("outbox_due", "status", "next_try"),
)

# Quick play (issue 34; candlebox/server/matchmaking.py): one row per ticket, in the database so that
# every process sees the queue and one of them matches at a time. Only hashes of the ticket and of the
# seat credential it leads to are kept. ``live_key`` names the owner's queue (account or client
# address, game, players, variant, rated) while the ticket waits and is NULL after: its uniqueness is
# what allows one waiting ticket per owner and queue, whichever process the requests reach. Matched,
# the ticket names its table and seat (``game_id``: the sweep deletes it with its game).
queue_tickets = Table(
    "queue_tickets",
    metadata,
    Column("ticket_hash", String(64), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("variant", String(64), nullable=False),
    Column("players", Integer, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("bots_after", Float, nullable=True),  # seconds waited before bots fill (NULL: never)
    Column("account_id", Integer, nullable=True),  # the signed-in player (NULL: a guest)
    Column("name", String(64), nullable=False),  # the seat's name at the table
    Column("client", String(64), nullable=False),  # the client address (the per-client cap)
    Column("live_key", String(255), nullable=True),
    Column("mu", Float, nullable=False),  # the player's rating when the ticket was made
    Column("seat_hash", String(64), nullable=False),  # sha256 of the seat credential it leads to
    Column("status", String(16), nullable=False),  # waiting, matched, cancelled, expired
    Column("created_at", Float, nullable=False),
    Column("polled_at", Float, nullable=False),  # its holder's last look (a silent one expires)
    Column("updated_at", Float, nullable=False),
    Column("game_id", String(32), nullable=True),
    Column("seat", Integer, nullable=True),
    Column("delivered", Boolean, nullable=False),  # the seat credential has been handed over
    UniqueConstraint("live_key", name="queue_tickets_live_key"),
    Index("queue_tickets_status", "status"),
)

# Friends (issue 34; candlebox/server/friends.py): whom an account follows, and the seats an account
# was invited into by name (deleted when answered, when the seat is taken, with the game when it is
# deleted, and with either account).
follows = Table(
    "follows",
    metadata,
    Column("follower_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("followed_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("created_at", Float, nullable=False),
    PrimaryKeyConstraint("follower_id", "followed_id", name="follows_key"),
    Index("follows_followed", "followed_id"),
)

seat_invites = Table(
    "seat_invites",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("from_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("to_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("created_at", Float, nullable=False),
    UniqueConstraint("game_id", "seat", "to_id", name="seat_invites_once"),
    Index("seat_invites_to", "to_id"),
    Index("seat_invites_from", "from_id"),
)

# Records and ratings (issue 34; candlebox/server/ratings.py, migration 0006_ratings).
# A rated table: a row from its creation (no row: not rated, as every game before ratings).
rated_games = Table(
    "rated_games",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
)

# The games whose end has been counted in their players' records (and ratings, at a rated table):
# the row is written in the transaction that counts it, so a game is counted once, whichever
# process ends it, and again never (a restart that finds it over, another process catching up).
counted_games = Table(
    "counted_games",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("at", Float, nullable=False),
)

# One row per account and game it finished: its OpenSkill (Plackett–Luce) rating over its rated
# games, and how many games it played and won there (rated or not). Kept when the games themselves
# are deleted (``keep_finished``); deleted with the account.
ratings = Table(
    "ratings",
    metadata,
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("game", String(64), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("rated", Integer, nullable=False),  # rated games finished
    Column("played", Integer, nullable=False),  # every game finished, rated or not
    Column("won", Integer, nullable=False),  # of those, the games it won (a shared win counts)
    Column("updated_at", Float, nullable=False),
    PrimaryKeyConstraint("account_id", "game", name="ratings_account_game"),
    Index("ratings_game", "game"),
)

# Take-backs (issue 35; candlebox/server/takebacks.py, migration 0008_take_backs): a seat's request
# to take back its last moves, waiting for the other players' answers. One per game; it stands only
# while the game is at move ``at_move``, and goes when it is granted or refused.
take_backs = Table(
    "take_backs",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("at_move", Integer, nullable=False),  # the game's move count when it was asked
    Column("moves", Integer, nullable=False),  # how many moves it takes back
    Column("accepted", String(200), nullable=False),  # the seats that accepted: "1,3"
    Column("asked_at", Float, nullable=False),
)


# Clocks (issue 35; candlebox/server/clocks.py, migration 0007_clocks): a table's clock as chosen at
# its creation (no row: no clock), and the lease of the one process that watches it for a seat
# running out of time; each seat's time left as of ``since``, the moment its clock started running
# (NULL: stopped), so that a restart loses no time: it keeps running from the stored start.
game_clocks = Table(
    "game_clocks",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("mode", String(16), nullable=False),  # "realtime" or "turn-based"
    Column(
        "initial", Float, nullable=False
    ),  # seconds each seat starts with (turn-based: a move's)
    Column("increment", Float, nullable=False),  # seconds added after each move (realtime)
    Column("lease_until", Float, nullable=False),  # 0: any process may watch it now
    Column("watcher", String(64), nullable=True),  # the process watching it (for the logs)
    Index("game_clocks_lease", "lease_until"),
)

seat_clocks = Table(
    "seat_clocks",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("remaining", Float, nullable=False),  # seconds left at ``since`` (stopped: now)
    Column("since", Float, nullable=True),  # when it started running; NULL: not running
    Column("out_of_time", Boolean, nullable=False),
    PrimaryKeyConstraint("game_id", "seat", name="seat_clocks_game_seat"),
)


# Turn-based games and notices (issue 35; candlebox/server/notices.py, pushing.py, migration 0008).
# An account's notices ("your turn in GAME"), at most one unread one per game and kind (a newer turn
# renews it); deleted with the game (``delete_ended``) or the account.
notices = Table(
    "notices",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
    Column("kind", String(16), nullable=False),  # "your-turn"
    Column("text", String(200), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("read_at", Float, nullable=True),  # NULL: unread
    Index("notices_account", "account_id", "read_at"),
)

# What an account wants told outside the site (no row: the defaults, notices.DEFAULT_PREFERENCES),
# and when its last daily digest was taken (one process takes each digest: a guarded update).
notice_preferences = Table(
    "notice_preferences",
    metadata,
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("turn_mail", Boolean, nullable=False),
    Column("digest", Boolean, nullable=False),
    Column("push", Boolean, nullable=False),
    Column("digest_at", Float, nullable=False),  # the last digest (0: never)
)

# The last "your turn" mail per account and game: at most one an hour (notices.MAIL_EVERY).
turn_mail = Table(
    "turn_mail",
    metadata,
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
    Column("sent_at", Float, nullable=False),
    PrimaryKeyConstraint("account_id", "game_id", name="turn_mail_key"),
)

# Browsers that subscribed to Web Push (the PushSubscription's endpoint and keys), per account.
push_subscriptions = Table(
    "push_subscriptions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("endpoint", String(1000), nullable=False),
    Column("p256dh", String(200), nullable=False),
    Column("auth", String(100), nullable=False),
    Column("created_at", Float, nullable=False),
    UniqueConstraint("endpoint", name="push_subscriptions_endpoint"),
    Index("push_subscriptions_account", "account_id"),
)

# Pushes waiting to be sent (candlebox/server/pushing.py), taken like mail from the outbox: SKIP
# LOCKED, a lease while sending, retries further apart, given up after ``Settings.mail_tries``.
push_outbox = Table(
    "push_outbox",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", Integer, nullable=False),  # deleted with the account
    Column("subscription_id", Integer, nullable=False),  # gone with it: the push is dropped
    Column("payload", Text, nullable=False),  # JSON {"title", "body", "url"}
    Column("status", String(8), nullable=False),  # "waiting", "sent" or "failed"
    Column("tries", Integer, nullable=False),
    Column("next_try", Float, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("last_error", String(200), nullable=True),
    Index("push_outbox_due", "status", "next_try"),
)

# Secrets the server makes once and keeps (every process reads the same): the VAPID key pushes are
# signed with, and the key that signs unsubscribe links. Rotated by deleting the row (docs/deploy.md).
server_keys = Table(
    "server_keys",
    metadata,
    Column("name", String(32), primary_key=True),
    Column("value", Text, nullable=False),
    Column("created_at", Float, nullable=False),
)

# What is kept of an account's notices, deleted with it (candlebox/server/accounts.py)
NOTICE_TABLES = (notices, notice_preferences, turn_mail, push_outbox, push_subscriptions)

# Table chat (issue 35; candlebox/server/chat.py, migration 0010_chat). Each message of a game: its
# seat (NULL: the spectators' channel), the name shown, the text (at most 500 characters), and, for
# the operator only, the account and client address that wrote it. ``author`` is the key a reader
# mutes it by ("account:NAME", "seat:GAME:N", "spectator:GAME:N"); ``hidden``: by the operator.
chat_messages = Table(
    "chat_messages",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
    Column("seat", Integer, nullable=True),
    Column("name", String(64), nullable=False),
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
    Column("author", String(100), nullable=False),
    Column("account_id", Integer, nullable=True),  # no foreign key: as seats.account_id
    Column("client", String(64), nullable=False),
    Column("hidden", Boolean, nullable=False),
    Index("chat_messages_game", "game_id", "id"),
)

# A message reported by someone who saw it, kept for the operator (``candlebox moderation``):
# once per message and reporter ("account:ID" or "client:ADDRESS").
chat_reports = Table(
    "chat_reports",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("message_id", Integer, ForeignKey("chat_messages.id"), nullable=False),
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
    Column("reporter", String(100), nullable=False),
    Column("reason", String(200), nullable=True),
    Column("at", Float, nullable=False),
    UniqueConstraint("message_id", "reporter", name="chat_reports_once"),
)

# Who may not chat (the operator's decision): an account (``value`` its id) or a client address.
chat_bans = Table(
    "chat_bans",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("kind", String(8), nullable=False),  # "account" or "client"
    Column("value", String(64), nullable=False),
    Column("reason", String(200), nullable=True),
    Column("at", Float, nullable=False),
    UniqueConstraint("kind", "value", name="chat_bans_once"),
)

# The authors a signed-in player muted for themselves (a guest's are kept in the browser).
chat_mutes = Table(
    "chat_mutes",
    metadata,
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("author", String(100), nullable=False),
    Column("at", Float, nullable=False),
    PrimaryKeyConstraint("account_id", "author", name="chat_mutes_key"),
)


class Storage:
    """The tables and every query; synchronous (called from the writer thread or a worker thread)."""

    def __init__(self, url: str) -> None:
        self.url = database_url(url)
        self.engine = make_engine(url)
        migrating.bring_to_head(self.engine, metadata)

    def close(self) -> None:
        self.engine.dispose()

    # ------------------------------------------------------------------ writes (one transaction each)
    @staticmethod
    def insert_game(conn: Connection, record: GameRecord) -> None:
        now = time.time()
        conn.execute(
            insert(games).values(
                id=record.id,
                game=record.game,
                variant=record.variant,
                players=record.players,
                options=json.dumps(record.options),
                seed=record.seed,
                public=record.public,
                bot_delay=record.bot_delay,
                status=record.status,
                created_at=record.created_at or now,
                updated_at=now,
                result=None,
            )
        )
        conn.execute(
            insert(seats),
            [
                {
                    "game_id": record.id,
                    "seat": s.seat,
                    "kind": s.kind,
                    "bot": s.bot,
                    "params": json.dumps(s.params) if s.params else None,
                    "name": s.name,
                    "token_hash": s.token_hash,
                    "invite_hash": s.invite_hash,
                    "account_id": s.account_id,
                }
                for s in record.seats
            ],
        )
        if record.hints:
            conn.execute(insert(coaching).values(game_id=record.id, hints=True))
        if record.rated:
            conn.execute(insert(rated_games).values(game_id=record.id))
        if record.clock is not None:
            Storage.insert_clock(conn, record.id, record.clock)
        if record.table is not None:
            conn.execute(
                insert(bot_tables).values(
                    game_id=record.id,
                    owner_hash=record.table.owner_hash,
                    stop_at=record.table.stop_at,
                )
            )
        if record.fair is not None:
            conn.execute(
                insert(fairness).values(
                    game_id=record.id,
                    practice=record.fair.practice,
                    seed_chosen=record.fair.seed_chosen,
                    nonce=record.fair.nonce,
                    commitment=record.fair.commitment,
                )
            )

    @staticmethod
    def record_move(conn: Connection, game_id: str, move: MoveRecord, owe_next: bool) -> None:
        """Record ``move`` (MoveConflict if move *n* is already recorded), owe a bot turn for the next
        move if ``owe_next`` (bot workers), and tell the other processes, all in the caller's
        transaction. On PostgreSQL this is one statement, so a move costs the writer one round trip
        to the database instead of three (or four when the bot turn is new); elsewhere the three
        steps run in turn."""
        if conn.dialect.name != "postgresql":
            Storage.insert_move(conn, game_id, move)
            if owe_next:
                Storage.owe_bot_turn(conn, game_id, move.number + 1)
            return
        Storage.hold_game(conn, game_id)
        try:
            done = conn.execute(
                _RECORD_MOVE,
                {
                    "game_id": game_id,
                    "number": move.number,
                    "first": move.number == 0,
                    "previous": move.number - 1,
                    "seat": move.seat,
                    "action": move.action,
                    "at": time.time(),
                    "owes": owe_next,
                    "next": move.number + 1,
                    "channel": CHANNEL,
                    "payload": move_payload(game_id, move),
                },
            )
        except IntegrityError as exc:
            raise MoveConflict(f"move {move.number} of game {game_id} is already recorded") from exc
        if done.first() is None:  # nothing recorded: the move before it is not there
            raise _missing_previous(game_id, move.number)

    @staticmethod
    def insert_move(conn: Connection, game_id: str, move: MoveRecord) -> None:
        """Record ``move``: MoveConflict if move *n* is already recorded or move *n - 1* is not, so
        the moves of a game never have a gap (a game with one would no longer replay)."""
        Storage.hold_game(conn, game_id)
        row = select(
            literal(game_id, String),
            literal(move.number, Integer),
            literal(move.seat, Integer),
            literal(move.action, Text),
            literal(time.time(), Float),
        )
        if move.number > 0:
            row = row.where(
                exists().where(moves.c.game_id == game_id, moves.c.number == move.number - 1)
            )
        columns = ["game_id", "number", "seat", "action", "at"]
        recorded = insert(moves).from_select(columns, row).returning(moves.c.number)
        try:
            done = conn.execute(recorded)
        except IntegrityError as exc:
            raise MoveConflict(f"move {move.number} of game {game_id} is already recorded") from exc
        if done.first() is None:  # nothing recorded: the move before it is not there
            raise _missing_previous(game_id, move.number)

    @staticmethod
    def hold_game(conn: Connection, game_id: str, sole: bool = False) -> None:
        """Serialise a move's insert with a take-back's delete of the same game (PostgreSQL: a lock
        on the game's row until the transaction ends; a move holds it shared, ``sole`` — a
        take-back — alone). A move's next statement then sees whether a take-back removed the move
        before it, and a take-back's sees every move recorded before it; without it, a move could
        check its previous move just before a take-back removed it and leave a gap. SQLite has one
        writer at a time, whose statements see every commit before them: nothing to do."""
        if conn.dialect.name != "postgresql":
            return
        query = select(games.c.id).where(games.c.id == game_id)
        conn.execute(query.with_for_update(read=not sole, key_share=not sole))

    @staticmethod
    def notify(conn: Connection, game_id: str, what: str) -> None:
        """Tell every process listening (PostgreSQL only; delivered when this transaction commits,
        so a listener never hears of a move it cannot read)."""
        if conn.dialect.name == "postgresql":
            conn.execute(
                text("SELECT pg_notify(:channel, :payload)"),
                {"channel": CHANNEL, "payload": f"{game_id} {what}"},
            )

    @staticmethod
    def owe_bot_turn(conn: Connection, game_id: str, number: int) -> None:
        """Record that a bot may be to act at move ``number`` (claimable at once)."""
        values = {"number": number, "lease_until": 0.0, "worker": None}
        done = conn.execute(
            update(bot_turns).where(bot_turns.c.game_id == game_id).values(**values)
        )
        if done.rowcount == 0:
            conn.execute(insert(bot_turns).values(game_id=game_id, **values))

    @staticmethod
    def claim_bot_turns(
        conn: Connection,
        worker: str,
        now: float,
        lease: float,
        limit: int,
        bot_only: bool | None = None,
    ) -> list[tuple[str, int]]:
        """Claim up to ``limit`` owed turns whose lease has passed: (game id, move number) each;
        with ``bot_only``, only the turns of bot-only tables (True) or of the other games (False).
        ``SKIP LOCKED`` lets many workers claim at once without waiting on each other (PostgreSQL;
        SQLite's single writer serializes them); the guarded update makes each claim exclusive."""
        if limit <= 0:
            return []
        query = select(bot_turns.c.game_id, bot_turns.c.number).where(
            bot_turns.c.lease_until <= now
        )
        if bot_only is not None:
            table = exists().where(bot_tables.c.game_id == bot_turns.c.game_id)
            query = query.where(table if bot_only else ~table)
        rows = conn.execute(
            query.order_by(bot_turns.c.lease_until).limit(limit).with_for_update(skip_locked=True)
        ).all()
        taken = take_leases(conn, bot_turns, ("game_id", "number"), rows, worker, now, lease)
        return [(row.game_id, row.number) for row in taken]

    @staticmethod
    def settle_bot_turn(conn: Connection, game_id: str, number: int, done: bool) -> None:
        """A claimed turn at ``number``: ``done`` (no bot is to act there) deletes it, otherwise it
        is released to be claimed again at once. A row a later move has moved on is left alone."""
        mine = and_(bot_turns.c.game_id == game_id, bot_turns.c.number == number)
        if done:
            conn.execute(delete(bot_turns).where(mine))
        else:
            conn.execute(update(bot_turns).where(mine).values(lease_until=0.0, worker=None))

    def ping(self) -> bool:
        """True if the database answers a trivial query now."""
        try:
            with self.engine.connect() as conn:
                conn.execute(select(1))
        except Exception:
            return False
        return True

    def bot_queue(self, now: float) -> int:
        """Owed bot turns nobody holds a lease on (the metric)."""
        with self.engine.connect() as conn:
            return int(
                conn.execute(
                    select(func.count())
                    .select_from(bot_turns)
                    .where(bot_turns.c.lease_until <= now)
                ).scalar_one()
            )

    @staticmethod
    def set_status(
        conn: Connection, game_id: str, status: str, result: dict[str, Any] | None = None
    ) -> None:
        conn.execute(
            update(games)
            .where(games.c.id == game_id)
            .values(
                status=status,
                updated_at=time.time(),
                result=json.dumps(result) if result is not None else None,
            )
        )

    @staticmethod
    def stop_table(conn: Connection, game_id: str, result: dict[str, Any]) -> bool:
        """End a live bot-only table (its creator's stop, or its time limit): its status and
        result, no bot turn owed any more, and the other processes told; False if it was no
        longer live (finished or stopped meanwhile, perhaps by another process)."""
        done = conn.execute(
            update(games)
            .where(games.c.id == game_id, games.c.status == "live")
            .values(status="stopped", updated_at=time.time(), result=json.dumps(result))
        )
        if done.rowcount != 1:
            return False
        conn.execute(delete(bot_turns).where(bot_turns.c.game_id == game_id))
        Storage.notify(conn, game_id, "seats")
        return True

    @staticmethod
    def delete_ended(conn: Connection, before: float) -> list[str]:
        """Delete the games that finished or were closed before ``before`` (their moves and seats
        too); returns their ids."""
        ended = games.c.status.in_(ENDED)
        ids = [
            row.id
            for row in conn.execute(
                select(games.c.id).where(ended, games.c.updated_at < before).limit(1000)
            )
        ]
        if ids:
            # every table that refers to a game (moves, seats and any added later) goes first
            for table in reversed(metadata.sorted_tables):
                if table is not games and "game_id" in table.c:
                    conn.execute(delete(table).where(table.c.game_id.in_(ids)))
            conn.execute(delete(games).where(games.c.id.in_(ids)))
        return ids

    @staticmethod
    def forget_expired_sign_ins(conn: Connection, now: float, window: float) -> None:
        """Delete the sessions, reset and confirmation links and passkey ceremonies that have
        ended, the failed sign-ins counted in a window that has passed (they would only be
        refused or counted afresh), and mail sent or given up :data:`MAIL_KEPT` ago."""
        conn.execute(delete(account_sessions).where(account_sessions.c.expires_at < now))
        conn.execute(delete(password_resets).where(password_resets.c.expires_at < now))
        conn.execute(delete(sign_in_failures).where(sign_in_failures.c.since < now - window))
        conn.execute(delete(passkey_challenges).where(passkey_challenges.c.expires_at < now))
        conn.execute(delete(email_verifications).where(email_verifications.c.expires_at < now))
        done = outbox.c.status.in_(("sent", "failed"))
        conn.execute(delete(outbox).where(done, outbox.c.created_at < now - MAIL_KEPT))

    @staticmethod
    def expire_quiet(conn: Connection, before: float) -> list[str]:
        """Mark expired the unrated live games with no move (nor creation) since ``before``,
        whichever process held them (several processes: one may hold none of them); returns their
        ids. A rated one is closed with its count in one transaction: :meth:`quiet_rated` and
        :meth:`expire_if_unmoved`."""
        ids = Storage._quiet(conn, before, rated=False)
        if ids:
            conn.execute(
                update(games)
                .where(games.c.id.in_(ids), games.c.status == "live")
                .values(status="expired", updated_at=time.time())
            )
        return ids

    @staticmethod
    def quiet_rated(conn: Connection, before: float) -> list[str]:
        """The rated live games with no move (nor creation) since ``before`` (none changed)."""
        return Storage._quiet(conn, before, rated=True)

    @staticmethod
    def _quiet(conn: Connection, before: float, rated: bool) -> list[str]:
        last = select(func.max(moves.c.at)).where(moves.c.game_id == games.c.id).scalar_subquery()
        # a game with a clock waits its clock's time longer (clocks.allowance: a move's, or a game's)
        clock = select(game_clocks.c.initial).where(game_clocks.c.game_id == games.c.id)
        since = func.coalesce(last, games.c.created_at) + func.coalesce(
            clock.scalar_subquery(), 0.0
        )
        is_rated = games.c.id.in_(select(rated_games.c.game_id))
        quiet = conn.execute(
            select(games.c.id)
            .where(
                games.c.status == "live",
                since < before,
                is_rated if rated else ~is_rated,
            )
            .limit(1000)
        )
        return [row.id for row in quiet]

    @staticmethod
    def expire_if_unmoved(conn: Connection, game_id: str, made: int) -> bool:
        """Mark a live game expired if its stored moves are still the ``made`` moves read before
        (no move came since: whatever was decided from them still holds); True if it was."""
        count = (
            select(func.count()).select_from(moves).where(moves.c.game_id == game_id)
        ).scalar_subquery()
        done = conn.execute(
            update(games)
            .where(games.c.id == game_id, games.c.status == "live", count == made)
            .values(status="expired", updated_at=time.time())
        )
        return bool(done.rowcount == 1)

    @staticmethod
    def update_seat(conn: Connection, game_id: str, seat: int, **values: Any) -> None:
        if "params" in values:
            values["params"] = json.dumps(values["params"]) if values["params"] else None
        conn.execute(
            update(seats).where(seats.c.game_id == game_id, seats.c.seat == seat).values(**values)
        )

    @staticmethod
    def stand_in(conn: Connection, game_id: str, seat: int, moves: int) -> None:
        """A bot plays ``seat`` for its player from now (``moves`` made so far)."""
        conn.execute(
            insert(stand_ins).values(game_id=game_id, seat=seat, from_move=moves, until_move=None)
        )

    @staticmethod
    def stand_in_ends(conn: Connection, game_id: str, seat: int, moves: int) -> None:
        """The seat's player takes it back from the bot (``moves`` made so far)."""
        conn.execute(
            update(stand_ins)
            .where(
                stand_ins.c.game_id == game_id,
                stand_ins.c.seat == seat,
                stand_ins.c.until_move.is_(None),
            )
            .values(until_move=moves)
        )

    @staticmethod
    def hint_given(conn: Connection, game_id: str, seat: int, move: int, at: float) -> None:
        """The coach gave ``seat`` a hint for move ``move`` (once per decision: asked again, the
        same hint is given again, and counted once)."""
        known = select(hints_given.c.seat).where(
            hints_given.c.game_id == game_id,
            hints_given.c.seat == seat,
            hints_given.c.move == move,
        )
        if conn.execute(known).first() is None:
            conn.execute(insert(hints_given).values(game_id=game_id, seat=seat, move=move, at=at))

    @staticmethod
    def every_stand_in(conn: Connection, game_id: str) -> list[tuple[int, int, int | None]]:
        """Every seat's spans of moves a bot played for its player: (seat, from, until or None)."""
        rows = conn.execute(
            select(stand_ins.c.seat, stand_ins.c.from_move, stand_ins.c.until_move)
            .where(stand_ins.c.game_id == game_id)
            .order_by(stand_ins.c.seat, stand_ins.c.from_move)
        )
        return [(int(row.seat), int(row.from_move), row.until_move) for row in rows]

    @staticmethod
    def claim_seat(
        conn: Connection,
        game_id: str,
        seat: int,
        name: str,
        token_hash: str,
        account_id: int | None = None,
    ) -> bool:
        """Take a seat nobody holds (for ``account_id`` when signed in); False if someone took it
        first (checked in the database)."""
        result = conn.execute(
            update(seats)
            .where(
                seats.c.game_id == game_id,
                seats.c.seat == seat,
                seats.c.token_hash.is_(None),
                seats.c.kind == "human",
            )
            .values(name=name, token_hash=token_hash, invite_hash=None, account_id=account_id)
        )
        return bool(result.rowcount == 1)

    # ------------------------------------------------------------------ reads
    def _seats_of(self, conn: Connection, ids: list[str]) -> dict[str, list[SeatRecord]]:
        found: dict[str, list[SeatRecord]] = {game_id: [] for game_id in ids}
        if not ids:
            return found
        rows = conn.execute(
            select(seats).where(seats.c.game_id.in_(ids)).order_by(seats.c.game_id, seats.c.seat)
        )
        for row in rows:
            found[row.game_id].append(_seat_from_row(row))
        return found

    @staticmethod
    def _fair_of(conn: Connection, ids: list[str]) -> dict[str, FairRecord]:
        if not ids:
            return {}
        rows = conn.execute(select(fairness).where(fairness.c.game_id.in_(ids)))
        return {
            row.game_id: FairRecord(row.practice, row.seed_chosen, row.nonce, row.commitment)
            for row in rows
        }

    @staticmethod
    def _rated_of(conn: Connection, ids: list[str]) -> set[str]:
        """Which of the games are rated tables."""
        if not ids:
            return set()
        rows = conn.execute(select(rated_games.c.game_id).where(rated_games.c.game_id.in_(ids)))
        return {row.game_id for row in rows}

    def load_game(self, game_id: str) -> tuple[GameRecord, list[MoveRecord]] | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(games).where(games.c.id == game_id)).first()
            if row is None:
                return None
            record = _game_from_row(row)
            record.seats = self._seats_of(conn, [game_id])[game_id]
            record.fair = self._fair_of(conn, [game_id]).get(game_id)
            hints = conn.execute(select(coaching.c.hints).where(coaching.c.game_id == game_id))
            record.hints = bool(hints.scalar())
            given = conn.execute(
                select(hints_given.c.seat, hints_given.c.move)
                .where(hints_given.c.game_id == game_id)
                .order_by(hints_given.c.move, hints_given.c.seat)
            )
            record.hints_given = [(int(row.seat), int(row.move)) for row in given]
            record.table = self._table_of(conn, game_id)
            record.rated = bool(self._rated_of(conn, [game_id]))
            record.clock = Storage.clock_of(conn, game_id)
            return record, self._moves(conn, game_id)

    @staticmethod
    def insert_clock(conn: Connection, game_id: str, clock: ClockRecord) -> None:
        conn.execute(
            insert(game_clocks).values(
                game_id=game_id,
                mode=clock.mode,
                initial=clock.initial,
                increment=clock.increment,
                lease_until=0.0,
                watcher=None,
            )
        )
        conn.execute(
            insert(seat_clocks),
            [
                {
                    "game_id": game_id,
                    "seat": number,
                    "remaining": seat.remaining,
                    "since": seat.since,
                    "out_of_time": seat.out_of_time,
                }
                for number, seat in enumerate(clock.seats)
            ],
        )

    @staticmethod
    def clock_of(conn: Connection, game_id: str) -> ClockRecord | None:
        """The game's clock as stored now (None: it has none)."""
        row = conn.execute(select(game_clocks).where(game_clocks.c.game_id == game_id)).first()
        if row is None:
            return None
        rows = conn.execute(
            select(seat_clocks).where(seat_clocks.c.game_id == game_id).order_by(seat_clocks.c.seat)
        )
        seats = [SeatClock(r.remaining, r.since, bool(r.out_of_time)) for r in rows]
        return ClockRecord(row.mode, row.initial, row.increment, seats)

    @staticmethod
    def _table_of(conn: Connection, game_id: str) -> BotTable | None:
        row = conn.execute(select(bot_tables).where(bot_tables.c.game_id == game_id)).first()
        return None if row is None else BotTable(row.owner_hash, row.stop_at)

    @staticmethod
    def _moves(conn: Connection, game_id: str) -> list[MoveRecord]:
        rows = conn.execute(
            select(moves.c.number, moves.c.seat, moves.c.action)
            .where(moves.c.game_id == game_id)
            .order_by(moves.c.number)
        )
        return [MoveRecord(r.number, r.seat, r.action) for r in rows]

    def moves_of(self, game_id: str) -> list[MoveRecord]:
        with self.engine.connect() as conn:
            return self._moves(conn, game_id)

    def since(self, game_id: str, number: int) -> tuple[GameRecord, list[MoveRecord]] | None:
        """The game's record and seats now, and its moves from ``number`` on (catching up)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(games).where(games.c.id == game_id)).first()
            if row is None:
                return None
            record = _game_from_row(row)
            record.seats = self._seats_of(conn, [game_id])[game_id]
            rows = conn.execute(
                select(moves.c.number, moves.c.seat, moves.c.action)
                .where(moves.c.game_id == game_id, moves.c.number >= number)
                .order_by(moves.c.number)
            )
            return record, [MoveRecord(r.number, r.seat, r.action) for r in rows]

    def live_game_ids(self) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games.c.id).where(games.c.status == "live").order_by(games.c.created_at)
            )
            return [row.id for row in rows]

    def finished_games(
        self, limit: int, after: tuple[float, str] | None = None
    ) -> list[GameRecord]:
        """The most recently finished public games, newest first (before ``after``, a finishing time
        and id, for the next page), with their seats. Private games are never listed."""
        query = select(games).where(games.c.status.in_(FINISHED), games.c.public.is_(True))
        if after is not None:
            stamp, game_id = after
            query = query.where(
                or_(
                    games.c.updated_at < stamp,
                    and_(games.c.updated_at == stamp, games.c.id < game_id),
                )
            )
        with self.engine.connect() as conn:
            rows = conn.execute(
                query.order_by(games.c.updated_at.desc(), games.c.id.desc()).limit(limit)
            ).all()
            records = [_game_from_row(row) for row in rows]
            by_id = self._seats_of(conn, [r.id for r in records])
            fair = self._fair_of(conn, [r.id for r in records])
            rated = self._rated_of(conn, [r.id for r in records])
            for record in records:
                record.seats = by_id[record.id]
                record.fair = fair.get(record.id)
                record.rated = record.id in rated
            return records


# ---------------------------------------------------------------------------- the writer thread
Op = Callable[[Connection], Any]


class Writer:
    """One thread that commits queued operations in batches; ``await writer.run(op)`` returns once
    ``op``'s transaction is committed (or raises what ``op`` raised, with nothing of it written)."""

    MAX_BATCH = 256

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._queue: queue.SimpleQueue[tuple[Op, asyncio.Future[Any]] | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._loop, name="candlebox-db-writer", daemon=True)
        self._thread.start()
        self.commits = 0  # transactions committed (for the load report)
        self.ops = 0

    async def run(self, op: Op) -> Any:
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.put((op, future))
        return await future

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=10)

    def _loop(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            batch = [item]
            stop = False
            while len(batch) < self.MAX_BATCH:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            self._commit(batch)
            if stop:
                return

    def _commit(self, batch: list[tuple[Op, asyncio.Future[Any]]]) -> None:
        if len(batch) > 1:
            try:
                with self.storage.engine.begin() as conn:
                    results = [op(conn) for op, _ in batch]
            except Exception:
                pass  # one of them failed: commit them one by one so only that one fails
            else:
                self.commits += 1
                self.ops += len(batch)
                for (_, future), result in zip(batch, results, strict=True):
                    _resolve(future, result, None)
                return
        for op, future in batch:
            try:
                with self.storage.engine.begin() as conn:
                    result = op(conn)
            except Exception as exc:
                _resolve(future, None, exc)
            else:
                self.commits += 1
                self.ops += 1
                _resolve(future, result, None)


def _resolve(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    def settle() -> None:
        if future.done():
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)

    with contextlib.suppress(RuntimeError):  # a closed loop: nobody is waiting any more
        future.get_loop().call_soon_threadsafe(settle)
