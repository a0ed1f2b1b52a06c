"""Log entries in words for the web page: each game's own sentences (its ``text`` capability, the same
words the terminal prints), or the generic line from the entry's fields for a game without them.

The page receives each entry as ``{"entry": ..., "text": ...}`` and styles the text itself ("seat N"
becomes the player's name). Sentences are cached: the same public entry is sent to every seat.
"""

from __future__ import annotations

import logging
from functools import lru_cache
from typing import Any

import msgspec

from candlebox.engine import State, game_info
from candlebox.engine.plugin import fields_sentence

log = logging.getLogger(__name__)
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


def seat_words(state: State, seat: int | None) -> dict[str, Any]:
    """The frame's words for ``seat``: the pending decision (``prompt``) and a label for each of its
    legal actions, in the order of ``legal`` (``labels``), so pages show words, not notation."""
    try:
        prompt = state.prompt(seat)
        legal = state.legal_actions(seat) if seat is not None else []
        labels = [state.label(seat, action) for action in legal] if seat is not None else []
    except Exception:  # a game's words that fail must not stop the game being shown
        log.exception("no words for %s at seat %s", state.game_id, seat)
        return {"prompt": "", "labels": []}
    return {"prompt": prompt, "labels": labels}
