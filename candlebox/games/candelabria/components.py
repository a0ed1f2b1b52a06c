"""Components: the content pack (one JSON file per component kind), its schemas, and the rulebook's numbers.

Every file in ``content/`` is decoded through a msgspec schema (written out as ``*.schema.json``) and then
checked against every number and name the rulebook gives, so that a file that breaks the printed game is
refused with a message naming the file and the field. The shipped files are a reconstruction (marked
``"reconstructed": true``; docs/rulings.md, CA-1 to CA-8); an owner of the physical game can
load the real data with the ``content=`` option (a folder holding the same seven files).

The decoded files become a :class:`Content`: flat tables indexed by small integers (card ids, tile types,
house numbers) that the rules read on their hot paths.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

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
ICONS = ("curse", "barracks", "forge", "mine", "portal", "inn")  # the six territory action icons
CURSE, BARRACKS, FORGE, MINE, PORTAL, INN = range(6)
EFFECTS = ("vp", "ignite", "extinguish", "steal", "tactic", "destroy-temple")  # card effect icons
VP, IGNITE, EXTINGUISH, STEAL, TACTIC, DESTROY = range(6)
EFFECT_LETTER = "VIXSTD"  # in tactic-card codes: "1I1X" is 1 Ignite and 1 Extinguish
TEMPLES = ("white", "grey", "black")
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
CURSE_EFFECTS = (
    "power-4",  # this Curse has Combat Power 4 instead of 3
    "recast-candle",  # perform again the effect of a Candle in the region
    "relocate-candle",  # take a Candle in the region and place it anywhere
    "temple-or-upgrade",  # place a Temple in the region, or get an Upgrade tile for free
    "first-in-order",  # you become first in turn order
    "double-vp",  # double VP if you win against at least one opponent here
    "extinguish-all",  # extinguish all the Land Flames in the region
    "ignite-2",  # ignite 2 flames in the region
    "extinguish-2",  # extinguish up to 2 flames in the region
)
# Effects of upgrade tiles and house powers (amount: how much; icon: which territory icon).
UPGRADE_EFFECTS = (
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
)
POWER_ONLY = ("skip-own-flames", "deploy-anywhere", "maneuver-forge", "temple-shift", "draw-three")
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

Icon = Literal["curse", "barracks", "forge", "mine", "portal", "inn"]
EffectIcon = Literal["vp", "ignite", "extinguish", "steal", "tactic", "destroy-temple"]
TempleColour = Literal["white", "grey", "black"]
CurseEffect = Literal[
    "power-4",
    "recast-candle",
    "relocate-candle",
    "temple-or-upgrade",
    "first-in-order",
    "double-vp",
    "extinguish-all",
    "ignite-2",
    "extinguish-2",
]
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
PowerEffect = Literal[
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
    "skip-own-flames",
    "deploy-anywhere",
    "maneuver-forge",
    "temple-shift",
    "draw-three",
]


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


class ContentError(ValueError):
    """A content file that does not decode or breaks a number or name the rulebook gives."""


class _Checker:
    """Collects the file name so every message says where the problem is."""

    def __init__(self, file: str) -> None:
        self.file = file

    def require(self, condition: bool, field: str, problem: str) -> None:
        if not condition:
            raise ContentError(f"{self.file}: {field}: {problem}")


# ----------------------------------------------------------------------------- the board
def sketch_borders(sketch: Iterable[str]) -> set[tuple[str, str]]:
    """Territory pairs whose cells share an edge in a sketch (one token per cell, ``~~`` is water)."""
    grid = [row.split() for row in sketch]
    found: set[tuple[str, str]] = set()
    for y, row in enumerate(grid):
        for x, cell in enumerate(row):
            for nx, ny in ((x + 1, y), (x, y + 1)):
                if ny < len(grid) and nx < len(grid[ny]):
                    other = grid[ny][nx]
                    if "~~" not in (cell, other) and cell != other:
                        found.add((min(cell, other), max(cell, other)))
    return found


def _connected(nodes: list[str], edges: dict[str, set[str]]) -> bool:
    if not nodes:
        return True
    allowed = set(nodes)
    seen = {nodes[0]}
    todo = [nodes[0]]
    while todo:
        for nxt in edges.get(todo.pop(), ()):
            if nxt in allowed and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen == allowed


def check_side(c: _Checker, at: str, side: SideData) -> None:
    want_regions, want_track, want_players = (
        (10, 5, [4, 5]) if side.key == "large" else (8, 3, [2, 3])
    )
    c.require(
        len(side.regions) == want_regions,
        f"{at}.regions",
        f"the {side.key} side has {want_regions} regions, found {len(side.regions)}",
    )
    c.require(
        side.turn_track == want_track,
        f"{at}.turn_track",
        f"the {side.key} side's turn order track has {want_track} spaces, found {side.turn_track}",
    )
    c.require(
        sorted(side.players) == want_players,
        f"{at}.players",
        f"the {side.key} side is for {want_players} players, found {side.players}",
    )
    numbers = [r.number for r in side.regions]
    c.require(
        sorted(numbers) == list(range(1, want_regions + 1)),
        f"{at}.regions",
        f"regions are numbered 1–{want_regions}, found {numbers}",
    )
    names: dict[str, int] = {}
    for i, region in enumerate(side.regions):
        where = f"{at}.regions[{i}]"
        c.require(
            len(region.territories) == 3,
            f"{where}.territories",
            f"region {region.number} has {len(region.territories)} territories, every region has 3",
        )
        for j, terr in enumerate(region.territories):
            c.require(
                terr.id.startswith(str(region.number))
                and len(terr.id) == len(str(region.number)) + 1
                and terr.id[-1].islower(),
                f"{where}.territories[{j}].id",
                f"territory {terr.id!r} must be its region number and a letter, e.g. "
                f"'{region.number}a'",
            )
            c.require(terr.id not in names, f"{where}.territories[{j}].id", f"{terr.id!r} twice")
            names[terr.id] = region.number
        if side.key == "small" and region.number != NEVER_CORRUPTED:
            c.require(
                any(t.icon == "mine" for t in region.territories),
                f"{where}.territories",
                f"region {region.number} has no Mine territory: the 2-player mode places its "
                "curse on the Mine of its region",
            )
            c.require(
                region.half is not None,
                f"{where}.half",
                f"region {region.number} needs a half (west or east) for the 2-player house choice",
            )
    edges: dict[str, set[str]] = {n: set() for n in names}
    region_touch: dict[int, set[int]] = {r: set() for r in numbers}
    for kind in ("borders", "bridges"):
        seen: set[tuple[str, str]] = set()
        for k, (a, b) in enumerate(getattr(side, kind)):
            where = f"{at}.{kind}[{k}]"
            for t in (a, b):
                c.require(t in names, where, f"{t!r} is not a territory of this side")
            c.require(a != b, where, f"{a!r} cannot border itself")
            pair = (min(a, b), max(a, b))
            c.require(pair not in seen, where, f"{a}–{b} is listed twice")
            seen.add(pair)
            if kind == "borders":
                if names[a] != names[b]:
                    region_touch[names[a]].add(names[b])
                    region_touch[names[b]].add(names[a])
            else:
                c.require(
                    names[a] != names[b],
                    where,
                    f"a bridge joins two regions; {a} and {b} are both in region {names[a]}",
                )
                c.require(
                    names[b] not in region_touch[names[a]],
                    where,
                    f"regions {names[a]} and {names[b]} already share a border; "
                    "bridges join regions that do not touch",
                )
                c.require(
                    pair not in {(min(x, y), max(x, y)) for x, y in side.borders},
                    where,
                    f"{a} and {b} already share a border",
                )
            edges[a].add(b)
            edges[b].add(a)
    for region in side.regions:
        ids = [t.id for t in region.territories]
        inner = {t: {u for u in edges[t] if names[u] == region.number} for t in ids}
        c.require(
            _connected(ids, inner),
            f"{at}.borders",
            f"the territories of region {region.number} must be joined by borders",
        )
    c.require(
        _connected(list(names), edges),
        f"{at}.borders",
        "every territory must be reachable from every other",
    )
    most = max(len(v) for v in region_touch.values())
    c.require(
        len(region_touch[NEVER_CORRUPTED]) == most,
        f"{at}.borders",
        f"region 6 is the central region: it must border as many regions as any other "
        f"({len(region_touch[NEVER_CORRUPTED])} < {most})",
    )
    if side.sketch:
        drawn = sketch_borders(side.sketch)
        listed = {(min(a, b), max(a, b)) for a, b in side.borders}
        c.require(
            drawn == listed,
            f"{at}.sketch",
            f"the sketch and the borders disagree (only drawn: {sorted(drawn - listed)}, "
            f"only listed: {sorted(listed - drawn)})",
        )


def check_board(data: BoardFile) -> None:
    c = _Checker("board.json")
    keys = sorted(s.key for s in data.sides)
    c.require(keys == ["large", "small"], "sides", f"one large and one small side, found {keys}")
    for i, side in enumerate(data.sides):
        check_side(c, f"sides[{i}]", side)


# ----------------------------------------------------------------------------- the other files
def check_houses(data: HousesFile, board: BoardFile) -> None:
    c = _Checker("houses.json")
    names = [h.name for h in data.houses]
    c.require(
        sorted(names) == sorted(HOUSE_NAMES),
        "houses",
        f"the five houses are {', '.join(HOUSE_NAMES)}; found {names}",
    )
    codes = [h.code for h in data.houses]
    c.require(
        all(len(x) == 1 and x.isupper() for x in codes) and len(set(codes)) == len(codes),
        "houses",
        f"house codes are distinct capital letters, found {codes}",
    )
    sides = {s.key: s for s in board.sides}
    for i, house in enumerate(data.houses):
        at = f"houses[{i}]"
        order, region, castle, no_flame, temple = START_TABLE[house.name]
        c.require(
            house.turn_order == order,
            f"{at}.turn_order",
            f"{house.name} is number {order} on the turn order track",
        )
        c.require(
            house.start.region == region,
            f"{at}.start.region",
            f"{house.name} starts in region {region}",
        )
        c.require(
            house.start.castle == castle,
            f"{at}.start.castle",
            f"{house.name}'s castle starts on the {castle} territory",
        )
        c.require(
            tuple(house.start.no_flame) == no_flame,
            f"{at}.start.no_flame",
            f"{house.name} leaves {list(no_flame) or 'no territory'} without a Land Flame",
        )
        c.require(
            house.start.temple == temple,
            f"{at}.start.temple",
            f"{house.name} starts with {temple or 'no'} temple",
        )
        got = tuple((p.year, p.effect, p.amount, p.icon) for p in house.powers)
        c.require(
            got == PRINTED_POWERS[house.name],
            f"{at}.powers",
            f"{house.name}'s powers are printed as {list(PRINTED_POWERS[house.name])}",
        )
        for key, side in sides.items():
            match = [r for r in side.regions if r.number == house.start.region]
            if not match:
                continue  # the house is not seated on this side (rulings CA-9)
            icons = [t.icon for t in match[0].territories]
            for icon in (castle, *no_flame):
                c.require(
                    icon in icons,
                    f"{at}.start",
                    f"the {key} side's region {region} has no {icon} territory for {house.name}",
                )
    large = sides["large"]
    c.require(
        all(any(r.number == h.start.region for r in large.regions) for h in data.houses),
        "houses",
        "every house's start region must be on the large side (5 players)",
    )
    small = sides["small"]
    seated = [h for h in data.houses if any(r.number == h.start.region for r in small.regions)]
    c.require(
        len(seated) >= 3,
        "houses",
        f"the small side must seat at least 3 houses, seats {len(seated)}",
    )
    halves = Counter(
        next(r.half for r in small.regions if r.number == h.start.region) for h in seated
    )
    c.require(
        len(seated) != 4 or halves == Counter(west=2, east=2),
        "houses",
        f"the 2-player choice needs two start regions on each half of the small side, found {dict(halves)}",
    )


def check_curses(data: CursesFile, board: BoardFile) -> None:
    c = _Checker("curses.json")
    regions = sorted(card.region for card in data.cards)
    c.require(
        regions == [1, 2, 3, 4, 5, 7, 8, 9, 10],
        "cards",
        f"one Curse card for each region but 6, found regions {regions}",
    )
    effects = sorted(card.effect for card in data.cards)
    c.require(
        effects == sorted(CURSE_EFFECTS),
        "cards",
        f"the nine printed curse effects, once each; found {effects}",
    )


def tactic_code(effects: dict[Any, int], no_cancel: bool, house: str | None) -> str:
    code = "".join(f"{n}{EFFECT_LETTER[EFFECTS.index(icon)]}" for icon, n in effects.items())
    return (f"{house}-" if house else "") + code + ("!" if no_cancel else "")


def _check_effects(c: _Checker, at: str, effects: dict[Any, int], most: int) -> None:
    c.require(
        1 <= len(effects) <= most,
        f"{at}.effects",
        f"between 1 and {most} different effects, found {len(effects)}",
    )
    for icon, n in effects.items():
        c.require(1 <= n <= 9, f"{at}.effects.{icon}", f"a count of 1–9, found {n}")


def check_tactics(data: TacticsFile, houses: HousesFile) -> None:
    c = _Checker("tactics.json")
    codes = {h.code for h in houses.houses}
    total = 0
    seen: set[str] = set()
    for i, card in enumerate(data.common):
        at = f"common[{i}]"
        c.require(card.house is None, f"{at}.house", "common Tactic cards have no house logo")
        c.require(card.copies >= 1, f"{at}.copies", f"at least 1, found {card.copies}")
        _check_effects(c, at, card.effects, 6)
        code = tactic_code(card.effects, card.no_cancel, None)
        c.require(code not in seen, at, f"{code} is listed twice (use copies)")
        seen.add(code)
        total += card.copies
    c.require(
        total == N_COMMON_TACTICS,
        "common",
        f"{N_COMMON_TACTICS} common Tactic cards, found {total}",
    )
    per_house: Counter = Counter()
    for i, card in enumerate(data.house):
        at = f"house[{i}]"
        c.require(
            card.house in codes,
            f"{at}.house",
            f"{card.house!r} is not a house code {sorted(codes)}",
        )
        c.require(card.copies == 1, f"{at}.copies", "house Tactic cards are single cards")
        _check_effects(c, at, card.effects, 6)
        code = tactic_code(card.effects, card.no_cancel, card.house)
        c.require(code not in seen, at, f"{code} is listed twice")
        seen.add(code)
        per_house[card.house] += 1
    for code in sorted(codes):
        c.require(
            per_house[code] == HOUSE_TACTICS,
            "house",
            f"house {code} has {HOUSE_TACTICS} house Tactic cards, found {per_house[code]}",
        )
    boards = [b.house for b in data.war_boards]
    c.require(
        sorted(boards) == sorted(codes),
        "war_boards",
        f"one War Board per house, found {boards}",
    )
    pairs = []
    for i, board in enumerate(data.war_boards):
        at = f"war_boards[{i}]"
        c.require(len(board.slots) == 2, f"{at}.slots", "a War Board shows two reduced effects")
        for j, slot in enumerate(board.slots):
            _check_effects(c, f"{at}.slots[{j}]", slot, 6)
        pairs.append(frozenset(tactic_code(s, False, None) for s in board.slots))
    c.require(
        len(set(pairs)) == len(pairs),
        "war_boards",
        "each house has a different combination of War Board effects",
    )


def check_candles(data: CandlesFile, houses: HousesFile) -> None:
    c = _Checker("candles.json")
    codes = {h.code for h in houses.houses}
    seen: set[str] = set()
    years: dict[str, Counter] = {code: Counter() for code in codes}
    for kind in ("house", "advanced"):
        for i, card in enumerate(getattr(data, kind)):
            at = f"{kind}[{i}]"
            c.require(
                card.code not in seen and card.code.isalnum(),
                f"{at}.code",
                f"{card.code!r} must be a distinct code of letters and digits",
            )
            seen.add(card.code)
            c.require(0 <= card.cost <= 9, f"{at}.cost", f"a wax cost of 0–9, found {card.cost}")
            c.require(card.year in YEARS, f"{at}.year", f"year 1, 2 or 3, found {card.year}")
            _check_effects(c, at, card.effects, 2)
            if kind == "house":
                c.require(
                    card.house in codes,
                    f"{at}.house",
                    f"{card.house!r} is not a house code {sorted(codes)}",
                )
                years[card.house or ""][card.year] += 1
            else:
                c.require(card.house is None, f"{at}.house", "Advanced cards have no house logo")
    for code in sorted(codes):
        c.require(
            years[code] == Counter(HOUSE_CANDLES_BY_YEAR),
            "house",
            f"house {code} has 5 House Candle cards (three Year I, one Year II, one Year III), "
            f"found {dict(sorted(years[code].items()))}",
        )
    c.require(
        len(data.advanced) == N_ADVANCED,
        "advanced",
        f"{N_ADVANCED} Advanced Candle cards, found {len(data.advanced)}",
    )


def check_upgrades(data: UpgradesFile) -> None:
    c = _Checker("upgrades.json")
    total = 0
    seen: set[str] = set()
    have: dict[int, Counter] = {y: Counter() for y in YEARS}
    for i, tile in enumerate(data.tiles):
        at = f"tiles[{i}]"
        c.require(tile.code not in seen, f"{at}.code", f"{tile.code!r} twice (use copies instead)")
        seen.add(tile.code)
        c.require(tile.year in YEARS, f"{at}.year", f"year 1, 2 or 3, found {tile.year}")
        c.require(tile.copies >= 1, f"{at}.copies", f"at least 1, found {tile.copies}")
        c.require(
            (tile.icon is not None) == (tile.effect in NEEDS_ICON),
            f"{at}.icon",
            f"{tile.effect} {'needs' if tile.effect in NEEDS_ICON else 'takes no'} icon",
        )
        c.require(
            (tile.amount >= 1) == (tile.effect != "extra-territory"),
            f"{at}.amount",
            f"{tile.effect} {'takes no amount' if tile.effect == 'extra-territory' else 'needs an amount of at least 1'}",
        )
        total += tile.copies
        have[tile.year][(tile.effect, tile.amount, tile.icon)] += tile.copies
    c.require(total == N_TILES, "tiles", f"{N_TILES} Upgrade tiles, found {total}")
    for year, printed in PRINTED_UPGRADES.items():
        for effect in printed:
            c.require(
                have[year][effect] >= 1,
                "tiles",
                f"the printed Year {'I' * year} tile {effect[0]} "
                f"{effect[2] or effect[1]} is missing",
            )
    c.require(have[3].total() >= 1, "tiles", "at least one Year III tile (a Tier-3 upgrade)")


def check_components(data: ComponentsFile) -> None:
    c = _Checker("components.json")
    t = data.temples
    c.require(
        t.white + t.grey + t.black == N_TEMPLES and min(t.white, t.grey, t.black) >= 1,
        "temples",
        f"{N_TEMPLES} Temple levels of three colours, found {t.white}+{t.grey}+{t.black}",
    )
    c.require(
        data.reserve.gold == RESERVE, "reserve.gold", f"{RESERVE} Gold, found {data.reserve.gold}"
    )
    c.require(
        data.reserve.wax == RESERVE, "reserve.wax", f"{RESERVE} Wax, found {data.reserve.wax}"
    )


# ----------------------------------------------------------------------------- the tables
@dataclass(frozen=True)
class House:
    code: str
    name: str
    colour: str
    turn_order: int
    region: int
    castle: int  # icon
    no_flame: tuple[int, ...]  # icons
    temple: int  # colour, -1 for none
    powers: tuple[tuple[int, str, int, int], ...]  # (year, effect, amount, icon or -1)


@dataclass(frozen=True)
class Tactic:
    code: str
    effects: tuple[tuple[int, int], ...]  # (effect icon, count) in printed order
    no_cancel: bool
    house: int  # -1 for common cards


@dataclass(frozen=True)
class Candle:
    code: str
    cost: int
    year: int
    effects: tuple[tuple[int, int], ...]
    house: int  # -1 for Advanced cards


@dataclass(frozen=True)
class Tile:
    code: str
    year: int
    effect: str
    amount: int
    icon: int  # -1 when the effect has none


@dataclass(frozen=True)
class Curse:
    code: str  # the region number, as text
    region: int
    effect: str


def _effects(effects: dict[Any, int]) -> tuple[tuple[int, int], ...]:
    return tuple((EFFECTS.index(icon), n) for icon, n in effects.items())


class Content:
    """The decoded pack and its lookup tables (shared, never changed; a state keeps a reference)."""

    def __init__(self, folder: str, files: dict[str, _Struct]) -> None:
        self.folder = folder
        board = files["board"]
        assert isinstance(board, BoardFile)
        self.board = board
        self.sides: dict[str, SideData] = {side.key: side for side in board.sides}
        hf = files["houses"]
        assert isinstance(hf, HousesFile)
        self.houses = tuple(
            House(
                h.code,
                h.name,
                h.colour,
                h.turn_order,
                h.start.region,
                ICONS.index(h.start.castle),
                tuple(ICONS.index(i) for i in h.start.no_flame),
                TEMPLES.index(h.start.temple) if h.start.temple else -1,
                tuple(
                    (p.year, p.effect, p.amount, ICONS.index(p.icon) if p.icon else -1)
                    for p in h.powers
                ),
            )
            for h in hf.houses
        )
        self.house_index = {h.code: i for i, h in enumerate(self.houses)}
        tf = files["tactics"]
        assert isinstance(tf, TacticsFile)
        tactics: list[Tactic] = []
        self.common_tactics: list[int] = []  # every common card, as type ids (copies repeated)
        for card in tf.common:
            tactics.append(
                Tactic(
                    tactic_code(card.effects, card.no_cancel, None),
                    _effects(card.effects),
                    card.no_cancel,
                    -1,
                )
            )
            self.common_tactics += [len(tactics) - 1] * card.copies
        self.house_tactics: list[list[int]] = [[] for _ in self.houses]
        for card in tf.house:
            h = self.house_index[card.house or ""]
            tactics.append(
                Tactic(
                    tactic_code(card.effects, card.no_cancel, card.house),
                    _effects(card.effects),
                    card.no_cancel,
                    h,
                )
            )
            self.house_tactics[h].append(len(tactics) - 1)
        self.tactics = tuple(tactics)
        self.tactic_index = {t.code: i for i, t in enumerate(tactics)}
        self.war_boards: list[tuple[tuple[tuple[int, int], ...], ...]] = [() for _ in self.houses]
        for wb in tf.war_boards:
            self.war_boards[self.house_index[wb.house]] = tuple(_effects(s) for s in wb.slots)
        cf = files["candles"]
        assert isinstance(cf, CandlesFile)
        self.candles = tuple(
            Candle(
                card.code,
                card.cost,
                card.year,
                _effects(card.effects),
                self.house_index[card.house] if card.house else -1,
            )
            for card in (*cf.house, *cf.advanced)
        )
        self.candle_index = {card.code: i for i, card in enumerate(self.candles)}
        self.advanced = [i for i, candle in enumerate(self.candles) if candle.house < 0]
        # house_candles[house][year] -> card ids, in file order
        self.house_candles: list[dict[int, list[int]]] = [
            {y: [] for y in YEARS} for _ in self.houses
        ]
        for i, candle in enumerate(self.candles):
            if candle.house >= 0:
                self.house_candles[candle.house][candle.year].append(i)
        uf = files["upgrades"]
        assert isinstance(uf, UpgradesFile)
        self.tiles = tuple(
            Tile(t.code, t.year, t.effect, t.amount, ICONS.index(t.icon) if t.icon else -1)
            for t in uf.tiles
        )
        self.tile_index = {t.code: i for i, t in enumerate(self.tiles)}
        self.all_tiles = [i for i, t in enumerate(uf.tiles) for _ in range(t.copies)]
        kf = files["curses"]
        assert isinstance(kf, CursesFile)
        self.curses = tuple(Curse(str(k.region), k.region, k.effect) for k in kf.cards)
        self.curse_index = {k.code: i for i, k in enumerate(self.curses)}
        comp = files["components"]
        assert isinstance(comp, ComponentsFile)
        self.temples = (comp.temples.white, comp.temples.grey, comp.temples.black)
        self.reserve = (comp.reserve.gold, comp.reserve.wax)

    def seatable(self, side: str) -> list[int]:
        """The houses whose start region is on a side of the board (rulings CA-9)."""
        numbers = {r.number for r in self.sides[side].regions}
        return [i for i, h in enumerate(self.houses) if h.region in numbers]


def _decode(folder: Path, name: str) -> _Struct:
    path = folder / f"{name}.json"
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ContentError(f"{name}.json: cannot be read from {folder} ({exc.strerror})") from None
    try:
        data = msgspec.json.decode(raw, type=SCHEMAS[name])
    except msgspec.ValidationError as exc:
        raise ContentError(f"{name}.json: {exc}") from None
    except msgspec.DecodeError as exc:
        raise ContentError(f"{name}.json: not valid JSON ({exc})") from None
    return data


def read_content(folder: Path | str = CONTENT) -> Content:
    """Decode and check the seven files of a content folder (raises ContentError naming the problem)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ContentError(f"content folder {str(folder)!r} does not exist")
    files = {name: _decode(folder, name) for name in FILES}
    board = files["board"]
    houses = files["houses"]
    assert isinstance(board, BoardFile) and isinstance(houses, HousesFile)
    check_board(board)
    check_houses(houses, board)
    curses = files["curses"]
    assert isinstance(curses, CursesFile)
    check_curses(curses, board)
    tactics = files["tactics"]
    assert isinstance(tactics, TacticsFile)
    check_tactics(tactics, houses)
    candles = files["candles"]
    assert isinstance(candles, CandlesFile)
    check_candles(candles, houses)
    upgrades = files["upgrades"]
    assert isinstance(upgrades, UpgradesFile)
    check_upgrades(upgrades)
    components = files["components"]
    assert isinstance(components, ComponentsFile)
    check_components(components)
    return Content(str(folder), files)


@lru_cache(maxsize=8)
def _cached(folder: str) -> Content:
    return read_content(folder)


def load_content(folder: str | None = None) -> Content:
    """The content of a folder (``None``: the shipped pack), read once and shared."""
    path = CONTENT if folder is None else Path(folder).expanduser()
    return _cached(str(path.resolve()))
