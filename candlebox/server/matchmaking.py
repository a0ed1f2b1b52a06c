"""Quick play (issue 34; docs/server.md, "Quick play"): players ask for a game, a player count, a
variant and rated or not, and are seated together at a new table.

- **Tickets.** ``POST /api/queue`` gives a ticket: a random 256-bit token, the holder's only
  credential (only its SHA-256 is stored). A guest may join the unrated queues; a rated ticket needs
  a session, and a signed-in player's seat is the account's. One waiting ticket per owner (the account,
  or a guest's client address) and queue; at most ``max_queue_tickets`` waiting per client address.
- **Polling.** The holder looks at its ticket (``GET /api/queue/{ticket}``) about once a second; a
  waiting ticket not looked at for ``queue_poll_timeout`` seconds expires (its holder has gone: a
  closed tab must not be seated at a table). Matched, the ticket names the table and the seat, and
  the seat's credential is handed over once, to the first look after the match.
- **Matching.** Tickets of one queue (game, players, variant, rated) are matched by rating: two fit
  when their ratings differ by no more than either one's window, which widens as its holder waits:
  ``window(waited) = min(queue_window_max, queue_window_start + queue_window_growth × waited)``
  (rating points, seconds; by default 2 points at first, 0.25 more a second, at most 25: OpenSkill's
  starting rating is 25 ± 8.3). The oldest ticket is served first, with the closest ratings that fit
  every member of its table. An unrated ticket with ``bots_after = S`` is seated with bots (the
  default level) in the empty seats once it has waited S seconds, with any others ready for bots.
- **One matchmaker at a time.** A round runs in one transaction that holds PostgreSQL's advisory
  lock ``QUEUE_LOCK`` (tried, not waited for: another process is matching, so this one lets it) and
  takes the waiting tickets ``FOR UPDATE SKIP LOCKED``; on SQLite (one process) it takes the write
  lock. The tables, their seats and the tickets' new status are written in that one transaction, each
  ticket's change guarded by its status, so nobody is seated twice and no ticket is matched twice, and
  a match survives a restart (it is in the database before anyone is told).

The ratings come from a lookup the matchmaker is given (:data:`RatingOf`): the players' ratings
(candlebox/server/ratings.py's ``rating_of``) unless a test gives another.
"""

from __future__ import annotations

import asyncio
import base64
import bisect
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import Connection, Engine, delete, func, insert, or_, select, text, update
from sqlalchemy.exc import IntegrityError

import candlebox
from candlebox.server import bodies, ratings, security
from candlebox.server.accounts import Account
from candlebox.server.config import Settings
from candlebox.server.creating import NewGame, new_game
from candlebox.server.errors import Rejected
from candlebox.server.storage import Storage, queue_tickets

log = logging.getLogger("candlebox.server")

WAITING, MATCHED, CANCELLED, EXPIRED = "waiting", "matched", "cancelled", "expired"
# PostgreSQL's advisory lock key of the matchmaker (any fixed number; this one spells "quee")
QUEUE_LOCK = 0x71756565
KEEP_ENDED = 3600.0  # seconds a ticket no longer waiting is kept (for its holder's last looks)
STARTING_MU = ratings.MU  # OpenSkill's (Plackett–Luce) starting rating: a guest is matched at it
ROUND_LIMIT = 1000  # tickets one round considers (the oldest first): a round takes milliseconds


# ---------------------------------------------------------------------------- ratings
class Rated(Protocol):
    """What the matchmaker reads of a rating (candlebox/server/ratings.py's ``Rating`` has it)."""

    @property
    def mu(self) -> float: ...


# (connection, account id, game) -> the account's rating in that game
RatingOf = Callable[[Connection, int, str], Rated]


# ---------------------------------------------------------------------------- the rules
@dataclass(frozen=True)
class Window:
    """How far apart two ratings may be to be matched, after waiting ``waited`` seconds."""

    start: float
    growth: float  # per second waited
    largest: float

    @classmethod
    def of(cls, settings: Settings) -> Window:
        return cls(
            settings.queue_window_start, settings.queue_window_growth, settings.queue_window_max
        )

    def at(self, waited: float) -> float:
        return min(self.largest, self.start + self.growth * max(0.0, waited))


@dataclass(frozen=True)
class Ticket:
    """A waiting ticket as the matchmaker sees it (``key``: its hash)."""

    key: str
    game: str
    variant: str
    players: int
    rated: bool
    bots_after: float | None
    account_id: int | None
    name: str
    mu: float
    seat_hash: str
    created_at: float

    @property
    def queue(self) -> tuple[str, str, int, bool]:
        return self.game, self.variant, self.players, self.rated

    def waited(self, now: float) -> float:
        return max(0.0, now - self.created_at)

    def ready_for_bots(self, now: float) -> bool:
        return (
            not self.rated and self.bots_after is not None and self.waited(now) >= self.bots_after
        )


@dataclass(frozen=True)
class Match:
    """The tickets seated at one new table, and how many of its seats bots take."""

    tickets: tuple[Ticket, ...]
    bots: int


def fits(a: Ticket, b: Ticket, now: float, window: Window) -> bool:
    """Whether ``a`` and ``b`` may sit at one table now: their ratings within both windows."""
    gap = abs(a.mu - b.mu)
    return gap <= window.at(a.waited(now)) and gap <= window.at(b.waited(now))


def plan(tickets: Iterable[Ticket], now: float, window: Window) -> list[Match]:
    """The tables to make now from the waiting tickets: in each queue, full tables of people
    first, the oldest ticket served first; then tables that bots complete, of tickets that have
    waited as long as their holders chose."""
    pools: dict[tuple[str, str, int, bool], list[Ticket]] = {}
    for ticket in tickets:
        pools.setdefault(ticket.queue, []).append(ticket)
    matches: list[Match] = []
    for pool in pools.values():
        pool.sort(key=lambda t: (t.created_at, t.key))
        taken: set[str] = set()
        matches += _tables(pool, now, window, taken, with_bots=False)
        ready = [t for t in pool if t.ready_for_bots(now)]
        matches += _tables(ready, now, window, taken, with_bots=True)
    return matches


def _tables(
    pool: list[Ticket], now: float, window: Window, taken: set[str], with_bots: bool
) -> list[Match]:
    made = []
    by_rating = sorted(pool, key=lambda t: (t.mu, t.created_at, t.key))  # the oldest first on a tie
    ratings = [t.mu for t in by_rating]
    for first in pool:
        if first.key in taken:
            continue
        reach = window.at(first.waited(now))  # nobody further can fit: they are not looked at
        near = by_rating[
            bisect.bisect_left(ratings, first.mu - reach) : bisect.bisect_right(
                ratings, first.mu + reach
            )
        ]
        others = [t for t in near if t.key not in taken and t.key != first.key]
        group = _gather(first, others, now, window, first.players)
        if len(group) == first.players or with_bots:
            made.append(Match(tuple(group), first.players - len(group)))
            taken.update(t.key for t in group)
    return made


def _gather(
    first: Ticket, others: list[Ticket], now: float, window: Window, size: int
) -> list[Ticket]:
    """``first`` and the others nearest its rating that fit everyone already chosen."""
    group = [first]
    for other in sorted(others, key=lambda t: abs(t.mu - first.mu)):  # stable
        if len(group) == size:
            break
        if all(fits(other, member, now, window) for member in group):
            group.append(other)
    return group


def seat_token(ticket: str) -> str:
    """The seat credential a ticket leads to: derived from the ticket, which only its holder
    knows, so that only its hash is ever stored (the matchmaker seats the hash)."""
    mac = hmac.new(ticket.encode(), b"candlebox quick play seat", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).rstrip(b"=").decode()


# ---------------------------------------------------------------------------- the queue
@dataclass(frozen=True)
class Wanted:
    """A checked queue: the game, its variant by name, players, rated and the wait for bots."""

    game: str
    variant: str
    players: int
    rated: bool
    bots_after: float | None


class _Raced(Exception):
    """A ticket changed under a round (cancelled meanwhile): the round is undone and tried again."""


class Matchmaker:
    """The queue's tickets and the rounds that match them (one at a time in this process; in one
    process at a time across processes)."""

    def __init__(
        self,
        settings: Settings,
        engine: Engine,
        opened: Callable[[NewGame], Any],
        rating_of: RatingOf = ratings.rating_of,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.settings = settings
        self.engine = engine
        self.opened = opened  # a table made: this process holds it from now (bots, watchers)
        self.rating_of = rating_of
        self.clock = clock
        self.window = Window.of(settings)
        self.lock = asyncio.Lock()
        self.closed = False
        self.rounds = 0  # rounds run here (the tests wait for one)
        self.swept_at = 0.0

    # ------------------------------------------------------------------ a holder's requests
    def check(self, spec: bodies.QueueSpec, account: Account | None) -> Wanted:
        """The queue ``spec`` asks for, or :class:`Rejected` naming the field at fault."""
        games = candlebox.game_ids()
        if spec.game not in games:
            raise Rejected("bad-game", f"unknown game {spec.game!r}; games: {', '.join(games)}")
        info = candlebox.game_info(spec.game)
        if spec.variant is None:
            counts = sorted({n for v in info.variants for n in v.players})
            if spec.players not in counts:
                raise Rejected(
                    "bad-players", f"{info.title} is for {counts[0]}–{counts[-1]} players"
                )
            variant = info.variant(info.default_variant(spec.players))
        else:
            named = {v.name: v for v in info.variants}
            if spec.variant not in named:
                raise Rejected(
                    "bad-variant",
                    f"{info.title} has no variant {spec.variant!r}; variants: {', '.join(named)}",
                )
            variant = named[spec.variant]
        if spec.players not in variant.players:
            raise Rejected(
                "bad-players",
                f"{info.title} ({variant.name}) is for "
                f"{variant.min_players}–{variant.max_players} players",
            )
        self._check_rated(spec, account)
        wanted = Wanted(spec.game, variant.name, spec.players, spec.rated, spec.bots_after)
        self.table_spec(wanted, [""] * spec.players)  # rated tables may not exist yet
        return wanted

    def _check_rated(self, spec: bodies.QueueSpec, account: Account | None) -> None:
        most = self.settings.max_bots_after
        if spec.bots_after is not None and not 0 <= spec.bots_after <= most:
            raise Rejected("bad-bots-after", f"bots_after is from 0 to {most:g} seconds")
        if not spec.rated:
            return
        if account is None:
            raise Rejected(
                "signed-out", "rated games are for signed-in players: sign in first", 401
            )
        if spec.bots_after is not None:
            raise Rejected(
                "bad-bots-after", "rated tables have no bots: bots_after is for unrated tickets"
            )

    def table_spec(self, wanted: Wanted, seated: list[str | None]) -> bodies.CreateSpec:
        """The table's creation request, as ``POST /api/games`` takes it: a person in each seat
        with a name (None: a bot of the default level), ``rated`` passed on when asked for."""
        level = _default_level(wanted.game)
        seats = [
            {"kind": "human", "name": name} if name is not None else {"kind": "bot", "level": level}
            for name in seated
        ]
        data: dict[str, Any] = {"game": wanted.game, "variant": wanted.variant, "seats": seats}
        if wanted.rated:
            data["rated"] = True
        return bodies.convert(data, bodies.CreateSpec, bodies.CREATE_CODES)

    def enter(self, spec: bodies.QueueSpec, account: Account | None, client: str) -> str:
        """A new waiting ticket (its token, shown only this once)."""
        wanted = self.check(spec, account)
        ticket = security.new_token()
        now = self.clock()
        owner = f"account:{account.id}" if account is not None else f"client:{client}"
        queue = f"{wanted.game} {wanted.variant} {wanted.players} {wanted.rated}"
        try:
            with self.engine.begin() as conn:
                mine = [f"queue client {client}"]
                if account is not None:
                    mine.insert(0, f"queue account {account.id}")
                _one_at_a_time(conn, mine)
                owned = _owned(client, account)
                self._expire(conn, now, owned)  # only its own rows: no lock taken on others'
                self._check_cap(conn, owned)
                mu = STARTING_MU  # a guest: unrated, matched as a newcomer
                if account is not None:
                    mu = float(self.rating_of(conn, account.id, wanted.game).mu)
                conn.execute(
                    insert(queue_tickets).values(
                        ticket_hash=security.digest(ticket),
                        game=wanted.game,
                        variant=wanted.variant,
                        players=wanted.players,
                        rated=wanted.rated,
                        bots_after=wanted.bots_after,
                        account_id=account.id if account is not None else None,
                        name=account.name if account is not None else "",
                        client=client[:64],
                        live_key=f"{owner} {queue}"[:255],
                        mu=mu,
                        seat_hash=security.digest(seat_token(ticket)),
                        status=WAITING,
                        created_at=now,
                        polled_at=now,
                        updated_at=now,
                        delivered=False,
                    )
                )
        except IntegrityError:
            raise Rejected(
                "already-waiting",
                "you are already waiting in this queue; cancel that ticket first",
                409,
            ) from None
        return ticket

    def _check_cap(self, conn: Connection, owned: Any) -> None:
        cap = self.settings.max_queue_tickets
        if cap <= 0:
            return
        held = conn.execute(
            select(func.count())
            .select_from(queue_tickets)
            .where(queue_tickets.c.status == WAITING, owned)
        ).scalar_one()
        if held >= cap:
            raise Rejected(
                "too-many-tickets",
                f"you are waiting in {held} queues already (at most {cap}); cancel one first",
                429,
            )

    def look(self, ticket: str) -> dict[str, Any]:
        """The ticket now, for its holder: waiting (and for how long, within which window),
        matched (the table, the seat, and the seat's credential the first time), or ended."""
        key = _ticket_key(ticket)
        now = self.clock()
        with self.engine.begin() as conn:
            row = _row(conn, key)
            if row.status == WAITING and row.polled_at < now - self.settings.queue_poll_timeout:
                self._end(conn, key, EXPIRED, now)  # its holder looked too late
            elif (
                row.status == WAITING and now - row.polled_at > self.settings.queue_poll_timeout / 6
            ):
                conn.execute(  # seen: not expired (written a few times a timeout, not each look)
                    update(queue_tickets)
                    .where(queue_tickets.c.ticket_hash == key)
                    .values(polled_at=now)
                )
            row = _row(conn, key)
            token = None
            if row.status == MATCHED and not row.delivered:
                handed = conn.execute(
                    update(queue_tickets)
                    .where(queue_tickets.c.ticket_hash == key, queue_tickets.c.delivered.is_(False))
                    .values(delivered=True)
                )
                if handed.rowcount == 1:
                    token = seat_token(ticket)
        waited = (now if row.status == WAITING else row.updated_at) - row.created_at
        return {
            "status": row.status,
            "game": row.game_id,
            "seat": row.seat,
            "token": token,
            "waited": round(max(0.0, waited), 1),
            "window": round(self.window.at(waited), 2),
            "rating": round(row.mu, 2),
            # the same on the scale players see (profiles, leaderboards): SCALE points a unit of mu
            "window_points": round(self.window.at(waited) * ratings.SCALE),
            "queue": {
                "game": row.game,
                "variant": row.variant,
                "players": row.players,
                "rated": row.rated,
                "bots_after": row.bots_after,
            },
        }

    def cancel(self, ticket: str) -> dict[str, Any]:
        """Leave the queue; 409 once matched (the seat is at the table already)."""
        key = _ticket_key(ticket)
        now = self.clock()
        with self.engine.begin() as conn:
            if self._end(conn, key, CANCELLED, now):
                return {"status": CANCELLED}
            row = _row(conn, key)
        if row.status == MATCHED:
            raise Rejected(
                "matched",
                "this ticket is matched already: your seat is at the table (look at the ticket)",
                409,
            )
        return {"status": row.status}

    @staticmethod
    def _end(conn: Connection, key: str, status: str, now: float) -> bool:
        """A waiting ticket cancelled or expired; False if it was no longer waiting."""
        done = conn.execute(
            update(queue_tickets)
            .where(queue_tickets.c.ticket_hash == key, queue_tickets.c.status == WAITING)
            .values(status=status, live_key=None, updated_at=now)
        )
        return bool(done.rowcount == 1)

    def _expire(self, conn: Connection, now: float, *among: Any) -> None:
        """Waiting tickets (``among`` those) nobody has looked at for ``queue_poll_timeout``
        expire."""
        conn.execute(
            update(queue_tickets)
            .where(
                queue_tickets.c.status == WAITING,
                queue_tickets.c.polled_at < now - self.settings.queue_poll_timeout,
                *among,
            )
            .values(status=EXPIRED, live_key=None, updated_at=now)
        )

    # ------------------------------------------------------------------ matching
    async def forever(self) -> None:
        """A round every ``queue_every`` seconds, for as long as the server runs."""
        while not self.closed:
            await asyncio.sleep(self.settings.queue_every)
            try:
                await self.round()
            except Exception:  # the database may be down for a while: try again next time
                log.exception("a quick play round failed")

    async def round(self) -> list[str]:
        """Match what can be matched now; the ids of the tables made (by this process)."""
        async with self.lock:
            made = await asyncio.to_thread(self._round, self.clock())
            self.rounds += 1
        for game in made:
            self.opened(game)
        return [game.record.id for game in made]

    async def after_entry(self) -> None:
        """A ticket has come: a round now, unless one is running (the next one sees it)."""
        if not self.lock.locked():
            await self.round()

    def _round(self, now: float) -> list[NewGame]:
        self._sweep(now)
        with self.engine.connect() as conn:
            waiting = conn.execute(
                select(queue_tickets.c.ticket_hash)
                .where(queue_tickets.c.status == WAITING)
                .limit(1)
            ).first()
        if waiting is None:
            return []
        try:
            with self.engine.begin() as conn:
                if not _exclusive(conn):
                    return []  # another process is matching now
                self._expire(conn, now)
                rows = conn.execute(
                    select(queue_tickets)
                    .where(queue_tickets.c.status == WAITING)
                    .order_by(queue_tickets.c.created_at)
                    .limit(ROUND_LIMIT)
                    .with_for_update(skip_locked=True)
                ).all()
                tickets = [_ticket(row) for row in rows]
                return [self._seat(conn, match, now) for match in plan(tickets, now, self.window)]
        except _Raced:
            log.info("a quick play ticket changed during a round; matching again next round")
            return []

    def _seat(self, conn: Connection, match: Match, now: float) -> NewGame:
        """Make the table of ``match`` and seat its tickets, in the round's transaction."""
        first = match.tickets[0]
        wanted = Wanted(first.game, first.variant, first.players, first.rated, None)
        order = list(range(first.players))
        secrets.SystemRandom().shuffle(order)  # who sits where (who plays first) is chance
        seats: list[str | None] = [None] * first.players
        for ticket, seat in zip(match.tickets, order, strict=False):
            seats[seat] = ticket.name or f"Player {seat + 1}"
        made = new_game(self.table_spec(wanted, seats), self.settings)
        for ticket, seat in zip(match.tickets, order, strict=False):
            record = made.record.seats[seat]
            record.token_hash, record.invite_hash = ticket.seat_hash, None
            record.account_id = ticket.account_id
        made.invites.clear()
        Storage.insert_game(conn, made.record)
        if self.settings.bots == "workers" and match.bots:
            Storage.owe_bot_turn(conn, made.record.id, 0)
        for ticket, seat in zip(match.tickets, order, strict=False):
            done = conn.execute(
                update(queue_tickets)
                .where(queue_tickets.c.ticket_hash == ticket.key, queue_tickets.c.status == WAITING)
                .values(
                    status=MATCHED, live_key=None, game_id=made.record.id, seat=seat, updated_at=now
                )
            )
            if done.rowcount != 1:
                raise _Raced()
        return made

    def _sweep(self, now: float) -> None:
        """Forget tickets that ended an hour ago (at most once a minute)."""
        if now - self.swept_at < 60:
            return
        self.swept_at = now
        with self.engine.begin() as conn:
            conn.execute(
                delete(queue_tickets).where(
                    queue_tickets.c.status != WAITING,
                    queue_tickets.c.updated_at < now - KEEP_ENDED,
                )
            )


def _default_level(game: str) -> str | None:
    """The level bots fill empty seats with: the lobby's default (medium) where the game has it."""
    names = [level.name for level in candlebox.game_info(game).levels]
    if "medium" in names:
        return "medium"
    return names[0] if names else None


def _ticket_key(ticket: str) -> str:
    if not security.well_formed(ticket):
        raise Rejected("bad-ticket", "ticket: not a ticket this server gives")
    return security.digest(ticket)


def _row(conn: Connection, key: str) -> Any:
    row = conn.execute(select(queue_tickets).where(queue_tickets.c.ticket_hash == key)).first()
    if row is None:
        raise Rejected("no-ticket", "there is no such ticket (it may have ended long ago)", 404)
    return row


def _ticket(row: Any) -> Ticket:
    return Ticket(
        key=row.ticket_hash,
        game=row.game,
        variant=row.variant,
        players=int(row.players),
        rated=bool(row.rated),
        bots_after=row.bots_after,
        account_id=row.account_id,
        name=row.name,
        mu=float(row.mu),
        seat_hash=row.seat_hash,
        created_at=float(row.created_at),
    )


def _exclusive(conn: Connection) -> bool:
    """Become the one matchmaker for this transaction: PostgreSQL's advisory lock, tried (False:
    another process holds it); SQLite's write lock (one process: its rounds take turns already)."""
    if conn.dialect.name == "postgresql":
        return bool(
            conn.execute(
                text("SELECT pg_try_advisory_xact_lock(:key)"), {"key": QUEUE_LOCK}
            ).scalar_one()
        )
    if conn.dialect.name == "sqlite":
        conn.exec_driver_sql("BEGIN IMMEDIATE")
    return True


def _one_at_a_time(conn: Connection, keys: list[str]) -> None:
    """Serialize the transactions about each of ``keys`` (an account's, a client's tickets: the
    cap is counted, then a ticket added): PostgreSQL's advisory locks on their hashes, always
    taken in the order given (an account before an address); SQLite's write lock."""
    if conn.dialect.name == "sqlite":
        conn.exec_driver_sql("BEGIN IMMEDIATE")
        return
    if conn.dialect.name != "postgresql":
        return
    for what in keys:
        key = int.from_bytes(hashlib.sha256(what.encode()).digest()[:8], "big", signed=True)
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})


def _owned(client: str, account: Account | None) -> Any:
    """The tickets of a client address, and of the account signed in there."""
    mine = queue_tickets.c.client == client[:64]
    return mine if account is None else or_(mine, queue_tickets.c.account_id == account.id)
