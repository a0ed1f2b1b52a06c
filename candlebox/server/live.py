"""A game being played or watched in this process, and one watcher's connection to it."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from candlebox.engine import State
from candlebox.server.storage import LOST_ON_TIME, GameRecord, SeatRecord

CLOSED_MESSAGE = "this game was closed: nobody moved in it for a long time"
# statuses of games over before their end (a stored result)
ENDED_EARLY = ("resigned", LOST_ON_TIME, "stopped")
ABANDONED_MESSAGE = "this game was abandoned by its host before anyone else played in it"


class Connection:
    """One watcher of one game (a websocket, or a test double): frames are queued and sent in order
    by the caller's sender loop; a client that falls too far behind is dropped and must reconnect."""

    def __init__(self, seat: int | None, limit: int) -> None:
        self.seat = seat
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.limit = limit
        self.dropped = False

    def push(self, frame: str) -> None:
        if self.dropped:
            return
        if self.queue.qsize() >= self.limit:
            self.dropped = True
            self.queue.put_nowait(None)  # the sender loop closes the socket
            return
        self.queue.put_nowait(frame)

    def close(self) -> None:
        self.dropped = True
        self.queue.put_nowait(None)


@dataclass
class LiveGame:
    record: GameRecord
    state: State
    moves: int = 0  # moves applied (= recorded)
    events_sent: int = 0  # engine events already turned into log frames
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: dict[int | None, set[Connection]] = field(default_factory=dict)
    away_since: dict[int, float] = field(default_factory=dict)  # seat -> when its last link went
    # seat -> until when another web process has a connection of it (candlebox/server/presence.py)
    elsewhere: dict[int, float] = field(default_factory=dict)
    log_lengths: dict[int | None, int] = field(default_factory=dict)  # entries each watcher has
    bots: dict[int, Any] = field(default_factory=dict)
    bot_tasks: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    title: str = ""
    active_at: float = field(default_factory=time.time)  # its last move (or creation, or restart)
    creator: str | None = None  # the client address that created it (this process only)

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def over(self) -> bool:
        """Played to its end, or ended by a resignation (rulings EG-1) or a bot-only table's stop."""
        return self.state.is_over or self.ended_early

    @property
    def resigned(self) -> bool:
        return self.record.status == "resigned"

    @property
    def ended_early(self) -> bool:
        """Ended before its end: a seat resigned or (rated) lost on time, or a bot-only table was
        stopped."""
        return self.record.status in ENDED_EARLY

    def result(self) -> dict[str, Any] | None:
        """The result: the engine's when the game was played out, the stored one (which says why)
        when it ended early; None while the game goes on."""
        if self.ended_early:
            return self.record.result
        if not self.state.is_over:
            return None
        return {"winners": list(self.state.winners), "scores": list(self.state.scores)}

    def seat(self, number: int) -> SeatRecord:
        return self.record.seats[number]

    def connected(self, seat: int) -> bool:
        """A connection of ``seat`` is open here, or (several processes) in another process."""
        return bool(self.watchers.get(seat)) or self.elsewhere.get(seat, 0.0) > time.time()

    def has_open_seat(self) -> bool:
        return any(s.kind == "human" and s.token_hash is None for s in self.record.seats)

    def all_away_from(self, now: float) -> None:
        """Every seat counts as away from ``now`` (a new or resumed game nobody watches yet)."""
        for seat in range(self.record.players):
            self.away_since[seat] = now

    def push_all(self, frame: str) -> None:
        for conns in self.watchers.values():
            for conn in conns:
                conn.push(frame)
