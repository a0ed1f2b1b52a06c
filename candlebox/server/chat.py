"""Table chat (issue 35; docs/server.md, "Table chat"): the players' channel (a seat's credential)
and the spectators' own (no credential), kept with the game in ``chat_messages``.

Who reads what: every viewer reads the players' channel; only spectators read the spectators'
channel (the players never see it). A message is plain text (the page shows it with
``textContent``), 1 to :data:`MAX_TEXT` characters once trimmed, control characters stripped. A seat
(or a spectator's client address) may send :attr:`Settings.chat_burst` messages at once, then
:attr:`Settings.chat_rate` a second (429 with ``Retry-After``); a game keeps at most
:attr:`Settings.chat_max_messages`. Tables with fewer than two people (a learn table: one player and
a bot; a bot-only table) have no chat.

Each process keeps a copy of the chat of the games it serves (frames are built without waiting),
read from the table when a game is first looked at and again once it is
:attr:`Settings.chat_fresh` seconds old (a message the operator hid disappears by then); with
several processes on PostgreSQL a message (or a hide) notifies ``"GAME chat"`` and every process
holding the game reads it again and sends its watchers what changed, as moves are.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import msgspec
from sqlalchemy import Connection, Engine, and_, delete, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from candlebox.server import clients
from candlebox.server.errors import Rejected
from candlebox.server.live import LiveGame
from candlebox.server.registry import LiveGames
from candlebox.server.storage import (
    Storage,
    chat_bans,
    chat_messages,
    chat_mutes,
    chat_reports,
)

log = logging.getLogger("candlebox.server")
encode = msgspec.json.Encoder().encode

MAX_TEXT = 500  # characters in one message, once trimmed
CACHED_GAMES = 512  # games whose chat a process keeps a copy of (the least recently used go)
SPECTATOR = "spectator"  # the name a guest spectator's messages show
CHAT_NOTE = "chat"  # what a chat notification says after the game's id
# line breaks and tabs become spaces; other control characters, zero-width and direction marks go
_BREAKS = re.compile(r"[\t\n\r\u2028\u2029\x0b\x0c\x85]+")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")


@dataclass(frozen=True)
class ChatMessage:
    """One message as every reader of its channel sees it."""

    id: int
    seat: int | None  # None: the spectators' channel
    name: str
    text: str
    at: float
    author: str  # the key a reader mutes its author by

    def json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "seat": self.seat,
            "name": self.name,
            "text": self.text,
            "at": self.at,
            "author": self.author,
        }


@dataclass
class GameChat:
    """A process's copy of one game's chat (hidden messages left out), oldest first."""

    messages: list[ChatMessage] = field(default_factory=list)
    read_at: float = 0.0  # time.monotonic() of the last read from the table


@dataclass(frozen=True)
class Writer:
    """Who sends a message: their seat (None: a spectator), the name and author key it shows, and
    what the operator's bans look at (the account, the client address)."""

    seat: int | None
    name: str
    author: str
    account_id: int | None
    client: str


def clean_text(text: str) -> str:
    """A message's text as stored: line breaks and tabs as spaces, control characters (and
    invisible direction marks) stripped, trimmed; :class:`Rejected` ``bad-text`` when that leaves
    nothing or more than :data:`MAX_TEXT` characters.

    >>> clean_text("  hello\\nthere\\x00 ")
    'hello there'
    """
    cleaned = _CONTROL.sub("", _BREAKS.sub(" ", text)).strip()
    if not cleaned:
        raise Rejected("bad-text", f"text is empty: a message is 1 to {MAX_TEXT} characters")
    if len(cleaned) > MAX_TEXT:
        raise Rejected(
            "bad-text", f"text is at most {MAX_TEXT} characters (this one has {len(cleaned)})"
        )
    return cleaned


def people(live: LiveGame) -> int:
    """The seats that are a person's: human seats, and seats a bot plays for their player."""
    return sum(1 for s in live.record.seats if s.kind == "human" or s.token_hash is not None)


def check_chat_allowed(live: LiveGame) -> None:
    """A table chat is for two people or more: 409 naming why for a learn or bot-only table."""
    count = people(live)
    if count == 0:
        raise Rejected("no-chat", "a bot-only table has no chat: nobody plays at it", 409)
    if count == 1:
        raise Rejected(
            "no-chat",
            "a table of one player and bots (a learn table) has no chat: nobody would read it",
            409,
        )


def visible(message: ChatMessage, seat: int | None) -> bool:
    """Whether a viewer in ``seat`` (None: a spectator) reads ``message``: the players' channel
    is everyone's, the spectators' only the spectators'."""
    return message.seat is not None or seat is None


def _message(row: Any) -> ChatMessage:
    return ChatMessage(row.id, row.seat, row.name, row.text, row.at, row.author)


# ---------------------------------------------------------------------------- SQL
def read_chat(conn: Connection, game_id: str) -> list[ChatMessage]:
    """A game's messages that are not hidden, oldest first."""
    rows = conn.execute(
        select(chat_messages)
        .where(chat_messages.c.game_id == game_id, chat_messages.c.hidden.is_(False))
        .order_by(chat_messages.c.id)
    )
    return [_message(row) for row in rows]


def banned(conn: Connection, account_id: int | None, client: str) -> bool:
    """Whether the operator banned the account or the client address from chat."""
    wanted = [and_(chat_bans.c.kind == "client", chat_bans.c.value == client)]
    if account_id is not None:
        wanted.append(and_(chat_bans.c.kind == "account", chat_bans.c.value == str(account_id)))
    return conn.execute(select(chat_bans.c.id).where(or_(*wanted)).limit(1)).first() is not None


def insert_message(
    conn: Connection, game_id: str, writer: Writer, text: str, cap: int
) -> ChatMessage:
    """Store a message (409 ``chat-full`` once the game has ``cap``); a guest spectator's author
    key is their first message's, so that muting them mutes every message of theirs."""
    count = conn.execute(
        select(func.count()).select_from(chat_messages).where(chat_messages.c.game_id == game_id)
    ).scalar_one()
    if count >= cap:
        raise Rejected("chat-full", f"this game's chat is full: it keeps {cap} messages", 409)
    author = writer.author
    if not author:  # a guest spectator: the key of their first message here, if any
        earlier = conn.execute(
            select(chat_messages.c.author)
            .where(
                chat_messages.c.game_id == game_id,
                chat_messages.c.seat.is_(None),
                chat_messages.c.account_id.is_(None),
                chat_messages.c.client == writer.client,
            )
            .order_by(chat_messages.c.id)
            .limit(1)
        ).first()
        author = "" if earlier is None else str(earlier.author)
    now = time.time()
    done = conn.execute(
        insert(chat_messages).values(
            game_id=game_id,
            seat=writer.seat,
            name=writer.name,
            text=text,
            at=now,
            author=author,
            account_id=writer.account_id,
            client=writer.client,
            hidden=False,
        )
    )
    key = done.inserted_primary_key
    assert key is not None
    number = int(key[0])
    if not author:
        author = f"{SPECTATOR}:{game_id}:{number}"
        conn.execute(
            update(chat_messages).where(chat_messages.c.id == number).values(author=author)
        )
    Storage.notify(conn, game_id, CHAT_NOTE)
    return ChatMessage(number, writer.seat, writer.name, text, now, author)


def insert_report(
    conn: Connection, game_id: str, message_id: int, reporter: str, reason: str | None
) -> bool:
    """Keep a report of a message for the operator; False when this reporter already did."""
    mine = (chat_reports.c.message_id == message_id) & (chat_reports.c.reporter == reporter)
    if conn.execute(select(chat_reports.c.id).where(mine)).first() is not None:
        return False
    conn.execute(
        insert(chat_reports).values(
            message_id=message_id,
            game_id=game_id,
            reporter=reporter,
            reason=reason,
            at=time.time(),
        )
    )
    return True


def mutes_of(engine: Engine, account_id: int) -> list[str]:
    """The authors an account muted, in the order it muted them."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(chat_mutes.c.author)
            .where(chat_mutes.c.account_id == account_id)
            .order_by(chat_mutes.c.at, chat_mutes.c.author)
        )
        return [str(row.author) for row in rows]


def set_mute(engine: Engine, account_id: int, author: str, muted: bool, cap: int) -> list[str]:
    """Mute (or unmute) ``author`` for the account (409 ``too-many-mutes`` past ``cap``); the
    account's mutes after it."""
    with engine.begin() as conn:
        mine = (chat_mutes.c.account_id == account_id) & (chat_mutes.c.author == author)
        there = conn.execute(select(chat_mutes.c.author).where(mine)).first() is not None
        if not muted and there:
            conn.execute(delete(chat_mutes).where(mine))
        elif muted and not there:
            count = conn.execute(
                select(func.count())
                .select_from(chat_mutes)
                .where(chat_mutes.c.account_id == account_id)
            ).scalar_one()
            if count >= cap:
                raise Rejected(
                    "too-many-mutes", f"you may mute at most {cap} players; unmute one first", 409
                )
            conn.execute(
                insert(chat_mutes).values(account_id=account_id, author=author, at=time.time())
            )
    return mutes_of(engine, account_id)


# ---------------------------------------------------------------------------- a web process's part
class TableChat:
    def __init__(self, games: LiveGames) -> None:
        self.games = games
        self.settings = games.settings
        self.copies: OrderedDict[str, GameChat] = OrderedDict()
        self.rate = clients.RateLimiter(self.settings.chat_rate, self.settings.chat_burst)
        self.reading: set[str] = set()
        self.tasks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ the copies
    async def load(self, live: LiveGame) -> None:
        """This process's copy of the game's chat, read now if it has none or it is old."""
        copy = self.copies.get(live.id)
        if copy is not None and time.monotonic() - copy.read_at < self.settings.chat_fresh:
            self.copies.move_to_end(live.id)
            return
        await self.reread(live)

    async def reread(self, live: LiveGame) -> None:
        """Read the game's chat from the table; the watchers are sent what changed (new
        messages, hidden ones) since this process's copy."""
        messages = await asyncio.to_thread(self._read, live.id)
        old = self.copies.get(live.id)
        self.copies[live.id] = GameChat(messages, time.monotonic())
        self.copies.move_to_end(live.id)
        while len(self.copies) > CACHED_GAMES:
            self.copies.popitem(last=False)
        if old is None:
            return
        known = {m.id for m in old.messages}
        now = {m.id for m in messages}
        added = [m for m in messages if m.id not in known]
        gone = sorted(known - now)
        if added or gone:
            self._push(live, added, gone)

    def _read(self, game_id: str) -> list[ChatMessage]:
        with self.games.storage.engine.connect() as conn:
            return read_chat(conn, game_id)

    def frame_part(self, live: LiveGame, seat: int | None) -> dict[str, Any]:
        """The ``chat`` of a snapshot for ``seat`` (nothing while this process has no copy: the
        page keeps what it has)."""
        copy = self.copies.get(live.id)
        if copy is None:
            return {}
        return {"chat": [m.json() for m in copy.messages if visible(m, seat)]}

    def replay_part(self, live: LiveGame, seat: int | None) -> list[dict[str, Any]]:
        """A finished game's chat as ``seat`` reads it (the players' channel for the seats)."""
        copy = self.copies.get(live.id)
        messages = [] if copy is None else copy.messages
        return [m.json() for m in messages if visible(m, seat)]

    def _push(self, live: LiveGame, added: list[ChatMessage], gone: list[int]) -> None:
        """Send each watcher the new messages it may read and the ids of those hidden."""
        for seat, conns in live.watchers.items():
            if not conns:
                continue
            mine = [m.json() for m in added if visible(m, seat)]
            if not mine and not gone:
                continue
            frame = encode({"type": "chat", "chat": mine, "hidden": gone}).decode()
            for conn in conns:
                conn.push(frame)

    def heard(self, game_id: str) -> None:
        """Another process's message or the operator's hide: read the game's chat again if this
        process serves it."""
        live = self.games.games.get(game_id) or self.games.finished.get(game_id)
        if live is None or game_id in self.reading or game_id not in self.copies:
            return
        self.reading.add(game_id)
        task = asyncio.create_task(self._reread_heard(live))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _reread_heard(self, live: LiveGame) -> None:
        try:
            self.reading.discard(live.id)
            await self.reread(live)
        except Exception:
            log.exception("reading the chat of game %s failed", live.id)

    # ------------------------------------------------------------------ sending and reporting
    def check_rate(self, key: str) -> None:
        wait = self.rate.wait(key)
        if wait > 0:
            raise Rejected(
                "slow-down", "too many chat messages; wait a moment before the next", 429
            ).retry_in(wait)

    async def post(self, live: LiveGame, writer: Writer, text: str) -> ChatMessage:
        """Store and send a message (:class:`Rejected`, nothing stored, for any refusal)."""
        check_chat_allowed(live)
        cleaned = clean_text(text)
        key = f"seat:{live.id}:{writer.seat}" if writer.seat is not None else writer.client
        self.check_rate(key)
        cap = self.settings.chat_max_messages

        def op(conn: Connection) -> ChatMessage:
            if banned(conn, writer.account_id, writer.client):
                raise Rejected(
                    "chat-banned",
                    "you may not chat on this server: its operator banned you from chat",
                    403,
                )
            return insert_message(conn, live.id, writer, cleaned, cap)

        await self.load(live)
        message: ChatMessage = await self.games.writer.run(op)
        copy = self.copies.get(live.id)
        if copy is not None and all(m.id != message.id for m in copy.messages):
            copy.messages.append(message)
            self._push(live, [message], [])
        return message

    async def report(
        self,
        live: LiveGame,
        seat: int | None,
        message_id: int,
        reporter: str,
        reason: str | None,
    ) -> bool:
        """Keep a report of a message the reporter can read (404 for any other); False when they
        had reported it already."""
        await self.load(live)
        copy = self.copies.get(live.id)
        found = (
            None if copy is None else next((m for m in copy.messages if m.id == message_id), None)
        )
        if found is None or not visible(found, seat):
            raise Rejected("no-message", f"there is no message {message_id} in this chat", 404)
        self.check_rate(f"report:{reporter}")
        try:
            return bool(
                await self.games.writer.run(
                    lambda conn: insert_report(conn, live.id, message_id, reporter, reason)
                )
            )
        except IntegrityError:  # another process stored the same report a moment ago
            return False

    async def stop(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
