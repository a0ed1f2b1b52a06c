"""Components: the content pack (one JSON file per component kind) read into the runtime tables.

Every file in ``content/`` is decoded through its msgspec schema (schema.py) and then checked against
every number and name the rulebook gives (checks.py). The shipped files are a reconstruction (marked
``"reconstructed": true``; docs/rulings.md, CA-1 to CA-8); an owner of the physical game can
load the real data with the ``content=`` option (a folder holding the same seven files).

The decoded files become a :class:`Content`: flat tables indexed by small integers (card ids, tile types,
house numbers) that the rules read on their hot paths. The names the rules use (icons, effects, temple
colours and their numbers) are schema.py's, imported here for the rule modules.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import msgspec

from candlebox.games.candelabria.checks import (
    ContentError,
    check_board,
    check_candles,
    check_components,
    check_curses,
    check_houses,
    check_tactics,
    check_upgrades,
)
from candlebox.games.candelabria.schema import (
    CONTENT,
    EFFECTS,
    FILES,
    ICONS,
    SCHEMAS,
    TEMPLES,
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
    _Struct,
    tactic_code,
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


def _house(h: HouseData) -> House:
    """A house as the rules read it: its start's icons and temple, and its powers, as indices."""
    return House(
        h.code,
        h.name,
        h.colour,
        h.turn_order,
        h.start.region,
        ICONS.index(h.start.castle),
        tuple(ICONS.index(i) for i in h.start.no_flame),
        TEMPLES.index(h.start.temple) if h.start.temple else -1,
        tuple(
            (p.year, p.effect, p.amount, ICONS.index(p.icon) if p.icon else -1) for p in h.powers
        ),
    )


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
        self.houses = tuple(_house(h) for h in hf.houses)
        self.house_index = {h.code: i for i, h in enumerate(self.houses)}
        tf = files["tactics"]
        assert isinstance(tf, TacticsFile)
        self._read_tactics(tf)
        cf = files["candles"]
        assert isinstance(cf, CandlesFile)
        self._read_candles(cf)
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

    def _read_tactics(self, tf: TacticsFile) -> None:
        """The tactic card types (the common ones, then the houses'), and the War Boards."""
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

    def _read_candles(self, cf: CandlesFile) -> None:
        """The candle cards (the houses', then the Advanced deck's), and each house's by year."""
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


def read_content(folder: Path | str = CONTENT, design: bool = False) -> Content:
    """Decode and check the seven files of a content folder (raises ContentError naming the problem).

    ``design``: a designer's pack, whose printed values (house powers' and Upgrade tiles' amounts)
    may differ from the rulebook's; every structural check still holds (checks.py)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ContentError(f"content folder {str(folder)!r} does not exist")
    files = {name: _decode(folder, name) for name in FILES}
    board = files["board"]
    houses = files["houses"]
    assert isinstance(board, BoardFile) and isinstance(houses, HousesFile)
    check_board(board)
    check_houses(houses, board, design)
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
    check_upgrades(upgrades, design)
    components = files["components"]
    assert isinstance(components, ComponentsFile)
    check_components(components)
    return Content(str(folder), files)


@lru_cache(maxsize=8)
def _cached(folder: str, design: bool) -> Content:
    return read_content(folder, design)


def load_content(folder: str | None = None, design: bool = False) -> Content:
    """The content of a folder (``None``: the shipped pack), read once and shared; ``design``: a
    design pack (see :func:`read_content`)."""
    path = CONTENT if folder is None else Path(folder).expanduser()
    return _cached(str(path.resolve()), design)


def content_of(options: dict[str, Any]) -> Content:
    """The content a game's options play: option ``content`` (a folder, None for the shipped pack)
    read in design mode when option ``design`` is on, which needs a pack to design."""
    design = bool(options.get("design"))
    if design and options.get("content") is None:
        raise ContentError(
            "option 'design' plays a content pack whose printed values were changed: give the "
            "pack's folder as option 'content' too"
        )
    return load_content(options.get("content"), design)
