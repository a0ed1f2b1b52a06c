"""The adapters' path: the observation written from a Candelabria state without building its view,
the same numbers as ``fill`` writes from the typed view (tests/rl/test_state_encoders.py).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from itertools import compress
from operator import ne

import numpy as np

from candlebox.engine import State
from candlebox.engine.encoding import copy_row
from candlebox.games.candelabria.decision import NAMES, Auto, Phase
from candlebox.games.candelabria.encoder.canvas import (
    TEMPLE_SUMS,
    Memory,
    _Canvas,
    _cards,
    _counts,
    _per_seat,
    _Tables,
    _unit,
)
from candlebox.games.candelabria.encoder.facts import (
    ADVANCED,
    CANDLE_FLAMES,
    COUNT_SCALE,
    CURSE_CARDS,
    CURSE_DECK,
    CURSE_PLACES,
    DECAY,
    DECISION_INDEX,
    HAND_SCALE,
    HOUSES,
    LAND_FLAMES,
    MISSIONS,
    RESERVE,
    ROLE_FLAMES,
    SLOTS,
    TACTICS_DECK,
    TEMPLES_EACH,
    TILES,
    VP_SCALE,
    WAREHOUSE,
)
from candlebox.games.candelabria.encoder.layout import (
    EncoderLayout,
)
from candlebox.games.candelabria.marks import (
    BATTLES,
    CANDLES,
    CASTLES,
    CURSE_BOARD,
    CURSE_MODELS,
    DECKS,
    FLAME_SUPPLY,
    HAND,
    MANEUVERED,
    ORDER,
    REGIONS,
    RESOURCES,
    SEALS,
    SECRETS,
    TACTICS,
    TACTICS_BOARD,
    TACTICS_USED,
    UPGRADE_PILES,
    UPGRADES,
    VP,
)
from candlebox.games.candelabria.marks import (
    DECAY as DECAY_PART,
)
from candlebox.games.candelabria.marks import (
    HOUSES as HOUSES_PART,
)
from candlebox.games.candelabria.marks import (
    LAND_FLAMES as LAND_FLAMES_PART,
)
from candlebox.games.candelabria.marks import (
    MISSIONS as MISSIONS_PART,
)
from candlebox.games.candelabria.missions import revealed
from candlebox.games.candelabria.state import CandelabriaState

# Pending decisions whose view names a count (view.typed_pending), a region, a territory.
_COUNTED = frozenset(
    {
        Phase.INFLUENCE,
        Phase.TAKE,
        Phase.FORGE,
        Phase.MINE,
        Phase.PORTAL,
        Phase.RETURN,
        Phase.STEAL,
        Phase.HAUNT,
        Phase.IGNITE,
        Phase.EXTINGUISH,
        Phase.RAZE,
    }
)
_COUNTED_REGION = frozenset({Phase.IGNITE, Phase.EXTINGUISH, Phase.RAZE})
_REGION = frozenset({Phase.SHIFT, Phase.RECAST, Phase.LIFT, Phase.GIFT, Phase.CANCEL, Phase.SECRET})
_TERRITORY = frozenset({Phase.DESTROY, Phase.PUSH, Phase.EXTINGUISH_AT, Phase.PUSH_TO})
_WAR_STEPS = frozenset({Auto.WAR_PREP, Auto.BATTLES, Auto.EPILOGUE})  # view.season
# The kinds the state reader tells apart, as plain ints: an enum member read from its class costs
# several times an int comparison, on the reader's hottest path.
_OVER, _PICK, _SECRET, _PUSH_TO, _MOVE = (
    int(Phase.OVER),
    int(Phase.PICK),
    int(Phase.SECRET),
    int(Phase.PUSH_TO),
    int(Phase.MOVE),
)
_DEPLOY_AT, _CURSE_AT, _LIFT_TO, _KEEP = (
    int(Phase.DEPLOY_AT),
    int(Phase.CURSE_AT),
    int(Phase.LIFT_TO),
    int(Phase.KEEP),
)
_DECAYED = frozenset({Phase.DECAY_AT, Phase.EITHER})
# The decisions the view gives details of (their count, region, territory, candle, cards drawn...).
_DETAILED = frozenset(
    _COUNTED
    | _REGION
    | _TERRITORY
    | _DECAYED
    | {Phase.MOVE, Phase.DEPLOY_AT, Phase.CURSE_AT, Phase.LIFT_TO, Phase.KEEP}
)
# Each decision kind's place in DECISIONS (view: NAMES[kind]); kinds no view shows are absent.
PHASE_DECISION = {
    kind: DECISION_INDEX[name] for kind, name in NAMES.items() if name in DECISION_INDEX
}
_SECRET_DECISION = PHASE_DECISION[Phase.SECRET]

Write = Callable[[CandelabriaState, _Canvas], None]


def _nothing(st: CandelabriaState, c: _Canvas) -> None:
    """A part ``_update`` writes itself (it depends on the seat reading)."""


CANVASES = 1024  # states whose last observation the state reader keeps (a vector env's games)


class StateReader(EncoderLayout):
    """The observation read from the state (``fill_state``), field by field, writing again only the
    fields whose data changed since the state's last observation."""

    reads_state = True

    def fill_state(self, state: State, seat: int, out: np.ndarray) -> None:
        """``fill`` of ``typed_view(state, seat)`` (view.py), clipped as ``encode`` clips, read from the
        state: of the hands only the seat's own (every hand once the game is over) and the cards the
        others are known to hold, of a battle's secret choices only the seat's own, of the private
        missions the seat's own and the revealed ones. No view is built and no text is made."""
        c = self._canvas(state, seat)
        copy_row(out, c.row, c.view)

    def fill_state_items(self, state: State, seat: int, mv: Memory) -> None:
        """``fill_state`` into a row given as its memoryview (``items(row)``): a batched env passes
        the views of its rows, made once (making one costs as much as several writes)."""
        mv[:] = self._canvas(state, seat).view

    def encode_state(
        self, state: State, seat: int, out: np.ndarray | None = None, clip: bool = True
    ) -> np.ndarray:
        """As ``ViewEncoder.encode_state``; the values are in [0, 1] as written (``clip`` has nothing
        left to do)."""
        row = self._canvas(state, seat).row
        if out is None:
            return row.copy()
        out[:] = row
        return out

    def _canvas(self, state: State, seat: int) -> _Canvas:
        """The seat's observation of the state, in the state's canvas (returned).

        A canvas (one per state object, the ``CANVASES`` most recently read kept) holds the last
        observation written for that state and the state's change marks (marks.py) it was written
        at. Only the parts whose marks moved since are written again, and the seat's own parts when
        another seat reads: the rules mark every part they write (tests/candelabria/test_marks.py),
        so nothing of the state is compared with copies. A canvas belongs to the state's own marks
        list: a state read under a reused id, a clone or a loaded save has another list, and is
        written whole.
        """
        assert isinstance(state, CandelabriaState)
        st = state
        canvases = self._canvases
        key = id(st)
        c = canvases.pop(key, None)
        if (
            c is None
            or c.source is not st.marks
            or c.content is not st.content
            or c.tab.board is not st.board
        ):
            c = _Canvas(st, self.tables(st), self._zero)
            if len(canvases) >= CANVASES:
                del canvases[next(iter(canvases))]  # the least recently read
        canvases[key] = c
        frame = st.stack[-1]
        if frame[0] == _PICK:
            c.forget()
            self._house_choice(st, seat, frame, c)
            c.picked = True
        else:
            if c.picked:  # none of the house choice's places is a part's: start afresh
                c.forget()
                c.picked = False
            self._update(st, seat, frame, c)
        return c

    def tables(self, st: CandelabriaState) -> _Tables:
        tab = self._tables
        if tab is None or tab.content is not st.content or tab.board is not st.board:
            tab = self._tables = _Tables(st, self.terr_index, self.n, self.start["land_flames"])
        return tab

    def _update(self, st: CandelabriaState, seat: int, frame: list[int], c: _Canvas) -> None:
        """Write in the canvas the parts whose marks moved since it was written, and the head; each
        field as ``fill`` writes it, clipped."""
        over = frame[0] == _OVER
        self._head(st, seat, frame, over, c)
        if st.turns != c.turns:
            c.turns = st.turns
            c.view[self.start["turn"]] = _unit(st.turns / self.turn_scale)
        marks = st.marks
        kept = c.marks
        if kept is None:  # nothing written yet: every part moved
            kept = [-1] * len(marks)
        looker = seat != c.seat or over != c.over
        if marks == kept and not looker:
            return
        for write in compress(self._writers, map(ne, marks, kept)):
            write(st, c)
        if looker or marks[HAND:] != kept[HAND:]:
            self._update_held(st, seat, over, marks, kept, c)
        if st.battle or c.battle_seen:
            secret = st.secret_tactics
            if (
                marks[SECRETS] != kept[SECRETS]
                or marks[BATTLES] != kept[BATTLES]
                or (seat != c.seat and (secret[seat] or secret[c.seat]))  # a secret shown to itself
            ):
                self._write_battle(st, seat, c)
        if (
            self.missions
            and st.mission_places
            and (marks[MISSIONS_PART] != kept[MISSIONS_PART] or looker)
        ):
            self._write_missions(st, seat, c)
        c.marks = marks[:]
        c.seat, c.over = seat, over

    @cached_property
    def _writers(self) -> list[Write]:
        """Each part's writer, by its place in the marks (marks.py); the parts that depend on the
        seat reading (a battle's, the missions', the hands) are written by ``_update`` itself."""
        writers: dict[int, Write] = {
            ORDER: self._write_order,
            CASTLES: self._write_castles,
            CURSE_MODELS: self._write_curse_models,
            REGIONS: self._write_regions,
            CURSE_BOARD: self._write_curses,
            BATTLES: self._write_battles_left,
            UPGRADE_PILES: self._write_piles,
            HOUSES_PART: self._write_houses,
            SEALS: self._write_seals,
            UPGRADES: self._write_upgrades,
            TACTICS_USED: self._write_tactics_used,
            DECAY_PART: self._write_decay,
            LAND_FLAMES_PART: self._write_land_flames,
            CANDLES: self._write_candles,
            TACTICS_BOARD: self._write_tactics_board,
            DECKS: self._write_decks,
            RESOURCES: self._write_resources,
            VP: self._write_vp,
            FLAME_SUPPLY: self._write_flame_supply,
            MANEUVERED: self._write_maneuvered,
            TACTICS: self._write_tactics,
        }
        return [writers.get(part, _nothing) for part in range(HAND)]

    # ------------------------------------------------------------------ the parts, one writer each
    def _write_order(self, st: CandelabriaState, c: _Canvas) -> None:
        m, at, span, n = c.view, self.start, self.span, self.n
        c.clear(span["year"])
        c.clear(span["order"])
        m[at["year"] + st.year - 1] = 1.0
        base = at["order"]
        for place, s in enumerate(st.order):
            m[base + s * n + place] = 1.0

    def _write_castles(self, st: CandelabriaState, c: _Canvas) -> None:
        c.clear(self.span["castles"])
        self._castles(st, c.tab, c.view)

    def _write_curse_models(self, st: CandelabriaState, c: _Canvas) -> None:
        c.clear(self.span["curse_models"])
        c.clear(self.span["curse_owner"])
        self._curse_models(st, c.tab, c.view)

    def _write_regions(self, st: CandelabriaState, c: _Canvas) -> None:
        c.clear((self.start["corrupted"], self.span["temple_top"][1]))
        self._regions(st, c.tab, c.view)

    def _write_curses(self, st: CandelabriaState, c: _Canvas) -> None:
        c.clear((self.start["curse_cards"], self.span["curse_flames"][1]))
        self._curses(st, c.tab, c.view)

    def _write_battles_left(self, st: CandelabriaState, c: _Canvas) -> None:
        m, at = c.view, self.start
        c.clear((at["battles_left"], self.span["battle"][1]))
        for r in st.battles_left:
            m[at["battles_left"] + self.region_index[r]] = 1.0
        for s in st.battle:
            m[at["battle"] + s] = 1.0

    def _write_piles(self, st: CandelabriaState, c: _Canvas) -> None:
        c.clear((self.start["upgrade_tops"], self.span["upgrade_sizes"][1]))
        self._piles(st, c.tab, c.view)

    def _write_houses(self, st: CandelabriaState, c: _Canvas) -> None:
        m, house = c.view, c.tab.house
        c.clear(self.span["houses"])
        base = self.start["houses"]
        for s in range(self.n):
            m[base + s * len(HOUSES) + house[st.house_of[s]]] = 1.0

    def _write_seals(self, st: CandelabriaState, c: _Canvas) -> None:
        c.clear(self.span["deployed"])
        _cards(c.view, self.start["deployed"], self.c, c.tab.card, st.seal_cards)

    def _write_upgrades(self, st: CandelabriaState, c: _Canvas) -> None:
        c.clear(self.span["upgrades"])
        _cards(c.view, self.start["upgrades"], len(TILES), c.tab.tile, st.upgrades)

    def _write_tactics_used(self, st: CandelabriaState, c: _Canvas) -> None:
        c.clear(self.span["tactics_used"])
        base = self.start["tactics_used"]
        for s in range(self.n):
            _counts(c.view, base + s * self.k, c.tab.tactic, st.tactics_used[s])

    def _write_decay(self, st: CandelabriaState, c: _Canvas) -> None:
        if self.decay:
            c.clear(self.span["decay_slots"])
            self._decay(st, c.tab, c.view)
        self._write_decks(st, c)  # the Decay deck's size is shown while the slots are in play

    def _write_land_flames(self, st: CandelabriaState, c: _Canvas) -> None:
        """The territories whose Land Flames differ from the row's (a move places or lifts one or
        two): found by one comparison of the part's ints with those the row was written from."""
        m, land, now = c.view, c.tab.land, st.land_flames
        was = c.land_flames
        if was is None:
            was = c.land_flames = [0] * len(now)
            c.clear(self.span["land_flames"])
        for t in compress(range(len(now)), map(ne, now, was)):
            for i in land[t][was[t]]:
                m[i] = 0.0
            for i in land[t][now[t]]:
                m[i] = 1.0
            was[t] = now[t]

    def _write_candles(self, st: CandelabriaState, c: _Canvas) -> None:
        c.clear(self.span["candles"])
        self._candles(st, c.tab, c.view)

    def _write_tactics_board(self, st: CandelabriaState, c: _Canvas) -> None:
        c.clear(self.span["tactics_board"])
        _counts(c.view, self.start["tactics_board"], c.tab.tactic, st.tactics_board)

    def _write_decks(self, st: CandelabriaState, c: _Canvas) -> None:
        """The temples left and the decks' sizes (every place written)."""
        m, at, temple = c.view, self.start, c.tab.temple
        base = at["temples_left"]
        for colour, left in enumerate(st.temple_supply):
            m[base + temple[colour]] = _unit(left / TEMPLES_EACH)
        decks = at["decks"]
        m[decks] = _unit(len(st.curse_deck) / CURSE_DECK)
        m[decks + 1] = _unit(len(st.tactics_deck) / TACTICS_DECK)
        m[decks + 2] = _unit(len(st.advanced_deck) / len(ADVANCED))
        m[decks + 3] = _unit(len(st.decay_deck) / len(DECAY)) if st.decay_slots else 0.0

    def _write_resources(self, st: CandelabriaState, c: _Canvas) -> None:
        """Each seat's gold and wax, and the reserve (each field written whole)."""
        m, at = c.view, self.start
        _per_seat(m, at["gold"], st.gold, WAREHOUSE)
        _per_seat(m, at["wax"], st.wax, WAREHOUSE)
        m[at["reserve"]] = _unit(st.reserve_gold / RESERVE)
        m[at["reserve"] + 1] = _unit(st.reserve_wax / RESERVE)

    def _write_vp(self, st: CandelabriaState, c: _Canvas) -> None:
        _per_seat(c.view, self.start["vp"], st.vp, VP_SCALE)

    def _write_flame_supply(self, st: CandelabriaState, c: _Canvas) -> None:
        m, at = c.view, self.start
        _per_seat(m, at["land_supply"], st.land_flame_supply, LAND_FLAMES)
        _per_seat(m, at["candle_supply"], st.candle_flame_supply, CANDLE_FLAMES)

    def _write_maneuvered(self, st: CandelabriaState, c: _Canvas) -> None:
        c.clear(self.span["maneuvered"])
        _cards(c.view, self.start["maneuvered"], self.c, c.tab.card, st.maneuvered)

    def _write_tactics(self, st: CandelabriaState, c: _Canvas) -> None:
        c.clear(self.span["tactics"])
        base = self.start["tactics"]
        for s in range(self.n):
            _counts(c.view, base + s * self.k, c.tab.tactic, st.tactics[s])

    # ------------------------------------------------------------------ the parts the seat sees
    def _update_held(
        self,
        st: CandelabriaState,
        seat: int,
        over: bool,
        marks: list[int],
        kept: list[int],
        c: _Canvas,
    ) -> None:
        """Each seat's hand size and the cards it is known to hold (its own hand to itself, every
        hand once over): a seat's section again when its hand's mark moved, or when it is the seat
        reading now or the one that read last (or the game ended since)."""
        ended = over != c.over
        looked = seat != c.seat  # the own hand shown to another seat: its section and the last's
        m, card, at = c.view, c.tab.card, self.start
        hands, known = st.hands, st.known_hands
        for s in range(self.n):
            if marks[HAND + s] == kept[HAND + s] and not ended:
                if not (looked and (s == seat or s == c.seat)):
                    continue
                if hands[s] == known[s]:  # every card of it known: the same to any seat
                    continue
            hand = hands[s]
            m[at["hand_size"] + s] = _unit(len(hand) / HAND_SCALE)
            cards = hand if s == seat or over else known[s]
            base = at["known_cards"] + s * self.c
            c.clear((base, base + self.c))
            for code in cards:
                m[base + card[code]] = 1.0

    def _write_battle(self, st: CandelabriaState, seat: int, c: _Canvas) -> None:
        """A battle's secret and played tactic cards."""
        c.clear((self.start["chosen"], self.span["played"][1]))  # chosen, my_secret, played
        self._battle(st, seat, c.tab, c.view)
        c.battle_seen = bool(st.battle)

    def _write_missions(self, st: CandelabriaState, seat: int, c: _Canvas) -> None:
        """The missions: their places, the public ones, the private ones the seat may see, the box."""
        c.clear((self.start["mission_public"], self.span["mission_box"][1]))
        self._missions_state(st, seat, c.tab, c.view)

    def _head(
        self, st: CandelabriaState, seat: int, frame: list[int], over: bool, c: _Canvas
    ) -> None:
        """What changes at almost every decision, written each time: who looks, whose turn, the
        pending decision, the season, and the end. The places written are kept, to clear next time."""
        m = c.view
        for i in c.head:
            m[i] = 0.0
        at = self.start
        if over:
            ones = [at["me"] + seat, at["over"], at["season"] + 2]
            ones += [at["winners"] + s for s in st.winning_seats]
            for i in ones:
                m[i] = 1.0
            base = at["scores"]
            for s, score in enumerate(st.final_scores):
                m[base + s] = _unit(score / VP_SCALE)
                ones.append(base + s)
            c.head = ones
            return
        season = 0
        for f in st.stack:
            if f[0] in _WAR_STEPS:
                season = 1
                break
        me, active, seasons, to_act, decision = self._head_places
        kind = frame[0]
        if kind == _SECRET:
            secret = st.secret_tactics
            ones = [me + seat, active + st.active, seasons + season, decision + _SECRET_DECISION]
            ones += [to_act + s for s in st.battle if not secret[s]]
        else:
            ones = [
                me + seat,
                active + st.active,
                seasons + season,
                to_act + frame[1],
                decision + PHASE_DECISION[kind],
            ]
        numbers = (
            self._pending_state(st, seat, frame, c.tab, m, ones) if kind in _DETAILED else None
        )
        for i in ones:
            m[i] = 1.0
        c.head = ones + numbers if numbers else ones

    @cached_property
    def _head_places(self) -> tuple[int, int, int, int, int]:
        """Where the head's fields start: who looks, whose turn, the season, who acts, the
        decision."""
        at = self.start
        return at["me"], at["active"], at["season"], at["to_act"], at["decision"]

    def _pending_state(
        self,
        st: CandelabriaState,
        seat: int,
        frame: list[int],
        tab: _Tables,
        m: Memory,
        ones: list[int],
    ) -> list[int]:
        """The details of ``_pending`` of view.typed_pending, for the decision on top of the stack
        (one of ``_DETAILED``; the caller wrote which decision it is). The places of its ones are
        added to ``ones`` (the caller writes them); its numbers are written here, and their places
        returned."""
        at = self.start
        kind = frame[0]
        numbers: list[int] = []
        if kind in _COUNTED:
            m[at["p_count"]] = _unit(frame[2] / COUNT_SCALE)
            numbers.append(at["p_count"])
            if kind in _COUNTED_REGION and frame[3] >= 0:
                ones.append(at["p_region"] + self.region_index[frame[3]])
        elif kind in _REGION:
            ones.append(at["p_region"] + self.region_index[frame[2]])
        elif kind in _TERRITORY:
            ones.append(at["p_territory"] + tab.terr[frame[2]])
            if kind == _PUSH_TO:
                ones.append(at["p_candle"] + frame[4] * 3 + frame[5])
                m[at["p_steps"]] = _unit(frame[3] / 3.0)
                numbers.append(at["p_steps"])
        elif kind == _MOVE:
            m[at["p_moves_left"]] = _unit(frame[2] / 3.0)
            m[at["p_extra_used"]] = float(bool(frame[3]))
            numbers += (at["p_moves_left"], at["p_extra_used"])
        elif kind == _DEPLOY_AT:
            ones.append(at["p_role"] + frame[2])
        elif kind == _CURSE_AT:
            ones.append(at["p_curse"] + frame[2])
        elif kind == _LIFT_TO:
            ones.append(at["p_candle"] + frame[2] * 3 + frame[3])
        elif kind == _KEEP:
            if seat == frame[1]:  # the cards drawn, to their drawer only
                card = tab.card
                base = at["p_cards"]
                ones += [base + card[code] for code in st.set_aside]
        elif kind in _DECAYED and frame[2] >= 0:
            ones.append(at["p_decay"] + tab.decay[frame[2]])
        return numbers

    def _castles(self, st: CandelabriaState, tab: _Tables, m: Memory) -> None:
        base = self.start["castles"]
        n = self.n
        seen: list[int] = []
        for s, t in enumerate(st.castles):
            if t >= 0 and t not in seen:  # one castle a territory: the lowest seat's (the view's)
                seen.append(t)
                m[base + tab.terr[t] * n + s] = 1.0

    def _candles(self, st: CandelabriaState, tab: _Tables, m: Memory) -> None:
        base = self.start["candles"]
        n = self.n
        terr = tab.terr
        for s in range(n):
            where = st.candle_territories[s]
            on = st.candle_flames[s]
            for r in range(3):
                t = where[r]
                if t >= 0:
                    m[base + (terr[t] * n + s) * 3 + r] = _unit((on[r] + 1) / (ROLE_FLAMES + 1))

    def _curse_models(self, st: CandelabriaState, tab: _Tables, m: Memory) -> None:
        at = self.start
        n = self.n
        owners = st.curse_owners
        for k, t in enumerate(st.curse_models):
            if t >= 0:
                m[at["curse_models"] + tab.terr[t] * CURSE_PLACES + k] = 1.0
                if owners[k] >= 0:
                    m[at["curse_owner"] + k * n + owners[k]] = 1.0

    def _regions(self, st: CandelabriaState, tab: _Tables, m: Memory) -> None:
        """Corrupted regions and their temples (levels by colour, the top one)."""
        at = self.start
        ri = self.region_index
        corrupted = st.corrupted
        colour_of = tab.temple
        levels = [0, 0, 0]
        for r in st.board.regions:
            place = ri[r]
            if corrupted >> r & 1:
                m[at["corrupted"] + place] = 1.0
            temples = st.temples[r]
            if temples:
                levels[0] = levels[1] = levels[2] = 0
                for colour in temples:
                    levels[colour_of[colour]] += 1
                base = at["temples"] + place * 3
                for i in range(3):
                    if levels[i]:
                        m[base + i] = TEMPLE_SUMS[levels[i]]
                m[at["temple_top"] + place * 3 + colour_of[temples[-1]]] = 1.0

    def _curses(self, st: CandelabriaState, tab: _Tables, m: Memory) -> None:
        """The Curse Board and the flames before each curse."""
        at = self.start
        n = self.n
        n_curses = len(CURSE_CARDS)
        for k, curse in enumerate(st.curses[:CURSE_PLACES]):
            m[at["curse_cards"] + k * n_curses + tab.curse[curse]] = 1.0
            base = at["curse_flames"] + k * n
            for s, flames in enumerate(st.curse_influence[k]):
                if flames:
                    m[base + s] = _unit(flames / LAND_FLAMES)

    def _piles(self, st: CandelabriaState, tab: _Tables, m: Memory) -> None:
        """The Upgrade piles' tops and sizes."""
        tops, sizes = self.start["upgrade_tops"], self.start["upgrade_sizes"]
        n_tiles = len(TILES)
        for p, pile in enumerate(st.upgrade_piles):
            if pile:
                m[tops + p * n_tiles + tab.tile[pile[-1]]] = 1.0
                m[sizes + p] = _unit(len(pile) / 4.0)

    def _battle(self, st: CandelabriaState, seat: int, tab: _Tables, m: Memory) -> None:
        """In a battle: who has chosen, the seat's own secret choice, the cards revealed."""
        battle = st.battle
        if not battle:
            return
        at = self.start
        k = self.k
        tactic = tab.tactic
        for s in battle:
            played = st.played_tactics[s]
            secret = st.secret_tactics[s]
            if secret:
                m[at["chosen"] + s] = 1.0  # that it has chosen is seen; what, by itself only
                if s == seat:
                    base = at["my_secret"]
                    for slot, code in enumerate(secret):
                        m[base + slot * (k + 1) + (tactic[code] if code >= 0 else k)] = 1.0
            elif any(code != -1 for code in played):
                base = at["played"] + s * SLOTS * (k + 2)
                for slot, code in enumerate(played):
                    index = tactic[code] if code >= 0 else (k + 1 if code == -2 else k)
                    m[base + slot * (k + 2) + index] = 1.0

    def _decay(self, st: CandelabriaState, tab: _Tables, m: Memory) -> None:
        """The Decay cards over each War Board slot."""
        if not st.decay_slots:
            return
        n_decay = len(DECAY)
        for s in range(self.n):
            base = self.start["decay_slots"] + s * SLOTS * n_decay
            for slot, code in enumerate(st.decay_slots[s]):
                if code >= 0:
                    m[base + slot * n_decay + tab.decay[code]] = 1.0

    def _missions_state(self, st: CandelabriaState, seat: int, tab: _Tables, m: Memory) -> None:
        """``_missions`` of view._missions: the public missions, the seat's own private one and those
        revealed, each with its places."""
        at = self.start
        n = self.n
        mission = tab.mission
        places_at = at["mission_places"]

        def places(card: int) -> None:
            base = places_at + mission[card] * 3 * (n + 1)
            for p, holder in enumerate(st.mission_places[card]):
                if holder >= 0:
                    m[base + p * (n + 1) + holder] = 1.0
                elif holder == -2:  # blocked
                    m[base + p * (n + 1) + n] = 1.0

        for card in st.public_missions:
            m[at["mission_public"] + mission[card]] = 1.0
            places(card)
        for owner in range(n):
            if owner == seat or revealed(st, owner):
                card = st.private_missions[owner]
                m[at["mission_private"] + mission[card] * n + owner] = 1.0
                places(card)
        m[at["mission_box"]] = _unit(len(st.mission_box) / len(MISSIONS))

    def _house_choice(self, st: CandelabriaState, seat: int, frame: list[int], c: _Canvas) -> None:
        """``fill`` of view._house_choice (the 2-player house choice): the decided only — the house
        the first chooser took, the supplies — every other field left empty."""
        m = c.view
        at = self.start
        content = st.content
        tab = c.tab
        m[at["me"] + seat] = 1.0
        m[at["to_act"] + frame[1]] = 1.0
        m[at["decision"] + PHASE_DECISION[Phase.PICK]] = 1.0
        m[at["p_stage"] + frame[2]] = 1.0
        if frame[2]:
            first = tab.house[frame[3]]
            m[at["p_first"] + first] = 1.0
            m[at["houses"] + (frame[1] ^ 1) * len(HOUSES) + first] = 1.0
        m[at["year"] + st.year - 1] = 1.0
        season = 0
        for f in st.stack:
            if f[0] in _WAR_STEPS:
                season = 1
                break
        m[at["season"] + season] = 1.0
        m[at["turn"]] = _unit(st.turns / self.turn_scale)
        base = at["temples_left"]
        for colour, left in enumerate(content.temples):
            m[base + tab.temple[colour]] = _unit(left / TEMPLES_EACH)
        m[at["reserve"]] = _unit(content.reserve[0] / RESERVE)
        m[at["reserve"] + 1] = _unit(content.reserve[1] / RESERVE)
        if self.missions and st.mission_places:
            box = len(st.mission_box) + len(st.public_missions) + len(st.private_missions)
            m[at["mission_box"]] = _unit(box / len(MISSIONS))
