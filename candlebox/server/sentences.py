"""Log entries in words for the web page: each game's own sentences (its ``text`` capability, the same
words the terminal prints), or the generic line from the entry's fields for a game without them.

The page receives each entry as ``{"entry": ..., "text": ...}`` and styles the text itself ("seat N"
becomes the player's name). Sentences are cached: the same public entry is sent to every seat.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import msgspec

from candlebox.engine import game_info
from candlebox.engine.plugin import fields_sentence

_encode = msgspec.json.Encoder(order="deterministic").encode
_decode = msgspec.json.decode


@lru_cache(maxsize=65536)
def _sentence(game_id: str, encoded: bytes) -> str:
    entry = _decode(encoded)
    try:
        text = game_info(game_id).text()
        return fields_sentence(entry) if text is None else text.sentence(entry)
    except Exception:  # a game's words that choke on an entry must not stop the game being shown
        return str(entry.get("event", "?"))


def entry_text(game_id: str, entry: dict[str, Any]) -> dict[str, Any]:
    return {"entry": entry, "text": _sentence(game_id, _encode(entry))}
