"""How many websockets a client may hold (issue 33). An audit opened 2,150 sockets of one seat from
one address, within the request rate: all were accepted, and once they filled uvicorn's
``max_connections`` every client's HTTP request got 503. So each client address may have at most
``max_client_sockets`` open, of which at most ``max_waiting_sockets`` have not said hello yet (and
those only until ``hello_timeout``); all sockets together take at most three quarters of
``max_connections``, so HTTP requests always find room. (A seat's own tabs are capped where its
connections are registered: ``seating.Seating.attach``.) The counts are this process's."""

from __future__ import annotations

from dataclasses import dataclass, field

from candlebox.server.config import Settings
from candlebox.server.errors import Rejected

SOCKETS_SHARE = 0.75  # of max_connections: the rest is kept for HTTP requests


@dataclass
class SocketCounts:
    settings: Settings
    total: int = 0
    open: dict[str, int] = field(default_factory=dict)  # client address -> sockets open
    waiting: dict[str, int] = field(default_factory=dict)  # of those, not past the hello yet

    def admit(self, client: str) -> Ticket:
        """Count a new socket of ``client`` (waiting for its hello); :class:`Rejected` (429, or 503
        when the server has no room) naming the limit it would pass."""
        settings = self.settings
        if settings.max_connections > 0 and self.total >= self.most():
            raise Rejected(
                "server-busy",
                "the server has as many live games open as it can take; try again in a moment",
                503,
            )
        _below_cap(
            self.open,
            client,
            settings.max_client_sockets,
            "too-many-sockets",
            "connections to games open, the most it may (max_client_sockets); close some tabs",
        )
        _below_cap(
            self.waiting,
            client,
            settings.max_waiting_sockets,
            "too-many-waiting",
            "connections that have not said hello, the most it may (max_waiting_sockets)",
        )
        self.total += 1
        self.open[client] = self.open.get(client, 0) + 1
        self.waiting[client] = self.waiting.get(client, 0) + 1
        return Ticket(self, client)

    def most(self) -> int:
        return max(1, int(self.settings.max_connections * SOCKETS_SHARE))

    def _greeted(self, client: str) -> None:
        _decrease(self.waiting, client)

    def _closed(self, client: str, waiting: bool) -> None:
        self.total -= 1
        _decrease(self.open, client)
        if waiting:
            _decrease(self.waiting, client)


def _below_cap(counts: dict[str, int], client: str, cap: int, code: str, what: str) -> None:
    """:class:`Rejected` (429) when ``client`` already has ``cap`` of ``counts`` (0: no cap)."""
    if cap > 0 and counts.get(client, 0) >= cap:
        raise Rejected(code, f"this address has {cap} {what}", 429)


def _decrease(counts: dict[str, int], client: str) -> None:
    left = counts.get(client, 0) - 1
    if left > 0:
        counts[client] = left
    else:
        counts.pop(client, None)  # an address with nothing open is not remembered


@dataclass
class Ticket:
    """One counted socket: :meth:`greeted` once its hello arrived, :meth:`close` when it went
    (each at most once, whatever path the session takes)."""

    counts: SocketCounts
    client: str
    waiting: bool = True
    closed: bool = False

    def greeted(self) -> None:
        if self.waiting and not self.closed:
            self.waiting = False
            self.counts._greeted(self.client)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.counts._closed(self.client, self.waiting)
