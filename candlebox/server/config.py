"""Server settings: where the database is, how bots pace themselves, limits on what clients send."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

ENV_PREFIX = "CANDLEBOX_"


def default_db_url() -> str:
    """SQLite in the user's data directory (e.g. ~/.local/share/candlebox/candlebox.sqlite3)."""
    from platformdirs import user_data_dir  # deferred: the optional server extra

    return f"sqlite:///{Path(user_data_dir('candlebox')) / 'candlebox.sqlite3'}"


@dataclass
class Settings:
    db: str = field(default_factory=default_db_url)
    bot_delay: float = 0.8  # seconds a bot waits before moving (per game; the lobby can change it)
    max_bot_delay: float = 10.0
    zombie_after: float = 60.0  # a seat with nobody connected this long may be handed to a bot
    bot_threads: int = 2  # worker threads for the bots' engine calls
    # Processes the bots of this web process think in (its built-in bot worker, with bots
    # "inline"), so a search holds their interpreter, not the one serving the players; 0: they think
    # in this process's threads (the functional tests, which start thousands of apps). Bot workers
    # ("workers") think in their own process already and ignore it.
    bot_processes: int = 2
    # The longest a bot may think about one decision (ISMCTS's ``seconds``): the cap on what a client
    # may ask for, and what stored games are clamped to when the server starts.
    max_bot_seconds: float = 1.0
    max_message: int = 4096  # characters in one websocket message
    max_body: int = 65536  # bytes in one HTTP request body
    messages_per_second: float = 30.0  # per websocket, with a burst of twice that
    send_queue: int = 256  # frames waiting for a slow client before it is disconnected
    finished_in_memory: int = 200  # finished games kept rebuilt for replays
    # Slow or greedy clients (see docs/server.md, "A public server"): seconds to send a request's
    # headers and its body, seconds an idle kept-alive connection stays open, connections (and
    # requests) at once before new requests get 503, and the size of a request's headers.
    header_timeout: float = 10.0
    body_timeout: float = 30.0
    keep_alive_timeout: float = 5.0
    max_connections: int = 2048
    max_header_bytes: int = 16384
    # Content packs a game may be created with, by name: the folders inside this directory (none by
    # default). Over the network a pack is never chosen by path.
    content_dir: str | None = None
    # Limits and abuse (docs/server.md, "Limits and abuse")
    requests_per_second: float = (
        20.0  # per client address: HTTP requests and websocket opens; 0: off
    )
    request_burst: int = 120  # requests a client may make at once before the rate applies
    trusted_proxies: tuple[str, ...] = ()  # addresses whose X-Forwarded-For names the client
    allowed_origins: tuple[str, ...] = ()  # other origins (scheme://host[:port]) that may post
    max_spectators: int = 50  # spectators' connections per game
    # Websockets (docs/server.md, "Limits and abuse"); 0 turns a cap off. A seat's connections to one
    # game (a player's tabs), a client address's connections (spectators and those that have not
    # said hello included), and of those the ones that have not said hello yet, which are closed
    # when ``hello_timeout`` seconds have passed without one.
    max_seat_sockets: int = 8
    max_client_sockets: int = 64
    max_waiting_sockets: int = 8
    hello_timeout: float = 10.0
    max_open_games: int = 10  # live games created from one client address
    # Bot-only tables (no human seat; docs/server.md, "Bot-only tables"): live ones one client
    # address may have (0: no limit), the seconds after which one stops itself (0: never), and the
    # bot work slots (bot processes or threads) their bots may hold at once, the rest kept for the
    # bots of games people play (at least one slot is always left to those).
    max_bot_tables: int = 2
    bot_table_seconds: float = 600.0
    bot_table_slots: int = 1
    expire_after: float = 24 * 3600.0  # a live game with no move this long (seconds) is closed
    keep_finished: float = 30 * 86400.0  # finished and closed games are deleted this long after
    sweep_every: float = 600.0  # seconds between two sweeps for expired games
    lobby_page: int = 20  # games per lobby list page (the default `limit`)
    lobby_max_page: int = 100  # the largest `limit` a client may ask for
    max_turns: int = 2000  # the largest `max_turns` option a game created here may have
    api_docs: bool = False  # serve /openapi.json, /docs and /redoc
    # Many processes (docs/deploy.md): "inline" — this process plays its bots' turns (one process,
    # the default; the bots think in its ``bot_processes``); "workers" — this process only records
    # the turns bots owe, and `candlebox bots-worker` processes play them (PostgreSQL; required when
    # several app processes share a database).
    bots: str = "inline"
    bot_lease: float = 30.0  # seconds a bot worker holds a claimed turn before others may take it
    worker_games: int = 32  # turns one bot worker plays at once (thinking or waiting its delay)
    review_seconds: float = 0.5  # a post-game review's search per decision (issue 16)
    # Accounts (docs/server.md, "Accounts and ratings"): how long a session lasts unused (days; each day it is
    # used moves its end), failed sign-ins allowed per account name and per client address within
    # ``sign_in_window`` seconds before further tries get 429, and how long a reset link lasts.
    session_days: float = 30.0
    sign_in_failures: int = 10
    sign_in_address_failures: int = 50
    sign_in_window: float = 900.0
    reset_hours: float = 1.0
    # Passkeys (docs/server.md, "Passkeys"): seconds a ceremony's challenge may be answered in, the
    # passkeys one account may hold, and the sign-in ceremonies one client address may have open.
    passkey_seconds: float = 300.0
    max_passkeys: int = 10
    max_passkey_flows: int = 20
    # E-mail (docs/server.md, "E-mail"; docs/deploy.md): the SMTP server mail goes through
    # (smtp://user:password@host:port, smtps:// for TLS; empty: no mail is sent), the site's address
    # as players reach it (links in mail, and the passkeys' relying party), the From address (empty:
    # candlebox@ the public URL's host), tries before a mail is given up, seconds between two looks
    # at the outbox, hours a verification link lasts, and the "forgot password" requests one client
    # address (and one account) may make within ``sign_in_window``.
    smtp_url: str = ""
    public_url: str = ""
    mail_from: str = ""
    mail_tries: int = 8
    mail_poll: float = 5.0
    verify_hours: float = 48.0
    forgot_limit: int = 5
    # Quick play (docs/server.md, "Quick play"; candlebox/server/matchmaking.py): seconds between
    # two matching rounds, seconds a waiting ticket lives without being polled, waiting tickets one
    # client address may hold, the rating window (start, growth per second waited, largest) and
    # the longest wait a player may choose before bots fill the table.
    queue_every: float = 1.0
    queue_poll_timeout: float = 30.0
    max_queue_tickets: int = 3
    queue_window_start: float = 2.0
    queue_window_growth: float = 0.25
    queue_window_max: float = 25.0
    max_bots_after: float = 600.0
    # Friends (docs/server.md, "Friends"): the most players one account follows, and the most
    # invitations into seats it may have waiting for an answer at once.
    max_follows: int = 200
    max_invites: int = 20
    # Clocks (docs/server.md, "Clocks"; candlebox/server/clocks.py): seconds between two looks of a
    # process's clock watcher for a seat out of time (0: this process watches none), and seconds a
    # watcher's lease on a clock lasts (another process takes the clock over once it has passed).
    clock_every: float = 0.5
    clock_lease: float = 10.0
    # What time it is for the clocks (Unix seconds): tests put in a clock they move themselves,
    # to play a turn-based game over days without waiting for them (never read from the environment)
    clock_now: Callable[[], float] = field(default=time.time, repr=False)
    # Table chat (docs/server.md, "Table chat"; candlebox/server/chat.py): messages a seat (or a
    # spectator's client address) may send at once, then how many a second, the most messages one
    # game keeps, the most authors a signed-in player may mute, and the seconds a process trusts
    # its copy of a game's chat before reading it again (a message the operator hid goes by then).
    chat_burst: int = 5
    chat_rate: float = 0.5
    chat_max_messages: int = 1000
    max_mutes: int = 500
    chat_fresh: float = 30.0
    # /metrics (Prometheus text) answers only these client addresses; empty: nobody (off)
    metrics_from: tuple[str, ...] = ("127.0.0.1", "::1")
    json_logs: bool = False  # one JSON object per log line (for a log collector)
    # Notices (issue 35; docs/server.md, "Turn-based games and notices"): Web Push endpoints on this
    # machine or a private network are refused (the server would post wherever a player says)
    # unless this is on — for tests with a local receiver, never on a public server.
    push_private_endpoints: bool = False

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Settings with any field overridden by ``CANDLEBOX_<FIELD>`` (``CANDLEBOX_MAX_SPECTATORS=
        20``; lists comma-separated, booleans 1/0, true/false, yes/no). A bad value is a
        ValueError naming the variable."""
        environ = os.environ if environ is None else environ
        base = cls()
        changes: dict[str, Any] = {}
        for spec in fields(cls):
            name = ENV_PREFIX + spec.name.upper()
            text = environ.get(name)
            if text is None:
                continue
            current = getattr(base, spec.name)
            if callable(current):
                continue  # a function (clock_now) is set in code only
            try:
                changes[spec.name] = _parse(text.strip(), current)
            except ValueError:
                raise ValueError(
                    f"{name}={text!r} is not a valid {type(current).__name__}"
                ) from None
        return replace(base, **changes)


def _parse(text: str, like: Any) -> Any:
    if isinstance(like, bool):
        if text.lower() in ("1", "true", "yes", "on"):
            return True
        if text.lower() in ("0", "false", "no", "off"):
            return False
        raise ValueError(text)
    if isinstance(like, int):
        return int(text)
    if isinstance(like, float):
        return float(text)
    if isinstance(like, tuple):
        return tuple(item.strip() for item in text.split(",") if item.strip())
    return text
