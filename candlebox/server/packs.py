"""Content packs by name (never by path) and a stored game's starting state."""

from __future__ import annotations

import logging
import os
import re

import candlebox
from candlebox.engine import State
from candlebox.server.config import Settings
from candlebox.server.errors import Rejected
from candlebox.server.storage import GameRecord

log = logging.getLogger("candlebox.server")
PACK_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def content_packs(settings: Settings) -> list[str]:
    """The content packs this server offers by name: the folders in ``Settings.content_dir``."""
    if not settings.content_dir:
        return []
    try:
        with os.scandir(settings.content_dir) as entries:
            names = [e.name for e in entries if e.is_dir() and PACK_NAME.match(e.name)]
    except OSError:
        log.warning("the content directory %s cannot be read", settings.content_dir)
        return []
    return sorted(name for name in names if ".." not in name)


def content_path(settings: Settings, name: object) -> str:
    """The folder of the content pack called ``name``. Over the network a pack is only ever chosen
    by name from the server's list, never by path, and the refusal names no server path (it reads
    the same whether or not any path exists)."""
    offered = content_packs(settings)
    if not isinstance(name, str) or name not in offered:
        listing = ", ".join(offered) if offered else "this server offers none"
        raise Rejected(
            "bad-content",
            f"'content' is the name of a content pack this server offers ({listing})",
        )
    assert settings.content_dir is not None
    return os.path.join(settings.content_dir, name)


def scrub_path(message: str, folder: str) -> str:
    """``message`` without the server's path of ``folder`` (nor its resolved form)."""
    for form in sorted({folder, os.path.realpath(folder)}, key=len, reverse=True):
        message = message.replace(form, "the pack")
    return message


def fresh_state(settings: Settings, record: GameRecord) -> State:
    """The record's game at its start (a content pack's name becomes its folder here)."""
    options = record.options
    if options.get("content") is not None:
        try:
            folder = content_path(settings, options["content"])
        except Rejected as exc:
            raise ValueError(exc.message) from None
        options = {**options, "content": folder}
    return candlebox.new_game(
        record.game, record.players, record.variant, seed=record.seed, **options
    )
