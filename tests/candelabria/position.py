"""Candelabria: a position set up from an edited snapshot, for rules tests: what a replay cannot rebuild
(see tests/position.py). Its snapshot read back with every count checked; this was the game's restore
code before saved games became replays.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec

from candlebox.engine import State
from candlebox.games.candelabria.decision import FIRST_AUTO, FRAME_LENGTH, IDLE, Phase
from candlebox.games.candelabria.schema import TEMPLES
from candlebox.games.candelabria.setup import CANDLE_FLAMES, LAND_FLAMES, TURN_MARKER
from candlebox.games.candelabria.state import GAME_ID, CandelabriaState
from candlebox.games.candelabria.territory import UPGRADE_SLOTS
from tests import position

MAX_WAREHOUSE = 10


class Snapshot(msgspec.Struct, forbid_unknown_fields=True):
    side: str
    house_of: list[str]
    order: list[int]
    year: int
    turns: int
    active: int
    land_flames: list[list[str]]  # per seat, the territories holding its Land Flame
    castles: list[str]
    candle_territories: list[list[str | None]]  # per seat, Explorer/Pilgrim/Warrior territory
    candle_flames: list[list[int]]
    seal_cards: list[list[str | None]]  # per seat, the card on each seal slot
    land_flame_supply: list[int]
    candle_flame_supply: list[int]
    gold: list[int]
    wax: list[int]
    vp: list[int]
    hands: list[list[str]]
    known_hands: list[list[str]]
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
    curse_influence: list[list[int]]
    corrupted: list[int]
    curse_deck: list[str]  # top first: curse codes (region numbers) and house candle codes
    curses_out: list[str]
    advanced_deck: list[str]  # top first
    advanced_known_by: list[int]  # top first: -1 unknown, a seat that knows it, -2 public
    set_aside: list[str]
    boxed_candles: list[str]
    stack: list[list[int]]
    end_reason: str
    final_scores: list[float]
    winning_seats: list[int]
    curses_granted: int = 0
    curse_models: list[str | None] = []  # per curse place, the territory of its model
    curse_owners: list[int] = []
    battles_left: list[int] = []
    battle: list[int] = []  # the participants, in turn order
    secret_tactics: list[list[str | None]] = []  # per seat: its secret choice, [] not chosen
    played_tactics: list[
        list[str | int | None]
    ] = []  # per seat: slot 1, slot 2 (None empty, 0 resolved)
    tactics_used: list[list[str]] = []
    missions: dict[str, Any] | None = None  # option missions: box, public, private, places, tallies
    decay: dict[str, Any] | None = None  # option decay: deck (top first), slots per seat


def _read_decay(st: CandelabriaState, data: dict[str, Any] | None) -> None:
    from candlebox.games.candelabria.decay import CARDS, INDEX
    from candlebox.games.candelabria.decision import Phase as _Phase

    if data is None:
        if st.options.get("decay"):
            raise ValueError("saved game: option decay is on but the save has no decay")
        return
    try:
        st.decay_deck = [INDEX[c] for c in reversed(data["decay_deck"])]
        st.decay_slots = [
            [INDEX[c] if c is not None else -1 for c in s] for s in data["decay_slots"]
        ]
    except (KeyError, TypeError) as exc:
        raise ValueError(f"saved game: decay: {exc!r}") from None
    held = [f[2] for f in st.stack if f and f[0] == _Phase.DECAY_AT]
    every = st.decay_deck + [c for s in st.decay_slots for c in s if c >= 0] + held
    if sorted(every) != list(range(CARDS)) or len(st.decay_slots) != st.num_players:
        raise ValueError("saved game: decay: every Decay card once, two slots per seat")
    if any(len(s) != 2 for s in st.decay_slots):
        raise ValueError("saved game: decay: two slots per seat")


def _read_missions(st: CandelabriaState, data: dict[str, Any] | None) -> None:
    from candlebox.games.candelabria.missions import CODES, MISSIONS, is_yearly

    if data is None:
        if st.options.get("missions"):
            raise ValueError("saved game: option missions is on but the save has no missions")
        return
    n = st.num_players
    try:
        st.mission_box = [CODES[c] for c in data["mission_box"]]
        st.public_missions = [CODES[c] for c in data["public_missions"]]
        st.private_missions = [CODES[c] for c in data["private_missions"]]
        st.mission_places = [list(data["mission_places"][m[0]]) for m in MISSIONS]
        st.mission_tally = [[int(x) for x in t] for t in data["mission_tally"]]
        st.mission_cancels = [[int(x) for x in c] for c in data["mission_cancels"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"saved game: missions: {exc!r}") from None
    every = sorted(st.mission_box + st.public_missions + st.private_missions)
    if every != list(range(len(MISSIONS))) or len(st.private_missions) != n:
        raise ValueError("saved game: missions: every mission card once, one private per seat")
    for m, places in enumerate(st.mission_places):
        if len(places) != (1 if is_yearly(m) else 3) or any(not -2 <= p < n for p in places):
            raise ValueError(f"saved game: missions: places of {MISSIONS[m][0]}")
    if len(st.mission_tally) != n or len(st.mission_cancels) != n:
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


def restore(data: dict[str, Any], like: State) -> CandelabriaState:
    """The snapshot in ``data`` (from ``like.to_json()``, edited) as a state, with ``like``'s
    generator and events."""
    saved = position.read(data, GAME_ID, Snapshot)
    st = CandelabriaState(saved.variant, saved.players, saved.seed, saved.options)
    snap = saved.snapshot
    n = saved.players
    read = _Reader(st)
    if snap.side != st.side:
        read.fail("side", f"a {n}-player game is played on the {st.side} side, not {snap.side!r}")
    for name in (
        "house_of",
        "land_flames",
        "castles",
        "candle_territories",
        "candle_flames",
        "seal_cards",
        "land_flame_supply",
        "candle_flame_supply",
        "gold",
        "wax",
        "vp",
        "hands",
        "known_hands",
        "maneuvered",
        "upgrades",
        "tactics",
    ):
        if len(getattr(snap, name)) != n:
            read.fail(name, f"one entry per player ({n}) needed")
    content = st.content
    for seat, code in enumerate(snap.house_of):
        h = content.house_index.get(code)
        if h is None or h not in content.seatable(st.side):
            read.fail("house_of", f"{code!r} is not a house that plays on the {st.side} side")
        st.house_of[seat] = h  # type: ignore[assignment]
    if len(set(st.house_of)) != n:
        read.fail("house_of", "a house is played by two seats")
    st.seat_of = [-1] * len(content.houses)
    for seat, h in enumerate(st.house_of):
        st.seat_of[h] = seat
    if sorted(snap.order) != list(range(n)):
        read.fail("order", f"the turn order must list every seat once, got {snap.order}")
    st.order = list(snap.order)
    if snap.year not in (1, 2, 3):
        read.fail("year", f"1, 2 or 3, not {snap.year}")
    st.year, st.turns, st.active = snap.year, snap.turns, snap.active
    st.land_flames = [0] * st.board.size
    st.land_flames_by_icon = [[0] * 6 for _ in range(n)]
    for seat, terrs in enumerate(snap.land_flames):
        for name in terrs:
            t = read.territory(name, f"land_flames[{seat}]")
            if st.land_flames[t] >> seat & 1:
                read.fail(f"land_flames[{seat}]", f"two Land Flames of one house in {name}")
            st.land_flames[t] |= 1 << seat
            st.land_flames_by_icon[seat][st.board.icon[t]] += 1
    st.castles = [read.territory(name, "castles") for name in snap.castles]
    st.candle_territories = [
        [read.territory(t, f"candle_territories[{s}]") if t is not None else -1 for t in pos]
        for s, pos in enumerate(snap.candle_territories)
    ]
    st.candle_flames = [list(fl) for fl in snap.candle_flames]
    st.seal_cards = [
        [read.card(c, f"seal_cards[{s}]") if c is not None else -1 for c in slots]
        for s, slots in enumerate(snap.seal_cards)
    ]
    st.land_flame_supply = list(snap.land_flame_supply)
    st.candle_flame_supply = list(snap.candle_flame_supply)
    st.gold, st.wax, st.vp = list(snap.gold), list(snap.wax), list(snap.vp)
    st.hands = [read.cards(h, f"hands[{s}]") for s, h in enumerate(snap.hands)]
    st.known_hands = [read.cards(h, f"known_hands[{s}]") for s, h in enumerate(snap.known_hands)]
    st.maneuvered = [read.cards(h, f"maneuvered[{s}]") for s, h in enumerate(snap.maneuvered)]
    st.upgrades = [[read.tile(t, f"upgrades[{s}]") for t in u] for s, u in enumerate(snap.upgrades)]
    st.tactics = [
        [read.tactic(t, f"tactics[{s}]") for t in ts] for s, ts in enumerate(snap.tactics)
    ]
    st.tactics_board = [read.tactic(t, "tactics_board") for t in snap.tactics_board]
    st.tactics_deck = [read.tactic(t, "tactics_deck") for t in reversed(snap.tactics_deck)]
    if len(snap.upgrade_piles) != 9:
        read.fail("upgrade_piles", "the Upgrade Board has 9 piles")
    st.upgrade_piles = [
        [read.tile(t, "upgrade_piles") for t in reversed(p)] for p in snap.upgrade_piles
    ]
    st.upgrade_box = [read.tile(t, "upgrade_box") for t in snap.upgrade_box]
    st.temples = [[] for _ in range(st.board.max_region + 1)]
    for region, colours in snap.temples.items():
        if not region.isdigit() or int(region) not in st.board.regions:
            read.fail("temples", f"{region!r} is not a region of the {st.side} side")
        for colour in colours:
            if colour not in TEMPLES:
                read.fail("temples", f"{colour!r} is not a temple colour ({', '.join(TEMPLES)})")
            st.temples[int(region)].append(TEMPLES.index(colour))
    st.temple_supply = list(snap.temple_supply)
    st.reserve_gold, st.reserve_wax = snap.reserve_gold, snap.reserve_wax
    st.curses = [read.curse(k, "curses") for k in snap.curses]
    st.curse_influence = [list(row) for row in snap.curse_influence]
    if len(st.curse_influence) != len(st.curses) or any(
        len(row) != n for row in st.curse_influence
    ):
        read.fail("curse_influence", "one row per curse on the Curse Board, one count per seat")
    st.corrupted = 0
    for r in snap.corrupted:
        if r not in st.board.regions or r == 6:
            read.fail("corrupted", f"region {r} cannot be corrupted")
        st.corrupted |= 1 << r
    st.curse_deck = [
        read.curse(e, "curse_deck") if e.isdigit() else ~read.card(e, "curse_deck")
        for e in reversed(snap.curse_deck)
    ]
    st.curses_out = [read.curse(k, "curses_out") for k in snap.curses_out]
    st.advanced_deck = read.cards(snap.advanced_deck[::-1], "advanced_deck")
    st.advanced_known_by = list(snap.advanced_known_by[::-1])
    if len(st.advanced_known_by) != len(st.advanced_deck) or any(
        not -2 <= m < n for m in st.advanced_known_by
    ):
        read.fail("advanced_known_by", "one mark (-2, -1 or a seat) per card of the Advanced deck")
    st.set_aside = read.cards(snap.set_aside, "set_aside")
    st.boxed_candles = read.cards(snap.boxed_candles, "boxed_candles")
    st.stack = [list(frame) for frame in snap.stack]
    _read_missions(st, snap.missions)
    _read_decay(st, snap.decay)
    st.curses_granted = snap.curses_granted
    if not 0 <= st.curses_granted <= len(st.curses):
        read.fail("curses_granted", f"0 to {len(st.curses)}, not {st.curses_granted}")
    st.curse_models = [
        read.territory(t, "curse_models") if t is not None else -1 for t in snap.curse_models
    ]
    st.curse_owners = list(snap.curse_owners)
    if snap.curse_models and (
        len(st.curse_models) != len(st.curses)
        or len(st.curse_owners) != len(st.curses)
        or any(
            ((t >= 0) != (o >= 0) and not st.two_player)
            or (st.two_player and o != -1)
            or not -1 <= o < n
            for t, o in zip(st.curse_models, st.curse_owners, strict=True)
        )
    ):
        read.fail("curse_models", "one territory and one owner per curse place, both or neither")
    if any(r not in st.board.regions for r in snap.battles_left):
        read.fail("battles_left", "regions of the board only")
    st.battles_left = list(snap.battles_left)
    if any(not 0 <= s < n for s in snap.battle) or len(set(snap.battle)) != len(snap.battle):
        read.fail("battle", "distinct seats of the game")
    st.battle = list(snap.battle)

    def tac_or_none(c: str | int | None, where: str) -> int:
        if c is None:
            return -1
        if c == 0:
            return -2
        return read.tactic(str(c), where)

    st.secret_tactics = [
        [tac_or_none(c, "secret") for c in sec] for sec in snap.secret_tactics
    ] or [[] for _ in range(n)]
    st.played_tactics = [[tac_or_none(c, "played") for c in pl] for pl in snap.played_tactics] or [
        [-1, -1] for _ in range(n)
    ]
    st.tactics_used = [
        [read.tactic(t, "tactics_used") for t in ts] for ts in snap.tactics_used
    ] or [[] for _ in range(n)]
    if len(st.secret_tactics) != n or len(st.played_tactics) != n or len(st.tactics_used) != n:
        read.fail(
            "secret_tactics",
            f"secret_tactics, played_tactics and tactics_used: one entry per player ({n})",
        )
    if any(len(sec) not in (0, 2) for sec in st.secret_tactics) or any(
        len(p) != 2 for p in st.played_tactics
    ):
        read.fail("played_tactics", "two War Board slots per seat")
    st.end_reason = snap.end_reason
    st.final_scores = tuple(snap.final_scores)
    st.winning_seats = tuple(snap.winning_seats)
    position.finish(st, saved, like)
    check_consistent(st)
    return st


def check_consistent(st: CandelabriaState) -> None:
    """Every component where it can be, each once: cards, flames, resources, temples, tiles."""
    content = st.content
    n = st.num_players

    def fail(problem: str) -> None:
        raise ValueError(f"saved game: {problem}")

    everywhere: list[int] = list(st.advanced_deck) + list(st.set_aside) + list(st.boxed_candles)
    everywhere += [~e for e in st.curse_deck if e < 0]
    for seat in range(n):
        everywhere += (
            st.hands[seat] + st.maneuvered[seat] + [c for c in st.seal_cards[seat] if c >= 0]
        )
        if Counter(st.known_hands[seat]) - Counter(st.hands[seat]):
            fail(f"seat {seat} is known to hold a card it does not hold")
    if Counter(everywhere) != Counter(range(len(content.candles))):
        missing = Counter(range(len(content.candles))) - Counter(everywhere)
        extra = Counter(everywhere) - Counter(range(len(content.candles)))
        fail(
            "the candle cards do not add up "
            f"(missing {[content.candles[c].code for c in missing]}, "
            f"twice {[content.candles[c].code for c in extra]})"
        )
    curses = list(st.curses) + [e for e in st.curse_deck if e >= 0] + list(st.curses_out)
    if sorted(curses) != list(range(len(content.curses))):
        fail("the curse cards do not add up")
    for seat in range(n):
        on_map = sum(st.land_flames[t] >> seat & 1 for t in range(st.board.size))
        at_curses = sum(row[seat] for row in st.curse_influence)
        in_hand = sum(frame == [Phase.FLAME, seat] for frame in st.stack)  # being placed (CA-27)
        if (
            on_map + at_curses + in_hand + st.land_flame_supply[seat] + TURN_MARKER != LAND_FLAMES
            or st.land_flame_supply[seat] < 0
        ):
            fail(f"seat {seat}'s Land Flames do not add up to {LAND_FLAMES}")
        if (
            min(st.candle_flames[seat]) < 0
            or sum(st.candle_flames[seat]) + st.candle_flame_supply[seat] != CANDLE_FLAMES
        ):
            fail(f"seat {seat}'s Candle Flames do not add up to {CANDLE_FLAMES}")
        if min(st.candle_flame_supply[seat], st.gold[seat], st.wax[seat]) < 0:
            fail(f"seat {seat} holds a negative amount")
        if st.gold[seat] + st.wax[seat] > MAX_WAREHOUSE:
            fail(f"seat {seat}'s warehouse holds more than {MAX_WAREHOUSE}")
        if len(st.upgrades[seat]) > UPGRADE_SLOTS:
            fail(f"seat {seat} has more than {UPGRADE_SLOTS} upgrades")
        for role in range(3):
            placing = st.stack and st.stack[-1] == [Phase.DEPLOY_AT, seat, role]
            if (st.seal_cards[seat][role] >= 0) != (
                st.candle_territories[seat][role] >= 0
            ) and not placing:
                fail(
                    f"seat {seat}'s {('Explorer', 'Pilgrim', 'Warrior')[role]} card and candle disagree"
                )
    if len(set(st.castles)) != n:
        fail("two castles share a territory")
    gold0, wax0 = content.reserve
    if (
        st.reserve_gold + sum(st.gold) != gold0
        or st.reserve_wax + sum(st.wax) != wax0
        or min(st.reserve_gold, st.reserve_wax) < 0
    ):
        fail("the gold and wax do not add up to the reserve's")
    for colour, total in enumerate(content.temples):
        placed = sum(stack.count(colour) for stack in st.temples)
        if placed + st.temple_supply[colour] != total or st.temple_supply[colour] < 0:
            fail(f"the {TEMPLES[colour]} temples do not add up to {total}")
    tiles = (
        [t for p in st.upgrade_piles for t in p]
        + list(st.upgrade_box)
        + [t for u in st.upgrades for t in u]
    )
    if Counter(tiles) != Counter(content.all_tiles):
        fail("the upgrade tiles do not add up")
    tactics = list(st.tactics_board) + list(st.tactics_deck) + [t for ts in st.tactics for t in ts]
    tactics += [t for ts in st.tactics_used for t in ts] + [
        c for p in st.played_tactics for c in p if c >= 0
    ]
    for seat, sec in enumerate(st.secret_tactics):
        if Counter(c for c in sec if c >= 0) - Counter(st.tactics[seat]):
            fail(f"seat {seat} chose tactic cards it does not hold")
    everything = list(content.common_tactics) + [
        t for h in st.house_of for t in content.house_tactics[h]
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
