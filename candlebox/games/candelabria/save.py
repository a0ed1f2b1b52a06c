"""Saving and restoring a Candelabria state (a msgspec schema, then every count checked), and resampling
what a seat cannot know.

The snapshot is readable: territories by name, cards and tiles by code, decks top first. The pending
decisions are the stack of integer frames (decision.py), checked for kind, length and seat.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec

from candlebox.engine import Rng
from candlebox.engine.state import FORMAT, SavedGame, events_from_json
from candlebox.games.candelabria.components import TEMPLES
from candlebox.games.candelabria.decision import FIRST_AUTO, FRAME_LENGTH, IDLE, Phase
from candlebox.games.candelabria.redeal import redeal
from candlebox.games.candelabria.setup import CANDLE_FLAMES, LAND_FLAMES, TURN_MARKER
from candlebox.games.candelabria.state import GAME_ID, CandelabriaState
from candlebox.games.candelabria.territory import UPGRADE_SLOTS

MAX_WAREHOUSE = 10


class Snapshot(msgspec.Struct, forbid_unknown_fields=True):
    side: str
    houses: list[str]
    order: list[int]
    year: int
    turns: int
    active: int
    land_flames: list[list[str]]  # per seat, the territories holding its Land Flame
    castles: list[str]
    candles: list[list[str | None]]  # per seat, Explorer/Pilgrim/Warrior territory
    candle_flames: list[list[int]]
    deployed: list[list[str | None]]  # per seat, the card on each seal slot
    land_flame_supply: list[int]
    candle_flame_supply: list[int]
    gold: list[int]
    wax: list[int]
    vp: list[int]
    hands: list[list[str]]
    known: list[list[str]]
    maneuvered: list[list[str]]
    upgrades: list[list[str]]
    tactics: list[list[str]]
    tactics_board: list[str]
    tactics_deck: list[str]  # top first
    upgrade_piles: list[list[str]]  # each top first
    upgrade_box: list[str]
    temples: dict[str, list[str]]  # region -> colours, bottom first
    temple_supply: list[int]
    reserve_gold: int
    reserve_wax: int
    curses: list[str]
    curse_flames: list[list[int]]
    corrupted: list[int]
    curse_deck: list[str]  # top first: curse codes (region numbers) and house candle codes
    curses_out: list[str]
    advanced_deck: list[str]  # top first
    advanced_marks: list[int]  # top first: -1 unknown, a seat that knows it, -2 public
    aside: list[str]
    boxed: list[str]
    stack: list[list[int]]
    end_reason: str
    final: list[float]
    winners: list[int]
    curses_granted: int = 0
    curse_models: list[str | None] = []  # per curse place, the territory of its model
    curse_owners: list[int] = []
    battles_left: list[int] = []
    battle: list[int] = []  # the participants, in turn order
    secret: list[list[str | None]] = []  # per seat: its secret choice, [] not chosen
    played: list[list[str | int | None]] = []  # per seat: slot 1, slot 2 (None empty, 0 resolved)
    tactics_used: list[list[str]] = []
    missions: dict[str, Any] | None = None  # option missions: box, public, private, places, tallies
    decay: dict[str, Any] | None = None  # option decay: deck (top first), slots per seat


def snapshot(st: CandelabriaState) -> dict[str, Any]:
    content = st.content
    names = st.board.names
    n = st.num_players

    def card(c: int) -> str:
        return content.candles[c].code

    def cards(cs: list[int]) -> list[str]:
        return [content.candles[c].code for c in cs]

    def tcode(c: int) -> str | None:
        return content.tactics[c].code if c >= 0 else None

    def deck_entry(e: int) -> str:
        return content.curses[e].code if e >= 0 else content.candles[~e].code

    return {
        "side": st.side,
        "houses": [st.house_code(s) for s in range(n)],
        "order": list(st.order),
        "year": st.year,
        "turns": st.turns,
        "active": st.active,
        "land_flames": [
            [names[t] for t in range(st.board.size) if st.lf[t] >> s & 1] for s in range(n)
        ],
        "castles": [names[t] for t in st.castle],
        "candles": [[names[t] if t >= 0 else None for t in pos] for pos in st.cpos],
        "candle_flames": [list(fl) for fl in st.cfl],
        "deployed": [[card(c) if c >= 0 else None for c in slots] for slots in st.rcard],
        "land_flame_supply": list(st.lf_sup),
        "candle_flame_supply": list(st.cf_sup),
        "gold": list(st.gold),
        "wax": list(st.wax),
        "vp": list(st.vp),
        "hands": [cards(h) for h in st.hand],
        "known": [cards(h) for h in st.known],
        "maneuvered": [cards(h) for h in st.mpile],
        "upgrades": [[content.tiles[t].code for t in u] for u in st.upg],
        "tactics": [[content.tactics[t].code for t in ts] for ts in st.tac],
        "tactics_board": [content.tactics[t].code for t in st.tboard],
        "tactics_deck": [content.tactics[t].code for t in reversed(st.tdeck)],
        "upgrade_piles": [[content.tiles[t].code for t in reversed(p)] for p in st.piles],
        "upgrade_box": [content.tiles[t].code for t in st.tbox],
        "temples": {
            str(r): [TEMPLES[c] for c in st.temples[r]] for r in st.board.regions if st.temples[r]
        },
        "temple_supply": list(st.tsup),
        "reserve_gold": st.rgold,
        "reserve_wax": st.rwax,
        "curses": [content.curses[k].code for k in st.curses],
        "curse_flames": [list(row) for row in st.cinf],
        "corrupted": [r for r in st.board.regions if st.corrupt >> r & 1],
        "curse_deck": [deck_entry(e) for e in reversed(st.cdeck)],
        "curses_out": [content.curses[k].code for k in st.cout],
        "advanced_deck": cards(st.adeck[::-1]),
        "advanced_marks": st.amark[::-1],
        "aside": cards(st.aside),
        "boxed": cards(st.boxed),
        "stack": [list(frame) for frame in st.stack],
        "curses_granted": st.granted,
        "curse_models": [names[t] if t >= 0 else None for t in st.cplace],
        "curse_owners": list(st.cown),
        "battles_left": list(st.wlist),
        "battle": list(st.fight),
        "secret": [[tcode(c) for c in sec] for sec in st.secret],
        "played": [[tcode(c) if c != -2 else 0 for c in pl] for pl in st.played],
        "tactics_used": [[content.tactics[t].code for t in ts] for ts in st.tused],
        "end_reason": st.end_reason,
        "final": list(st.final),
        "winners": list(st.win),
        "missions": _missions(st),
        "decay": _decay(st),
    }


def _decay(st: CandelabriaState) -> dict[str, Any] | None:
    from candlebox.games.candelabria.decay import CODES

    if not st.dslot:
        return None
    return {
        "deck": [CODES[c] for c in reversed(st.ddeck)],
        "slots": [[CODES[c] if c >= 0 else None for c in slots] for slots in st.dslot],
    }


def _read_decay(st: CandelabriaState, data: dict[str, Any] | None) -> None:
    from candlebox.games.candelabria.decay import CARDS, INDEX
    from candlebox.games.candelabria.decision import Phase as _Phase

    if data is None:
        if st.options.get("decay"):
            raise ValueError("saved game: option decay is on but the save has no decay")
        return
    try:
        st.ddeck = [INDEX[c] for c in reversed(data["deck"])]
        st.dslot = [[INDEX[c] if c is not None else -1 for c in s] for s in data["slots"]]
    except (KeyError, TypeError) as exc:
        raise ValueError(f"saved game: decay: {exc!r}") from None
    held = [f[2] for f in st.stack if f and f[0] == _Phase.DECAY_AT]
    every = st.ddeck + [c for s in st.dslot for c in s if c >= 0] + held
    if sorted(every) != list(range(CARDS)) or len(st.dslot) != st.num_players:
        raise ValueError("saved game: decay: every Decay card once, two slots per seat")
    if any(len(s) != 2 for s in st.dslot):
        raise ValueError("saved game: decay: two slots per seat")


def _missions(st: CandelabriaState) -> dict[str, Any] | None:
    from candlebox.games.candelabria.missions import MISSIONS

    if not st.mlock:
        return None
    code = [m[0] for m in MISSIONS]
    return {
        "box": [code[m] for m in st.mdeck],
        "public": [code[m] for m in st.mpub],
        "private": [code[m] for m in st.mpriv],
        "places": {code[m]: list(p) for m, p in enumerate(st.mlock)},
        "tally": [list(t) for t in st.mtally],
        "counters": [list(c) for c in st.mcount],
    }


def _read_missions(st: CandelabriaState, data: dict[str, Any] | None) -> None:
    from candlebox.games.candelabria.missions import CODES, MISSIONS, is_yearly

    if data is None:
        if st.options.get("missions"):
            raise ValueError("saved game: option missions is on but the save has no missions")
        return
    n = st.num_players
    try:
        st.mdeck = [CODES[c] for c in data["box"]]
        st.mpub = [CODES[c] for c in data["public"]]
        st.mpriv = [CODES[c] for c in data["private"]]
        st.mlock = [list(data["places"][m[0]]) for m in MISSIONS]
        st.mtally = [[int(x) for x in t] for t in data["tally"]]
        st.mcount = [[int(x) for x in c] for c in data["counters"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"saved game: missions: {exc!r}") from None
    every = sorted(st.mdeck + st.mpub + st.mpriv)
    if every != list(range(len(MISSIONS))) or len(st.mpriv) != n:
        raise ValueError("saved game: missions: every mission card once, one private per seat")
    for m, places in enumerate(st.mlock):
        if len(places) != (1 if is_yearly(m) else 3) or any(not -2 <= p < n for p in places):
            raise ValueError(f"saved game: missions: places of {MISSIONS[m][0]}")
    if len(st.mtally) != n or len(st.mcount) != n:
        raise ValueError("saved game: missions: one tally per seat")


class _Reader:
    """Turns codes back into ids, naming the field on a bad code."""

    def __init__(self, st: CandelabriaState) -> None:
        self.st = st
        self.content = st.content

    def fail(self, where: str, problem: str) -> None:
        raise ValueError(f"saved game: {where}: {problem}")

    def card(self, code: str, where: str) -> int:
        index = self.content.candle_index.get(code)
        if index is None:
            self.fail(where, f"{code!r} is not a candle card")
        return index  # type: ignore[return-value]

    def cards(self, codes: list[str], where: str) -> list[int]:
        return [self.card(c, where) for c in codes]

    def territory(self, name: str, where: str) -> int:
        index = self.st.board.index.get(name)
        if index is None:
            self.fail(where, f"{name!r} is not a territory of the {self.st.side} side")
        return index  # type: ignore[return-value]

    def tile(self, code: str, where: str) -> int:
        index = self.content.tile_index.get(code)
        if index is None:
            self.fail(where, f"{code!r} is not an upgrade tile")
        return index  # type: ignore[return-value]

    def tactic(self, code: str, where: str) -> int:
        index = self.content.tactic_index.get(code)
        if index is None:
            self.fail(where, f"{code!r} is not a tactic card")
        return index  # type: ignore[return-value]

    def curse(self, code: str, where: str) -> int:
        index = self.content.curse_index.get(code)
        if index is None:
            self.fail(where, f"{code!r} is not a curse card")
        return index  # type: ignore[return-value]


def restore(data: dict[str, Any]) -> CandelabriaState:
    from candlebox.games.candelabria import resolve

    try:
        saved = msgspec.convert(data, type=SavedGame[Snapshot])
    except msgspec.ValidationError as exc:
        raise ValueError(f"saved Candelabria game is malformed: {exc}") from None
    if saved.format != FORMAT:
        raise ValueError(f"saved game format {saved.format} is not supported (expected {FORMAT})")
    if saved.game != GAME_ID:
        raise ValueError(f"saved game is {saved.game!r}, not {GAME_ID!r}")
    variant, options = resolve(saved.players, saved.variant, saved.options)
    st = CandelabriaState(variant.name, saved.players, saved.seed, options)
    snap = saved.state
    n = saved.players
    read = _Reader(st)
    if snap.side != st.side:
        read.fail("side", f"a {n}-player game is played on the {st.side} side, not {snap.side!r}")
    for name in (
        "houses",
        "land_flames",
        "castles",
        "candles",
        "candle_flames",
        "deployed",
        "land_flame_supply",
        "candle_flame_supply",
        "gold",
        "wax",
        "vp",
        "hands",
        "known",
        "maneuvered",
        "upgrades",
        "tactics",
    ):
        if len(getattr(snap, name)) != n:
            read.fail(name, f"one entry per player ({n}) needed")
    content = st.content
    for seat, code in enumerate(snap.houses):
        h = content.house_index.get(code)
        if h is None or h not in content.seatable(st.side):
            read.fail("houses", f"{code!r} is not a house that plays on the {st.side} side")
        st.house[seat] = h  # type: ignore[assignment]
    if len(set(st.house)) != n:
        read.fail("houses", "a house is played by two seats")
    st.seat_of = [-1] * len(content.houses)
    for seat, h in enumerate(st.house):
        st.seat_of[h] = seat
    if sorted(snap.order) != list(range(n)):
        read.fail("order", f"the turn order must list every seat once, got {snap.order}")
    st.order = list(snap.order)
    if snap.year not in (1, 2, 3):
        read.fail("year", f"1, 2 or 3, not {snap.year}")
    st.year, st.turns, st.active = snap.year, snap.turns, snap.active
    st.lf = [0] * st.board.size
    st.ctrl = [[0] * 6 for _ in range(n)]
    for seat, terrs in enumerate(snap.land_flames):
        for name in terrs:
            t = read.territory(name, f"land_flames[{seat}]")
            if st.lf[t] >> seat & 1:
                read.fail(f"land_flames[{seat}]", f"two Land Flames of one house in {name}")
            st.lf[t] |= 1 << seat
            st.ctrl[seat][st.board.icon[t]] += 1
    st.castle = [read.territory(name, "castles") for name in snap.castles]
    st.cpos = [
        [read.territory(t, f"candles[{s}]") if t is not None else -1 for t in pos]
        for s, pos in enumerate(snap.candles)
    ]
    st.cfl = [list(fl) for fl in snap.candle_flames]
    st.rcard = [
        [read.card(c, f"deployed[{s}]") if c is not None else -1 for c in slots]
        for s, slots in enumerate(snap.deployed)
    ]
    st.lf_sup = list(snap.land_flame_supply)
    st.cf_sup = list(snap.candle_flame_supply)
    st.gold, st.wax, st.vp = list(snap.gold), list(snap.wax), list(snap.vp)
    st.hand = [read.cards(h, f"hands[{s}]") for s, h in enumerate(snap.hands)]
    st.known = [read.cards(h, f"known[{s}]") for s, h in enumerate(snap.known)]
    st.mpile = [read.cards(h, f"maneuvered[{s}]") for s, h in enumerate(snap.maneuvered)]
    st.upg = [[read.tile(t, f"upgrades[{s}]") for t in u] for s, u in enumerate(snap.upgrades)]
    st.tac = [[read.tactic(t, f"tactics[{s}]") for t in ts] for s, ts in enumerate(snap.tactics)]
    st.tboard = [read.tactic(t, "tactics_board") for t in snap.tactics_board]
    st.tdeck = [read.tactic(t, "tactics_deck") for t in reversed(snap.tactics_deck)]
    if len(snap.upgrade_piles) != 9:
        read.fail("upgrade_piles", "the Upgrade Board has 9 piles")
    st.piles = [[read.tile(t, "upgrade_piles") for t in reversed(p)] for p in snap.upgrade_piles]
    st.tbox = [read.tile(t, "upgrade_box") for t in snap.upgrade_box]
    st.temples = [[] for _ in range(st.board.max_region + 1)]
    for region, colours in snap.temples.items():
        if not region.isdigit() or int(region) not in st.board.regions:
            read.fail("temples", f"{region!r} is not a region of the {st.side} side")
        for colour in colours:
            if colour not in TEMPLES:
                read.fail("temples", f"{colour!r} is not a temple colour ({', '.join(TEMPLES)})")
            st.temples[int(region)].append(TEMPLES.index(colour))
    st.tsup = list(snap.temple_supply)
    st.rgold, st.rwax = snap.reserve_gold, snap.reserve_wax
    st.curses = [read.curse(k, "curses") for k in snap.curses]
    st.cinf = [list(row) for row in snap.curse_flames]
    if len(st.cinf) != len(st.curses) or any(len(row) != n for row in st.cinf):
        read.fail("curse_flames", "one row per curse on the Curse Board, one count per seat")
    st.corrupt = 0
    for r in snap.corrupted:
        if r not in st.board.regions or r == 6:
            read.fail("corrupted", f"region {r} cannot be corrupted")
        st.corrupt |= 1 << r
    st.cdeck = [
        read.curse(e, "curse_deck") if e.isdigit() else ~read.card(e, "curse_deck")
        for e in reversed(snap.curse_deck)
    ]
    st.cout = [read.curse(k, "curses_out") for k in snap.curses_out]
    st.adeck = read.cards(snap.advanced_deck[::-1], "advanced_deck")
    st.amark = list(snap.advanced_marks[::-1])
    if len(st.amark) != len(st.adeck) or any(not -2 <= m < n for m in st.amark):
        read.fail("advanced_marks", "one mark (-2, -1 or a seat) per card of the Advanced deck")
    st.aside = read.cards(snap.aside, "aside")
    st.boxed = read.cards(snap.boxed, "boxed")
    st.stack = [list(frame) for frame in snap.stack]
    _read_missions(st, snap.missions)
    _read_decay(st, snap.decay)
    st.granted = snap.curses_granted
    if not 0 <= st.granted <= len(st.curses):
        read.fail("curses_granted", f"0 to {len(st.curses)}, not {st.granted}")
    st.cplace = [
        read.territory(t, "curse_models") if t is not None else -1 for t in snap.curse_models
    ]
    st.cown = list(snap.curse_owners)
    if snap.curse_models and (
        len(st.cplace) != len(st.curses)
        or len(st.cown) != len(st.curses)
        or any(
            ((t >= 0) != (o >= 0) and not st.duo) or (st.duo and o != -1) or not -1 <= o < n
            for t, o in zip(st.cplace, st.cown, strict=True)
        )
    ):
        read.fail("curse_models", "one territory and one owner per curse place, both or neither")
    if any(r not in st.board.regions for r in snap.battles_left):
        read.fail("battles_left", "regions of the board only")
    st.wlist = list(snap.battles_left)
    if any(not 0 <= s < n for s in snap.battle) or len(set(snap.battle)) != len(snap.battle):
        read.fail("battle", "distinct seats of the game")
    st.fight = list(snap.battle)

    def tac_or_none(c: str | int | None, where: str) -> int:
        if c is None:
            return -1
        if c == 0:
            return -2
        return read.tactic(str(c), where)

    st.secret = [[tac_or_none(c, "secret") for c in sec] for sec in snap.secret] or [
        [] for _ in range(n)
    ]
    st.played = [[tac_or_none(c, "played") for c in pl] for pl in snap.played] or [
        [-1, -1] for _ in range(n)
    ]
    st.tused = [[read.tactic(t, "tactics_used") for t in ts] for ts in snap.tactics_used] or [
        [] for _ in range(n)
    ]
    if len(st.secret) != n or len(st.played) != n or len(st.tused) != n:
        read.fail("secret", f"secret, played and tactics_used: one entry per player ({n})")
    if any(len(sec) not in (0, 2) for sec in st.secret) or any(len(p) != 2 for p in st.played):
        read.fail("played", "two War Board slots per seat")
    st.end_reason = snap.end_reason
    st.final = tuple(snap.final)
    st.win = tuple(snap.winners)
    st.rng.state = saved.rng
    st.history = [(seat, action) for seat, action in saved.history]
    st.events = events_from_json(saved.events)
    check_consistent(st)
    return st


def check_consistent(st: CandelabriaState) -> None:
    """Every component where it can be, each once: cards, flames, resources, temples, tiles."""
    content = st.content
    n = st.num_players

    def fail(problem: str) -> None:
        raise ValueError(f"saved game: {problem}")

    everywhere: list[int] = list(st.adeck) + list(st.aside) + list(st.boxed)
    everywhere += [~e for e in st.cdeck if e < 0]
    for seat in range(n):
        everywhere += st.hand[seat] + st.mpile[seat] + [c for c in st.rcard[seat] if c >= 0]
        if Counter(st.known[seat]) - Counter(st.hand[seat]):
            fail(f"seat {seat} is known to hold a card it does not hold")
    if Counter(everywhere) != Counter(range(len(content.candles))):
        missing = Counter(range(len(content.candles))) - Counter(everywhere)
        extra = Counter(everywhere) - Counter(range(len(content.candles)))
        fail(
            "the candle cards do not add up "
            f"(missing {[content.candles[c].code for c in missing]}, "
            f"twice {[content.candles[c].code for c in extra]})"
        )
    curses = list(st.curses) + [e for e in st.cdeck if e >= 0] + list(st.cout)
    if sorted(curses) != list(range(len(content.curses))):
        fail("the curse cards do not add up")
    for seat in range(n):
        on_map = sum(st.lf[t] >> seat & 1 for t in range(st.board.size))
        at_curses = sum(row[seat] for row in st.cinf)
        in_hand = sum(frame == [Phase.FLAME, seat] for frame in st.stack)  # being placed (CA-27)
        if (
            on_map + at_curses + in_hand + st.lf_sup[seat] + TURN_MARKER != LAND_FLAMES
            or st.lf_sup[seat] < 0
        ):
            fail(f"seat {seat}'s Land Flames do not add up to {LAND_FLAMES}")
        if min(st.cfl[seat]) < 0 or sum(st.cfl[seat]) + st.cf_sup[seat] != CANDLE_FLAMES:
            fail(f"seat {seat}'s Candle Flames do not add up to {CANDLE_FLAMES}")
        if min(st.cf_sup[seat], st.gold[seat], st.wax[seat]) < 0:
            fail(f"seat {seat} holds a negative amount")
        if st.gold[seat] + st.wax[seat] > MAX_WAREHOUSE:
            fail(f"seat {seat}'s warehouse holds more than {MAX_WAREHOUSE}")
        if len(st.upg[seat]) > UPGRADE_SLOTS:
            fail(f"seat {seat} has more than {UPGRADE_SLOTS} upgrades")
        for role in range(3):
            placing = st.stack and st.stack[-1] == [Phase.DEPLOY_AT, seat, role]
            if (st.rcard[seat][role] >= 0) != (st.cpos[seat][role] >= 0) and not placing:
                fail(
                    f"seat {seat}'s {('Explorer', 'Pilgrim', 'Warrior')[role]} card and candle disagree"
                )
    if len(set(st.castle)) != n:
        fail("two castles share a territory")
    gold0, wax0 = content.reserve
    if (
        st.rgold + sum(st.gold) != gold0
        or st.rwax + sum(st.wax) != wax0
        or min(st.rgold, st.rwax) < 0
    ):
        fail("the gold and wax do not add up to the reserve's")
    for colour, total in enumerate(content.temples):
        placed = sum(stack.count(colour) for stack in st.temples)
        if placed + st.tsup[colour] != total or st.tsup[colour] < 0:
            fail(f"the {TEMPLES[colour]} temples do not add up to {total}")
    tiles = [t for p in st.piles for t in p] + list(st.tbox) + [t for u in st.upg for t in u]
    if Counter(tiles) != Counter(content.all_tiles):
        fail("the upgrade tiles do not add up")
    tactics = list(st.tboard) + list(st.tdeck) + [t for ts in st.tac for t in ts]
    tactics += [t for ts in st.tused for t in ts] + [c for p in st.played for c in p if c >= 0]
    for seat, sec in enumerate(st.secret):
        if Counter(c for c in sec if c >= 0) - Counter(st.tac[seat]):
            fail(f"seat {seat} chose tactic cards it does not hold")
    everything = list(content.common_tactics) + [
        t for h in st.house for t in content.house_tactics[h]
    ]
    if Counter(tactics) != Counter(everything):
        fail("the tactic cards do not add up")
    if not st.stack:
        fail("no pending decision")
    for frame in st.stack:
        kind = frame[0] if frame else -1
        if kind not in FRAME_LENGTH or len(frame) != FRAME_LENGTH[kind]:
            fail(f"a pending decision {frame} is not one of the game's")
        seat = frame[1]
        if kind < FIRST_AUTO and kind not in IDLE and kind != Phase.SECRET and not 0 <= seat < n:
            fail(f"a pending decision {frame} names no seat of the game")
    if st.stack[-1][0] >= FIRST_AUTO:
        fail("the top of the pending decisions is not a decision")


def resample(st: CandelabriaState, seat: int, seed: int) -> CandelabriaState:
    """What ``seat`` cannot know dealt anew (rulings CA-39): the order of the Tactics deck and of the
    curses left in the Curse deck, the tiles under the tops of the Upgrade piles and in the box, and
    the cards of the Advanced deck and of the other hands that the seat has not seen (redeal.py), the
    others' private missions not yet shown. The events that name what was dealt anew are rewritten
    to name the new deal, so the others' logs agree with their new hands."""
    twin = st.clone()
    assert isinstance(twin, CandelabriaState)
    rng = twin.rng = Rng(seed)
    # Every unknown pool is sorted before it is shuffled, so the result depends only on what the
    # seat knows and the seed, never on the real hidden order (two indistinguishable states resample
    # alike, which information-set search relies on).
    twin.tdeck.sort()
    rng.shuffle(twin.tdeck)
    slots = [i for i, e in enumerate(twin.cdeck) if e >= 0]
    hidden = sorted(twin.cdeck[i] for i in slots)
    rng.shuffle(hidden)
    for i, e in zip(slots, hidden, strict=True):
        twin.cdeck[i] = e
    tiles = sorted([t for p in twin.piles for t in p[:-1]] + twin.tbox)
    rng.shuffle(tiles)
    for p in twin.piles:
        for i in range(len(p) - 1):
            p[i] = tiles.pop()
    twin.tbox = tiles
    twin.ddeck.sort()
    rng.shuffle(twin.ddeck)  # the Decay deck's order (rulings CA-D4)
    if twin.mlock:  # the others' private missions not yet shown, and the box (rulings CA-M2)
        from candlebox.games.candelabria.missions import MISSIONS, revealed

        unknown = [o for o in range(st.num_players) if o != seat and not revealed(twin, o)]
        missions = sorted([twin.mpriv[o] for o in unknown] + twin.mdeck)
        rng.shuffle(missions)
        for o in unknown:
            twin.mpriv[o] = missions.pop()
        twin.mdeck = sorted(missions)
        for k, event in enumerate(twin.events):  # the log tells each its own mission: the new one
            if event[0] == "mission-private" and event[1] in unknown:
                twin.events[k] = (event[0], event[1], MISSIONS[twin.mpriv[event[1]]][0])
    # The others' secret choices of tactic cards, made but not revealed: any they could have made.
    if twin.stack[-1][0] == Phase.SECRET:
        from candlebox.games.candelabria.war import secret_actions

        for other in twin.fight:
            if other != seat and twin.secret[other]:
                _, a, b = twin.notation.parse[rng.choice(secret_actions(twin, other))]
                twin.secret[other] = [a - 1, b - 1]
    # Candle cards: a hidden history dealt anew, its events naming the cards it deals (redeal.py).
    dealt = redeal(st, seat, rng)
    twin.hand = dealt.hands
    twin.adeck = dealt.adeck
    twin.aside = dealt.aside
    for k, event in dealt.events.items():
        twin.events[k] = event
    return twin
