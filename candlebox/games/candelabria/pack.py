"""The Curse of Candelabria as a content pack: ``candlebox content export candelabria DIR`` writes the
seven data files (with their schemas, the words and a README), and option ``content=DIR`` plays them
(``design=true`` for a pack whose printed values were changed; checks.py says what may change)."""

from __future__ import annotations

from candlebox.engine.packs import PackFile, export, readme
from candlebox.engine.plugin import ContentPacks
from candlebox.games.candelabria.checks import DESIGN_AMOUNTS
from candlebox.games.candelabria.components import read_content
from candlebox.games.candelabria.schema import CONTENT, SCHEMAS

_ABOUT = "what this file is and where its values come from (free text)"
_RECONSTRUCTED = "true while the values are our reconstruction rather than the printed ones"
_COMMON = {"reconstructed": _RECONSTRUCTED, "about": _ABOUT}
_EFFECTS = "card effects: icon -> how many (vp, ignite, extinguish, steal, tactic, destroy-temple)"

FILES = (
    PackFile(
        "board.json",
        "both sides of the game board: regions, territories, borders and bridges",
        SCHEMAS["board"],
        {
            **_COMMON,
            "sides": "the large side (4–5 players) and the small side (2–3 players)",
            "sides[].regions[].number": "the region's number, 1 to 10 (8 on the small side)",
            "sides[].regions[].territories[].id": "its region number and a letter: 4c",
            "sides[].regions[].territories[].icon": "the territory's action icon",
            "sides[].regions[].half": "west or east: the 2-player house choice",
            "sides[].borders": "pairs of territories that share a border",
            "sides[].bridges": "pairs of territories of regions that do not touch, joined by a bridge",
            "sides[].sketch": "an optional drawing of the side, one token per cell (checked against "
            "the borders)",
        },
    ),
    PackFile(
        "houses.json",
        "the five houses: turn-order numbers, start pieces and their three powers",
        SCHEMAS["houses"],
        {
            **_COMMON,
            "houses[].code": "one capital letter, used in the notation",
            "houses[].turn_order": "its number on the turn order track (printed)",
            "houses[].start.region": "the start region (printed)",
            "houses[].powers[].year": "the year (1–3) the power is gained",
            "houses[].powers[].effect": "what the power does",
            "houses[].powers[].amount": "how much (VP, flames...); a design pack may change it "
            f"({DESIGN_AMOUNTS.start}–{DESIGN_AMOUNTS.stop - 1}; 0 stays 0)",
            "houses[].powers[].icon": "the territory icon the power names, if any",
        },
    ),
    PackFile(
        "curses.json",
        "the nine Curse cards, one for each region but the central region 6",
        SCHEMAS["curses"],
        {**_COMMON, "cards[].region": "the region it curses", "cards[].effect": "its effect"},
    ),
    PackFile(
        "tactics.json",
        "the Tactic cards (75 common ones, three per house) and each house's War Board",
        SCHEMAS["tactics"],
        {
            **_COMMON,
            "common[].effects": _EFFECTS,
            "common[].copies": "how many of this card the deck holds (all copies add up to 75)",
            "common[].no_cancel": "the card cannot be cancelled",
            "house[].house": "the house code whose logo it bears",
            "house[].effects": _EFFECTS,
            "war_boards[].slots": "the two reduced effects the War Board shows",
        },
    ),
    PackFile(
        "candles.json",
        "the House Candle cards (five per house) and the 50 Advanced Candle cards",
        SCHEMAS["candles"],
        {
            **_COMMON,
            "house[].code": "the card's code (letters and digits), used in the notation",
            "house[].cost": "its wax cost, 0–9",
            "house[].year": "the year it belongs to (three of Year I, one of II, one of III)",
            "house[].effects": _EFFECTS + "; one or two effects",
            "advanced[].code": "the card's code",
            "advanced[].cost": "its wax cost, 0–9",
            "advanced[].effects": _EFFECTS,
        },
    ),
    PackFile(
        "upgrades.json",
        "the 36 Castle Upgrade tiles",
        SCHEMAS["upgrades"],
        {
            **_COMMON,
            "tiles[].code": "the tile's code",
            "tiles[].year": "its tier: 1, 2 or 3",
            "tiles[].effect": "what it does",
            "tiles[].amount": "how much; a design pack may change a printed tile's amount (1–9)",
            "tiles[].icon": "the territory icon it names (extra-territory, end-vp-territory)",
            "tiles[].copies": "how many such tiles (all copies add up to 36)",
        },
    ),
    PackFile(
        "components.json",
        "the Temple levels of each colour (18 in all) and the reserve (50 Gold, 50 Wax)",
        SCHEMAS["components"],
        {**_COMMON},
    ),
)
EXTRA = ("words.json",)  # the names and texts shown for every code (optional in a pack)

INTRO = """
Exported by `candlebox content export candelabria`. Play it with `-o content=THIS_FOLDER` (in
`candlebox simulate`, `candlebox play`, or a server's practice tables). Every file is decoded through
its schema (`*.schema.json`) and checked against the rulebook when the game starts; an error names the
file and the field.

Without design mode a pack keeps the printed game: what the rulebook prints (the houses, their start
and powers, the counts of cards and tiles, the printed Upgrade tiles) must stay; what our
reconstruction chose (card costs and effects, how many copies of each common Tactic card, the board's
drawing) may change. With `--design` (option `design=true`) the amounts of house powers and Upgrade
tiles may change too (1–9), while every structural check stays: types, ranges, the counts the rules
deal from, and the references between files (house codes, regions, icons). `words.json` holds the
name and text shown for every code; edit its texts when you change what a component does.
"""


def export_pack(folder: str) -> list[str]:
    """The shipped content, its schemas, its words and a README, written into ``folder``."""
    text = readme("The Curse of Candelabria", INTRO, FILES)
    return export(folder, CONTENT, FILES, EXTRA, text)


def check_pack(folder: str, design: bool) -> None:
    """Decode and check a pack (a ContentError, a ValueError, names the file and the field)."""
    read_content(folder, design)


PACKS = ContentPacks(
    files={f.name: f.about for f in FILES},
    export=export_pack,
    check=check_pack,
    option="content",
    design_option="design",
)
