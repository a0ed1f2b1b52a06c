"""The Candelabria encoder's names and bounds, read from the game's facts: the houses, candle
cards, tactic cards, Upgrade tiles, curses, missions and Decay cards in their encoding order, and the
scales the observation divides by.
"""

from __future__ import annotations

from typing import Any

from candlebox.engine import game_info

GAME_ID = "candelabria"

_FACTS = game_info(GAME_ID).facts
HOUSES: tuple[str, ...] = tuple(_FACTS["houses"])
CARDS: tuple[str, ...] = tuple(_FACTS["candles"])
CARD_INDEX = {code: i for i, code in enumerate(CARDS)}
ADVANCED: tuple[str, ...] = tuple(c for c, info in _FACTS["candles"].items() if info["house"] < 0)
HOUSE_CARDS = max(
    sum(1 for info in _FACTS["candles"].values() if info["house"] == h) for h in range(len(HOUSES))
)
TACTICS: tuple[str, ...] = tuple(_FACTS["tactics"])
TACTIC_INDEX = {code: i for i, code in enumerate(TACTICS)}
TACTIC_CARDS: dict[str, dict[str, Any]] = _FACTS["tactic_cards"]
COMMON: tuple[str, ...] = tuple(c for c in TACTICS if TACTIC_CARDS[c]["house"] is None)
TILES: tuple[str, ...] = tuple(_FACTS["upgrades"])
TILE_INDEX = {code: i for i, code in enumerate(TILES)}
PILES = int(_FACTS["upgrade_piles"])
CURSE_CARDS: tuple[str, ...] = tuple(_FACTS["curses"])
CURSE_INDEX = {code: i for i, code in enumerate(CURSE_CARDS)}
WAREHOUSE = int(_FACTS["warehouse"])
MISSIONS: tuple[str, ...] = tuple(_FACTS["missions"])
MISSION_INDEX = {code: i for i, code in enumerate(MISSIONS)}
DECAY: tuple[str, ...] = tuple(_FACTS["decay_cards"])
DECAY_INDEX = {code: i for i, code in enumerate(DECAY)}

ROLES = "EPW"
MODELS = "EPWC"
ROLE_NAMES = ("explorer", "pilgrim", "warrior")
TEMPLE_LETTERS = "WGB"
TEMPLE_NAMES = ("white", "grey", "black")
CURSE_PLACES = 3  # the Curse Board
SLOTS = 2  # War Board slots
YEARS = 3
# The pending decisions a view can show (pending()["decision"]).
DECISIONS = (
    "turn",
    "deploy-at",
    "move",
    "destroy",
    "push",
    "push-to",
    "flame",
    "influence",
    "take",
    "forge",
    "mine",
    "portal",
    "portal-to",
    "keep",
    "return",
    "ignite",
    "extinguish",
    "extinguish-at",
    "steal",
    "raze",
    "shift",
    "curse-at",
    "recast",
    "lift",
    "lift-to",
    "gift",
    "secret",
    "cancel",
    "haunt",
    "pick",
    "decay-at",
    "either",
    "nudge",
)
DECISION_INDEX = {name: i for i, name in enumerate(DECISIONS)}
SEASONS = ("kindling", "war", "over")

VP_SCALE = 200.0  # random games end below 130 VP
LAND_FLAMES = 25.0  # a house's Land Flames
CANDLE_FLAMES = 12.0  # a house's candle flames
ROLE_FLAMES = 4.0  # the most flames on one candle (a Warrior)
RESERVE = 50.0  # gold and wax in the reserve, each
TEMPLES_EACH = 6.0  # Temple levels of each colour
COUNT_SCALE = 10.0  # a pending decision's count
HAND_SCALE = 20.0
TACTIC_COPIES = float(max(info["copies"] for info in TACTIC_CARDS.values()))
TACTICS_DECK = float(sum(TACTIC_CARDS[c]["copies"] for c in COMMON))
CURSE_DECK = 30.0  # curse cards and the house candles shuffled in with them
# max_game_length: see there.
TURN_DECISIONS = 250
BATTLE_DECISIONS = 60
WAR_EXTRA = 150
PICKS = 2
