"""The words of a game's components for its page: ``candlebox.components`` of the game's
configuration (its variant, player count and options; a content pack by name becomes its folder, as
for the game itself), as JSON bytes, computed once per configuration and kept.

The page fetches them once (``GET /api/games/{id}/components``) and names every code it shows from
them, so no page keeps its own copy of the words (issue 14)."""

from __future__ import annotations

import logging
from functools import lru_cache

import msgspec

import candlebox
from candlebox.engine.words import WordsError
from candlebox.server.config import Settings
from candlebox.server.errors import Rejected
from candlebox.server.packs import content_path
from candlebox.server.storage import GameRecord

log = logging.getLogger("candlebox.server")
_encode = msgspec.json.Encoder(order="deterministic").encode


@lru_cache(maxsize=256)
def _components(game: str, variant: str, players: int, options: bytes) -> bytes:
    chosen = msgspec.json.decode(options)
    table = candlebox.components(game, variant, players=players, **chosen)
    return _encode(table)


def components_json(settings: Settings, record: GameRecord) -> bytes:
    """``{code: {"name", "text"}}`` for the record's configuration, as JSON (cached)."""
    options = dict(record.options)
    if options.get("content") is not None:
        options["content"] = content_path(settings, options["content"])
    try:
        return _components(record.game, record.variant, record.players, _encode(options))
    except (WordsError, ValueError, KeyError, TypeError) as exc:
        # the words of a content pack that does not match it: said without the server's paths
        log.warning("no component words for %s %s: %s", record.game, record.variant, exc)
        raise Rejected("no-words", "this game's component words cannot be read", 500) from None
