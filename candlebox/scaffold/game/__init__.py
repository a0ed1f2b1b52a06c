"""Blind Bids, a candlebox game: bid a card of your hand in secret for each prize (rules: state.py).

This package is a candlebox plug-in: its distribution declares ``INFO`` in the ``candlebox.games``
entry points (pyproject.toml), and candlebox finds it once installed. ``INFO`` is a
``GameInfo[BidsState, BidsView]``: a type checker (mypy) holds its ``create``, its view function
and its view class to those types. The light capabilities are given as themselves; the others by a
typed ``Lazy`` reference, imported only when something asks for them (rich for the renderer, numpy
for the encoder) and checked then against the capability's type.
"""

from __future__ import annotations

from typing import Any

from candlebox.engine import Capabilities, GameInfo, Lazy, Option, Variant
from candlebox.engine.plugin import PackageData

from .state import GAME_ID, MAX_PLAYERS, TITLE, BidsState, deck_size, typed_view
from .views import BidsView

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


HOW_TO = PackageData(__name__, "content")

INFO: GameInfo[BidsState, BidsView] = GameInfo(
    id=GAME_ID,
    title=TITLE,
    variants=VARIANTS,
    default_variant=lambda players: "standard",
    max_turns=MAX_HAND * MAX_PLAYERS,  # one bid per seat and round: every game ends well before
    create=create,
    typed_view=typed_view,
    facts={"largest_deck": deck_size(MAX_PLAYERS, MAX_HAND), "max_hand": MAX_HAND},
    # Lazy references are named from this package's own name, so it may be renamed or vendored.
    capabilities=Capabilities(
        view=BidsView,
        text=Lazy(f"{__name__}.text", "TEXT"),
        words=Lazy(f"{__name__}.words", "components"),
        heuristic=Lazy(f"{__name__}.heuristic", "policy"),
        renderer=Lazy(f"{__name__}.render", "RENDERER"),
        encoding=Lazy(f"{__name__}.encoder", "ENCODING"),
        how_to=HOW_TO,
    ),
    page=None,  # the browser's generic board
    playout_target=(20_000, None),  # a small pure-Python game: no peer to compare with
)
