"""Words for The Curse of Candelabria: a name and a plain-words text for every component
(``content/words.json``).

Keys are the codes of views, logs and actions: candle cards (``C1``, ``A01``), tactic cards (``1I1X``,
``N-3I1X``), Upgrade tiles (``1-vp``), missions (``Y1``, ``K1``), Decay cards (``D1``); a letter or
number that several kinds share is written ``kind:code``: ``house:C``, ``power:C1`` (a house's power of
Year I), ``war-board:C1`` (its War Board's slot 1), ``curse:5`` (the curse card of region 5), ``role:E``
(``role:C`` the Wandering Castle, ``role:land`` a Land Flame), ``temple:W``, ``icon:forge`` (a
territory kind), ``effect:I`` (an icon letter of tactic codes), ``mark:!``. Territories (``4c``) are
not in the file: their entries are made from the board side's data (:func:`territory_entries`).

Checked when first read against the content pack: every code has an entry and nothing else does, names
differ within a kind, no text is empty, and entries of wholly reconstructed data (tactic cards, War
Boards, curses) say so. A content pack (option ``content``) may hold its own ``words.json``; without one
the shipped words serve, and a code they lack is an error naming it.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from candlebox.engine.registry import game_info
from candlebox.engine.words import Entry, WordsFile, check_words, pick, read_words
from candlebox.games.candelabria import decay, missions
from candlebox.games.candelabria.board import Board, board_for
from candlebox.games.candelabria.components import Content, content_of, load_content
from candlebox.games.candelabria.decision import MODEL_LETTER
from candlebox.games.candelabria.notation import TEMPLE_LETTER
from candlebox.games.candelabria.schema import CONTENT, CURSE_EFFECTS, EFFECT_LETTER, ICONS
from candlebox.games.candelabria.schema import TEMPLES as TEMPLE_COLOURS
from candlebox.games.candelabria.setup import choose_houses
from candlebox.games.candelabria.state import GAME_ID, CandelabriaState

WORDS_FILE = "words.json"
ROLES = tuple(f"role:{r}" for r in (*MODEL_LETTER, "land"))
TEMPLES = tuple(f"temple:{t}" for t in TEMPLE_LETTER)
ICON_KEYS = tuple(f"icon:{i}" for i in ICONS)
EFFECT_KEYS = tuple(f"effect:{e}" for e in EFFECT_LETTER)
MARKS = ("mark:!", "mark:⊘")
MISSIONS = tuple(m[0] for m in missions.MISSIONS)


# A territory's kind in a few words (the icon's own entry, ``icon:KIND``, says it in full); the
# two-player game moves curse standees instead of placing flames before curses.
ICON_SHORT: dict[str, str] = {
    "curse": "Curse Influence: a flame before a curse on the Curse Board",
    "barracks": "Barracks: take a Tactic card",
    "forge": "Forge: buy an Upgrade tile or a Temple level",
    "mine": "Mine: take a gold or a wax",
    "portal": "Portal: move a candle or your castle to any territory",
    "inn": "Inn: draw an Advanced candle card",
}
ICON_SHORT_TWO_PLAYER = {
    "curse": "Curse Influence: move a curse standee to a neighbouring territory"
}
assert set(ICON_SHORT) == set(ICONS), "every territory kind needs its few words"
# A curse's effect in a few words, for lines too short for its card's text (the terminal's board).
CURSE_EFFECT_SHORT: dict[str, str] = {
    "power-4": "fights with power 4",
    "recast-candle": "a candle's effect again",
    "relocate-candle": "moves a candle",
    "temple-or-upgrade": "a Temple level or an Upgrade tile",
    "first-in-order": "first in turn order",
    "double-vp": "double VP for a win",
    "extinguish-all": "extinguishes every flame",
    "ignite-2": "ignites 2",
    "extinguish-2": "extinguishes up to 2",
}
assert set(CURSE_EFFECT_SHORT) == set(CURSE_EFFECTS), "every curse effect needs its few words"


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def territory_name(board: Board, t: int) -> str:
    """A territory's name in words, e.g. "Territory 4c (region 4, Inn)" (also the actions' labels)."""
    kind = ICON_SHORT[ICONS[board.icon[t]]].partition(":")[0]
    return f"Territory {board.names[t]} (region {board.region[t]}, {kind})"


def territory_entries(content: Content, side: str, variant: str) -> dict[str, Entry]:
    """One entry per territory of a board side, made from its data: name with region and kind, the
    kind's action in a few words, the territories it borders, its bridges, and the houses whose castle
    starts there (with the temple their region starts with).

    Territory ids are named alike on both sides ("1b" is on each) but their kinds and borders differ,
    so one side's entries never stand for the other's: :func:`components` gives these when the
    configuration (its player count) settles the side, and :func:`either_side` otherwise. The board
    data is reconstructed (CA-1 to CA-8) and the entries say so."""
    board = board_for(content, side)
    short = dict(ICON_SHORT)
    if variant == "two-player":
        short.update(ICON_SHORT_TWO_PLAYER)
    bridged = {(a, b) for a, b in board.bridges} | {(b, a) for a, b in board.bridges}
    castles: dict[int, list[str]] = {}
    for i in content.seatable(side):
        h = content.houses[i]
        for t in board.region_terr[h.region]:
            if board.icon[t] == h.castle:
                line = f"Castle start of the {h.name}"
                if h.temple >= 0:
                    line += f" (its region starts with a {TEMPLE_COLOURS[h.temple].title()} Temple)"
                castles.setdefault(t, []).append(line + ".")
    made: list[Entry] = []
    for t, code in enumerate(board.names):
        kind = short[ICONS[board.icon[t]]]
        borders = [board.names[n] for n in board.adj[t] if (t, n) not in bridged]
        bridges = [board.names[n] for n in board.adj[t] if (t, n) in bridged]
        parts = [f"{kind}, when your candle or castle enters and you place a Land Flame."]
        parts.append(f"Borders {_listed(borders)}." if borders else "Borders no territory.")
        if bridges:
            parts.append(f"A bridge links it to {_listed(bridges)}.")
        parts += castles.get(t, [])
        made.append(
            Entry(
                code=code,
                kind="territory",
                name=territory_name(board, t),
                text=" ".join(parts),
                reconstructed=True,
            )
        )
    # held to the same checks as the words file: one entry per territory, names apart, no empty text
    return check_words(
        f"board side {side!r}",
        WordsFile(about="territories", entries=made),
        {"territory": board.names},
        reconstructed=("territory",),
        unique_names=("territory",),
    )


def either_side(
    content: Content, sides: list[str], variant: str, counts: list[int]
) -> dict[str, Entry]:
    """Territory entries for a configuration that may be played on several board sides (no player
    count given): one entry per id, saying what the territory is on each side that has it, so a
    shared id ("1b") never shows one side's kind and borders as if they held on the other."""
    per_side = {side: territory_entries(content, side, variant) for side in sides}
    merged: dict[str, Entry] = {}
    for side, entries in per_side.items():
        data = content.sides[side]
        playing = sorted(set(data.players) & set(counts))
        where = f"On the {len(data.regions)}-region side ({_players(playing)})"
        for code, entry in entries.items():
            line = f"{where}: {entry.name.partition(' (')[2].rstrip(')')}. {entry.text}"
            if code in merged:
                merged[code].text += " " + line
            else:
                merged[code] = Entry(
                    code=code,
                    kind="territory",
                    name=f"Territory {code}",
                    text=line,
                    reconstructed=True,
                )
    return merged


def _players(counts: list[int]) -> str:
    return (
        f"{counts[0]} players" if len(counts) == 1 else f"{min(counts)}\u2013{max(counts)} players"
    )


def power_key(house: str, year: int) -> str:
    return f"power:{house}{year}"


def war_board_key(house: str, slot: int) -> str:
    """``slot`` counts from 1, as in the ``decay K`` action and the view."""
    return f"war-board:{house}{slot}"


def expected(content: Content) -> dict[str, set[str]]:
    """Every code of a content pack (and the expansions), by kind."""
    houses = content.houses
    return {
        "candle": {c.code for c in content.candles},
        "tactic": {t.code for t in content.tactics},
        "upgrade": {t.code for t in content.tiles},
        "curse": {f"curse:{k.code}" for k in content.curses},
        "house": {f"house:{h.code}" for h in houses},
        "power": {power_key(h.code, p[0]) for h in houses for p in h.powers},
        "war-board": {
            war_board_key(houses[i].code, s + 1)
            for i, slots in enumerate(content.war_boards)
            for s in range(len(slots))
        },
        "role": set(ROLES),
        "temple": set(TEMPLES),
        "icon": set(ICON_KEYS),
        "effect": set(EFFECT_KEYS),
        "mission": set(MISSIONS),
        "decay": set(decay.CODES),
        "mark": set(MARKS),
    }


def read(path: Path, content: Content) -> dict[str, Entry]:
    """The checked entries of a words file, by code (raises WordsError naming file, code, problem)."""
    return check_words(
        path.name,
        read_words(path),
        expected(content),
        reconstructed=("tactic", "war-board", "curse"),
        printed=("house", "power", "role", "temple", "icon", "effect", "mission", "decay", "mark"),
        variants=[v.name for v in game_info(GAME_ID).variants],
        unique_names=tuple(expected(content)),
    )


@cache
def table(folder: str | None = None, design: bool = False) -> dict[str, Entry]:
    """The words of a content pack: its own words.json, checked, or else the shipped words."""
    content = load_content(folder, design)
    own = Path(content.folder) / WORDS_FILE
    if own.is_file():
        return read(own, content)
    return read(CONTENT / WORDS_FILE, load_content())


def _seated(
    variant: str, options: dict[str, Any], players: int | None
) -> tuple[int | None, list[int] | None]:
    """The player count and the houses of a configuration naming its houses (option ``houses``).

    The houses set the player count (one per seat), and the count sets the board side and with it the
    curses and territories, so three houses list the small side's only. The houses are checked as
    ``new_game`` checks them (setup's :func:`choose_houses`). Without ``houses``: the count given (or
    None) and no houses."""
    given = options.get("houses")
    if given is None:
        return players, None
    count = len(given) if players is None else players
    seats = list(game_info(GAME_ID).variant(variant).players)
    if count not in seats:
        raise ValueError(
            f"option 'houses': {count} houses make a {count}-player game; the {variant!r} "
            f"variant seats {_players(seats)}"
        )
    probe = CandelabriaState(variant, count, 0, options)
    return count, choose_houses(probe, list(given), None)


def components(
    variant: str, options: dict[str, Any], players: int | None = None
) -> dict[str, dict[str, str]]:
    """Every code a game of this configuration can show: the houses that can sit at the table (their
    cards, powers and War Boards), the curses of the board side's regions, the Missions and Decay
    cards when those options are on, and the territories (``4c``) of the board side the player count
    sets (without ``players=``, of every side the variant can use, each entry saying what the
    territory is on each side: the sides share their territory ids, see :func:`territory_entries`).
    Option ``houses`` gives the player count when ``players=`` does not (:func:`_seated`)."""
    content = content_of(options)
    players, chosen = _seated(variant, options, players)
    counts = [players] if players is not None else list(game_info(GAME_ID).variant(variant).players)
    sides = [key for key, side in content.sides.items() if set(side.players) & set(counts)]
    houses = sorted(chosen or {h for side in sides for h in content.seatable(side)})
    codes = _house_codes(content, houses) + _card_codes(content, set(houses))
    regions = {r.number for key in sides for r in content.sides[key].regions}
    codes += [f"curse:{k.code}" for k in content.curses if k.region in regions]
    codes += [*ROLES, *TEMPLES, *ICON_KEYS, *EFFECT_KEYS, *MARKS]
    codes += _option_codes(options)
    words = table(options.get("content"), bool(options.get("design")))
    territories = (
        territory_entries(content, sides[0], variant)
        if len(sides) == 1
        else either_side(content, sides, variant, counts)
    )
    words = {**words, **territories}
    codes += list(territories)
    return pick(words, codes, variant)


def _house_codes(content: Content, houses: list[int]) -> list[str]:
    """Each seatable house, its powers and its War Board's slots."""
    codes: list[str] = []
    for i in houses:
        h = content.houses[i]
        codes.append(f"house:{h.code}")
        codes += [power_key(h.code, p[0]) for p in h.powers]
        codes += [war_board_key(h.code, s + 1) for s in range(len(content.war_boards[i]))]
    return codes


def _card_codes(content: Content, playing: set[int]) -> list[str]:
    """The candle and tactic cards of the houses playing (and of none), and the Upgrade tiles."""
    codes = [c.code for c in content.candles if c.house < 0 or c.house in playing]
    codes += [t.code for t in content.tactics if t.house < 0 or t.house in playing]
    return codes + [t.code for t in content.tiles]


def _option_codes(options: dict[str, Any]) -> list[str]:
    """The Mission and Decay cards, when those options are on."""
    codes: list[str] = []
    if options.get("missions"):
        codes += MISSIONS
    if options.get("decay"):
        codes += decay.CODES
    return codes
