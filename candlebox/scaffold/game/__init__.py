"""Blind Bids, a candlebox game: bid a card of your hand in secret for each prize (rules: state.py).

This package is a candlebox plug-in: its distribution declares ``INFO`` in the ``candlebox.games``
entry points (pyproject.toml), and candlebox finds it once installed. Every capability below is
named ``"module:ATTRIBUTE"`` and imported only when something asks for it (rich for the renderer,
numpy for the encoder).
"""

from __future__ import annotations

from typing import Any

from candlebox.engine import Capabilities, GameInfo, Option, Variant
from candlebox.engine.plugin import PackageData

from .state import GAME_ID, MAX_PLAYERS, TITLE, BidsState, deck_size

MAX_HAND = 8

VARIANTS = (
    Variant(
        "standard",
        2,
        MAX_PLAYERS,
        (
            Option(
                "hand",
                "int",
                5,
                "cards in each hand, and so prizes and rounds",
                minimum=3,
                maximum=MAX_HAND,
                nullable=False,
            ),
        ),
        "the highest secret bid takes each prize",
    ),
)


def create(variant: str, players: int, seed: int, options: dict[str, Any]) -> BidsState:
    return BidsState(variant, players, seed, options)


def _capability(module: str, attribute: str) -> str:
    # Named from this package's own name, so the package may be renamed or vendored.
    return f"{__name__}.{module}:{attribute}"


HOW_TO = PackageData(__name__, "content")

INFO = GameInfo(
    id=GAME_ID,
    title=TITLE,
    variants=VARIANTS,
    default_variant=lambda players: "standard",
    max_turns=MAX_HAND * MAX_PLAYERS,  # one bid per seat and round: every game ends well before
    create=create,
    facts={"largest_deck": deck_size(MAX_PLAYERS, MAX_HAND), "max_hand": MAX_HAND},
    capabilities=Capabilities(
        view=_capability("views", "BidsView"),
        text=_capability("text", "TEXT"),
        words=_capability("words", "components"),
        heuristic=_capability("heuristic", "policy"),
        renderer=_capability("render", "RENDERER"),
        encoding=_capability("encoder", "ENCODING"),
        how_to=f"{__name__}:HOW_TO",
    ),
    page=None,  # the browser's generic board
    playout_target=(20_000, None),  # a small pure-Python game: no peer to compare with
)
