"""Server settings: where the database is, how bots pace themselves, limits on what clients send."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


def default_db_url() -> str:
    """SQLite in the user's data directory (e.g. ~/.local/share/candlebox/candlebox.sqlite3)."""
    from platformdirs import user_data_dir

    return f"sqlite:///{Path(user_data_dir('candlebox')) / 'candlebox.sqlite3'}"


@dataclass
class Settings:
    db: str = field(default_factory=default_db_url)
    bot_delay: float = 0.8  # seconds a bot waits before moving (per game; the lobby can change it)
    max_bot_delay: float = 10.0
    zombie_after: float = 60.0  # a seat with nobody connected this long may be handed to a bot
    bot_threads: int = 2  # worker threads for the bots' engine calls
    # The longest a bot may think about one decision (ISMCTS's ``seconds``): the cap on what a client
    # may ask for, and what stored games are clamped to when the server starts.
    max_bot_seconds: float = 1.0
    max_message: int = 4096  # characters in one websocket message
    max_body: int = 65536  # bytes in one HTTP request body
    messages_per_second: float = 30.0  # per websocket, with a burst of twice that
    send_queue: int = 256  # frames waiting for a slow client before it is disconnected
    finished_in_memory: int = 200  # finished games kept rebuilt for replays
    lobby_finished: int = 20  # finished games listed in the lobby
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
