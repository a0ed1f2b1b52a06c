"""The content files' schemas: the names the rulebook prints (as Literal types, and the tuples the rules
index, derived from them), its numbers, and one msgspec structure per file of ``content/`` (written out as
``*.schema.json``). Decoding a file through its structure checks its shape; checks.py checks it against
the rulebook; components.py turns the files into the runtime tables.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal, get_args

import msgspec

CONTENT = Path(__file__).parent / "content"
FILES = (
    "board",
    "houses",
    "curses",
    "tactics",
    "candles",
    "upgrades",
    "components",
)

# ----------------------------------------------------------------------------- names the rulebook prints
# Each name list is written once, as the Literal type the schemas use; the tuple the rules index (an
# icon's number is its place in ICONS) is derived from it, so the two cannot drift apart.
Icon = Literal["curse", "barracks", "forge", "mine", "portal", "inn"]  # territory action icons
ICONS: tuple[Icon, ...] = get_args(Icon)
CURSE, BARRACKS, FORGE, MINE, PORTAL, INN = range(6)
EffectIcon = Literal[
    "vp", "ignite", "extinguish", "steal", "tactic", "destroy-temple"
]  # card effects
EFFECTS: tuple[EffectIcon, ...] = get_args(EffectIcon)
VP, IGNITE, EXTINGUISH, STEAL, TACTIC, DESTROY = range(6)
TempleColour = Literal["white", "grey", "black"]
TEMPLES: tuple[TempleColour, ...] = get_args(TempleColour)
WHITE, GREY, BLACK = range(3)
CurseEffect = Literal[
    "power-4",  # this Curse has Combat Power 4 instead of 3
    "recast-candle",  # perform again the effect of a Candle in the region
    "relocate-candle",  # take a Candle in the region and place it anywhere
    "temple-or-upgrade",  # place a Temple in the region, or get an Upgrade tile for free
    "first-in-order",  # you become first in turn order
    "double-vp",  # double VP if you win against at least one opponent here
    "extinguish-all",  # extinguish all the Land Flames in the region
    "ignite-2",  # ignite 2 flames in the region
    "extinguish-2",  # extinguish up to 2 flames in the region
]
CURSE_EFFECTS: tuple[CurseEffect, ...] = get_args(CurseEffect)
# Effects of upgrade tiles and house powers (amount: how much; icon: which territory icon).
UpgradeEffect = Literal[
    "deploy-steal",
    "deploy-vp",
    "deploy-ignite",
    "deploy-extinguish",
    "castle-power",
    "curse-power",
    "explorer-skip",
    "warrior-push",
    "curse-tactic",
    "temple-vp",
    "temple-ignite",
    "extra-territory",
    "end-vp-territory",
    "end-vp-land-flame",
    "tactic-vp",
]
UPGRADE_EFFECTS: tuple[UpgradeEffect, ...] = get_args(UpgradeEffect)
PowerOnly = Literal[  # house powers no upgrade tile has
    "skip-own-flames", "deploy-anywhere", "maneuver-forge", "temple-shift", "draw-three"
]
POWER_ONLY: tuple[PowerOnly, ...] = get_args(PowerOnly)
PowerEffect = Literal[UpgradeEffect, PowerOnly]

CURSE, BARRACKS, FORGE, MINE, PORTAL, INN = range(6)
VP, IGNITE, EXTINGUISH, STEAL, TACTIC, DESTROY = range(6)
EFFECT_LETTER = "VIXSTD"  # in tactic-card codes: "1I1X" is 1 Ignite and 1 Extinguish
WHITE, GREY, BLACK = range(3)
YEARS = (1, 2, 3)

HOUSE_NAMES = (
    "Cinis Clan",
    "Rota Aurea Guild",
    "Satores Order",
    "Nova Vita Coven",
    "Luminis Knights",
)
# name -> (turn order, start region, castle icon, icons left without a Land Flame, temple)
START_TABLE: dict[str, tuple[int, int, str, tuple[str, ...], str | None]] = {
    "Cinis Clan": (2, 8, "forge", (), None),
    "Rota Aurea Guild": (3, 2, "curse", (), None),
    "Satores Order": (4, 3, "curse", (), None),
    "Nova Vita Coven": (5, 4, "inn", ("portal",), "white"),
    "Luminis Knights": (6, 9, "inn", ("portal",), "black"),
}
NEEDS_ICON = ("extra-territory", "end-vp-territory")
# The printed Castle Upgrades list: (effect, amount, icon) by year.
PRINTED_UPGRADES: dict[int, tuple[tuple[str, int, str | None], ...]] = {
    1: (
        ("deploy-steal", 1, None),
        ("castle-power", 1, None),
        ("explorer-skip", 1, None),
        ("warrior-push", 1, None),
        ("deploy-vp", 1, None),
        ("curse-tactic", 1, None),
        ("deploy-ignite", 1, None),
        ("deploy-extinguish", 1, None),
        ("curse-power", 1, None),
        ("temple-vp", 1, None),
    ),
    2: (
        ("extra-territory", 0, "mine"),
        ("extra-territory", 0, "curse"),
        ("extra-territory", 0, "barracks"),
        ("extra-territory", 0, "inn"),
        ("extra-territory", 0, "forge"),
        ("extra-territory", 0, "portal"),
        ("curse-power", 1, None),
        ("temple-ignite", 1, None),
        ("end-vp-territory", 2, "curse"),
        ("end-vp-territory", 2, "barracks"),
        ("end-vp-territory", 2, "inn"),
    ),
}
# The printed house powers: (year, effect, amount, icon).
PRINTED_POWERS: dict[str, tuple[tuple[int, str, int, str | None], ...]] = {
    "Cinis Clan": (
        (1, "skip-own-flames", 0, None),
        (2, "extra-territory", 0, "inn"),
        (3, "warrior-push", 1, None),
    ),
    "Satores Order": (
        (1, "deploy-anywhere", 0, None),
        (2, "deploy-ignite", 1, None),
        (3, "end-vp-territory", 2, "curse"),
    ),
    "Rota Aurea Guild": (
        (1, "maneuver-forge", 0, None),
        (2, "deploy-steal", 1, None),
        (3, "tactic-vp", 1, None),
    ),
    "Luminis Knights": (
        (1, "temple-shift", 0, None),
        (2, "extra-territory", 0, "barracks"),
        (3, "end-vp-land-flame", 1, None),
    ),
    "Nova Vita Coven": (
        (1, "draw-three", 0, None),
        (2, "extra-territory", 0, "curse"),
        (3, "curse-power", 1, None),
    ),
}
N_COMMON_TACTICS = 75
HOUSE_TACTICS = 3
HOUSE_CANDLES_BY_YEAR = {1: 3, 2: 1, 3: 1}
N_ADVANCED = 50
N_TILES = 36
N_TEMPLES = 18
RESERVE = 50  # of each resource
NEVER_CORRUPTED = 6  # the central region


def tactic_code(effects: dict[Any, int], no_cancel: bool, house: str | None) -> str:
    code = "".join(f"{n}{EFFECT_LETTER[EFFECTS.index(icon)]}" for icon, n in effects.items())
    return (f"{house}-" if house else "") + code + ("!" if no_cancel else "")


# ----------------------------------------------------------------------------- schemas, one per file
class _Struct(msgspec.Struct, forbid_unknown_fields=True):
    pass


class TerritoryData(_Struct):
    id: str
    icon: Icon


class RegionData(_Struct):
    number: int
    colour: str
    territories: list[TerritoryData]
    half: Literal["west", "east"] | None = None  # the 2-player house choice ("the opposite side")


class SideData(_Struct):
    key: Literal["large", "small"]
    players: list[int]
    turn_track: int
    regions: list[RegionData]
    borders: list[tuple[str, str]]
    bridges: list[tuple[str, str]]
    sketch: list[str] = []


class BoardFile(_Struct):
    """Schema of ``content/board.json``: both sides of the game board."""

    reconstructed: bool
    about: str
    sides: list[SideData]


class StartData(_Struct):
    region: int
    castle: Icon
    no_flame: list[Icon] = []
    temple: TempleColour | None = None


class PowerData(_Struct):
    year: int
    effect: PowerEffect
    amount: int = 0
    icon: Icon | None = None


class HouseData(_Struct):
    code: str
    name: str
    colour: str
    turn_order: int
    start: StartData
    powers: list[PowerData]


class HousesFile(_Struct):
    """Schema of ``content/houses.json``: the five houses, their start table and powers."""

    reconstructed: bool
    about: str
    houses: list[HouseData]


class CurseData(_Struct):
    region: int
    effect: CurseEffect


class CursesFile(_Struct):
    """Schema of ``content/curses.json``: the nine Curse cards."""

    reconstructed: bool
    about: str
    cards: list[CurseData]


class TacticData(_Struct):
    effects: dict[EffectIcon, int]
    copies: int = 1
    no_cancel: bool = False
    house: str | None = None


class WarBoardData(_Struct):
    house: str
    slots: list[dict[EffectIcon, int]]


class TacticsFile(_Struct):
    """Schema of ``content/tactics.json``: common and house Tactic cards, and the War Boards."""

    reconstructed: bool
    about: str
    common: list[TacticData]
    house: list[TacticData]
    war_boards: list[WarBoardData]


class CandleData(_Struct):
    code: str
    cost: int
    year: int
    effects: dict[EffectIcon, int]
    house: str | None = None


class CandlesFile(_Struct):
    """Schema of ``content/candles.json``: House and Advanced Candle cards."""

    reconstructed: bool
    about: str
    house: list[CandleData]
    advanced: list[CandleData]


class TileData(_Struct):
    code: str
    year: int
    effect: UpgradeEffect
    amount: int = 0
    icon: Icon | None = None
    copies: int = 1


class UpgradesFile(_Struct):
    """Schema of ``content/upgrades.json``: the 36 Upgrade tiles."""

    reconstructed: bool
    about: str
    tiles: list[TileData]


class TempleCounts(_Struct):
    white: int
    grey: int
    black: int


class ReserveData(_Struct):
    gold: int
    wax: int


class ComponentsFile(_Struct):
    """Schema of ``content/components.json``: Temple levels and the resource reserve."""

    reconstructed: bool
    about: str
    temples: TempleCounts
    reserve: ReserveData


SCHEMAS: dict[str, type[_Struct]] = {
    "board": BoardFile,
    "houses": HousesFile,
    "curses": CursesFile,
    "tactics": TacticsFile,
    "candles": CandlesFile,
    "upgrades": UpgradesFile,
    "components": ComponentsFile,
}


def schema(name: str) -> dict:
    return msgspec.json.schema(SCHEMAS[name])


def write_schemas(folder: Path = CONTENT) -> None:
    for name in FILES:
        (folder / f"{name}.schema.json").write_text(json.dumps(schema(name), indent=2) + "\n")
