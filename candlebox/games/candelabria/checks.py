"""The content pack checked against every number and name the rulebook gives, so that a file that breaks
the printed game is refused with a message naming the file and the field (the files already decoded
through their schemas, schema.py)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any, Literal

from candlebox.games.candelabria.schema import (
    CURSE_EFFECTS,
    HOUSE_CANDLES_BY_YEAR,
    HOUSE_NAMES,
    HOUSE_TACTICS,
    N_ADVANCED,
    N_COMMON_TACTICS,
    N_TEMPLES,
    N_TILES,
    NEEDS_ICON,
    NEVER_CORRUPTED,
    PRINTED_POWERS,
    PRINTED_UPGRADES,
    RESERVE,
    START_TABLE,
    YEARS,
    BoardFile,
    CandlesFile,
    ComponentsFile,
    CursesFile,
    HouseData,
    HousesFile,
    SideData,
    TacticsFile,
    UpgradesFile,
    tactic_code,
)


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


def _check_territories(c: _Checker, at: str, side: SideData) -> dict[str, int]:
    """Each region's three territories, named by its number and a letter; returns territory ->
    region."""
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
    return names


def _check_edges(
    c: _Checker, at: str, side: SideData, names: dict[str, int], numbers: list[int]
) -> tuple[dict[str, set[str]], dict[int, set[int]]]:
    """The borders and bridges; returns each territory's neighbours and each region's bordering
    regions (bridges join regions that do not border)."""
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
    return edges, region_touch


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
    names = _check_territories(c, at, side)
    edges, region_touch = _check_edges(c, at, side, names, numbers)
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
# A printed value a design pack (option ``design``) may change keeps this range, so the rules work.
DESIGN_AMOUNTS = range(1, 10)


def check_powers(c: _Checker, at: str, name: str, powers: list[Any], design: bool) -> None:
    """A house's powers as printed; in design mode only their amounts may differ (an amount-less
    power stays amount-less, and an amount stays 1–9), the year, effect and icon as printed."""
    printed = PRINTED_POWERS[name]
    got = tuple((p.year, p.effect, p.amount, p.icon) for p in powers)
    if not design:
        c.require(got == printed, f"{at}.powers", f"{name}'s powers are printed as {list(printed)}")
        return
    c.require(
        len(got) == len(printed),
        f"{at}.powers",
        f"{name} has {len(printed)} powers (one a year), found {len(got)}",
    )
    for j, ((year, effect, amount, icon), (p_year, p_effect, p_amount, p_icon)) in enumerate(
        zip(got, printed, strict=True)
    ):
        where = f"{at}.powers[{j}]"
        c.require(
            (year, effect, icon) == (p_year, p_effect, p_icon),
            where,
            f"a design pack changes amounts only: {name}'s Year {'I' * p_year} power is "
            f"{p_effect}" + (f" ({p_icon})" if p_icon else ""),
        )
        if p_amount == 0:
            c.require(amount == 0, f"{where}.amount", f"{effect} takes no amount, found {amount}")
        else:
            c.require(
                amount in DESIGN_AMOUNTS,
                f"{where}.amount",
                f"an amount of {DESIGN_AMOUNTS.start}–{DESIGN_AMOUNTS.stop - 1}, found {amount}",
            )


def _check_house_start(
    c: _Checker,
    at: str,
    house: HouseData,
    sides: dict[Literal["large", "small"], SideData],
    design: bool,
) -> None:
    """One house against the rulebook's start table, its powers, and the regions it starts in."""
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
    check_powers(c, at, house.name, house.powers, design)
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


def check_houses(data: HousesFile, board: BoardFile, design: bool = False) -> None:
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
        _check_house_start(c, f"houses[{i}]", house, sides, design)
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


def check_upgrades(data: UpgradesFile, design: bool = False) -> None:
    """The 36 tiles with every printed one; in design mode a tile's amount may differ from the
    printed one (1–9), so a printed tile is found by its effect and icon."""
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
        if design:
            c.require(
                tile.amount <= DESIGN_AMOUNTS.stop - 1,
                f"{at}.amount",
                f"an amount of at most {DESIGN_AMOUNTS.stop - 1}, found {tile.amount}",
            )
        total += tile.copies
        amount = 0 if design else tile.amount
        have[tile.year][(tile.effect, amount, tile.icon)] += tile.copies
    c.require(total == N_TILES, "tiles", f"{N_TILES} Upgrade tiles, found {total}")
    for year, printed in PRINTED_UPGRADES.items():
        for effect in printed:
            wanted = (effect[0], 0, effect[2]) if design else effect
            c.require(
                have[year][wanted] >= 1,
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
