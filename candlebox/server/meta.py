"""What ``GET /api/meta`` answers: the games, their variants and options, the bots and strengths, and
the content packs this server offers by name. Computed once, when the app starts."""

from __future__ import annotations

import dataclasses
from typing import Any

import candlebox
from candlebox import bots as botregistry
from candlebox.engine import Variant
from candlebox.engine.howto import how_to_play
from candlebox.server import bots as botlib
from candlebox.server.config import Settings
from candlebox.server.packs import content_packs


def server_meta(settings: Settings) -> dict[str, Any]:
    data = meta()
    packs = content_packs(settings)  # names only, never paths
    data["content_packs"] = packs
    offer_content_packs(data, packs)
    return data


def meta() -> dict[str, Any]:
    games = candlebox.game_ids()  # as registered now, not when candlebox was imported
    botlib.probe([(name, game) for name in botregistry.available() for game in games])
    return {
        "games": [game_meta(game_id) for game_id in games],
        "bots": [
            {
                "name": name,
                "doc": botregistry.describe(name),
                "strength": botlib.has_strength(name),
            }
            for name in botregistry.available()
        ],
        "strengths": botlib.STRENGTHS,
        "version": candlebox.__version__,
    }


def game_meta(game_id: str) -> dict[str, Any]:
    info = candlebox.game_info(game_id)
    players = range(
        min(v.min_players for v in info.variants), max(v.max_players for v in info.variants) + 1
    )
    return {
        "id": game_id,
        "title": info.title,
        "summary": _summary(game_id),
        "variants": [variant_meta(variant) for variant in info.variants],
        "default_variant": {str(n): info.default_variant(n) for n in players},
        "facts": info.facts,
        "page": info.page,  # the board module: static/js/games/<page>.js (None: generic)
        "bots": [name for name in botregistry.available() if botlib.plays(name, game_id)],
        # the opponents the lobby offers by name, weakest first (bench/levels.py measures them)
        "levels": [
            {
                "name": level.name,
                "bot": level.bot,
                "params": dict(level.params),
                "doc": level.doc,
                # measured against the level below: {ahead, games, players} (engine Record)
                "record": None if level.ahead is None else dataclasses.asdict(level.ahead),
            }
            for level in botlib.levels(game_id)
        ],
    }


def _summary(game_id: str) -> str | None:
    """The game's how-to-play summary (a generated page's for a game without one of its own)."""
    try:
        return how_to_play(game_id).summary or None
    except (OSError, ValueError, KeyError):
        return None


def variant_meta(variant: Variant) -> dict[str, Any]:
    return {
        "name": variant.name,
        "doc": variant.doc,
        "min_players": variant.min_players,
        "max_players": variant.max_players,
        "options": [
            {
                "name": opt.name,
                "kind": opt.kind,
                "default": opt.default,
                "doc": opt.doc,
                "choices": list(opt.choices),
                "minimum": opt.minimum,
                "maximum": opt.maximum,
                "nullable": opt.nullable,
                "label": opt.label,
                "choice_labels": list(opt.choice_labels),
            }
            for opt in variant.options
        ],
    }


def offer_content_packs(meta_data: dict[str, Any], packs: list[str]) -> None:
    """Over the network the ``content`` option is a pack's name from the server's list (a choice,
    blank for the shipped content), not the library's folder path; without packs it is not offered.
    ``design`` (a designer's changed printed values, for ``candlebox simulate``) is not offered: the
    server's packs are played as printed."""
    for game in meta_data["games"]:
        for variant in game["variants"]:
            variant["options"] = [opt for opt in variant["options"] if opt["name"] != "design"]
            options = variant["options"]
            for index, opt in enumerate(options):
                if opt["name"] != "content":
                    continue
                if not packs:
                    del options[index]
                    break
                opt.update(
                    kind="choice",
                    choices=["", *packs],
                    doc="a content pack this server offers (practice games only); blank: the "
                    "shipped content",
                )
