"""Log entries in words for the web page, with the terminal's own sentences.

``candlebox.cli.render.event_line`` turns a game's log entry into English (with a generic fallback for
a game that has no terminal renderer yet); the page receives each entry as ``{"entry": ..., "text":
...}`` and styles the text itself. Sentences are cached: the same public entry is sent to every seat.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import msgspec

from candlebox.cli.render import event_line

_encode = msgspec.json.Encoder(order="deterministic").encode
_decode = msgspec.json.decode


@lru_cache(maxsize=65536)
def _sentence(game_id: str, encoded: bytes) -> str:
    try:
        return event_line(game_id, _decode(encoded))
    except Exception:  # a renderer that chokes on an entry must not stop the game being shown
        return str(_decode(encoded).get("event", "?"))


def entry_text(game_id: str, entry: dict[str, Any]) -> dict[str, Any]:
    return {"entry": entry, "text": _sentence(game_id, _encode(entry))}
