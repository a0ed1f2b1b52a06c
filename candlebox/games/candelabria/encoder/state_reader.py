"""The adapters' path: the observation written from a Candelabria state without building its view,
the same numbers as ``fill`` writes from the typed view (tests/rl/test_state_encoders.py).
"""

from __future__ import annotations

import numpy as np

from candlebox.engine import State
from candlebox.engine.encoding import copy_row
from candlebox.games.candelabria.decision import NAMES, Auto, Phase
from candlebox.games.candelabria.encoder.canvas import (
    TEMPLE_SUMS,
    Memory,
    _Canvas,
    _cards,
    _copy,
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
# Each decision kind's place in DECISIONS (view: NAMES[kind]); kinds no view shows are absent.
PHASE_DECISION = {
    kind: DECISION_INDEX[name] for kind, name in NAMES.items() if name in DECISION_INDEX
}

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
        observation written for that state and a copy of each piece of state data it was written
        from. Only the fields whose data differ now are written again: between two decisions of a
        game most of the board is unchanged, and comparing a list with its copy costs far less than
        writing its fields. The copies are compared by value, never by identity, so a canvas is right
        for any state whatever state it was written for; the seat is part of the data of every field
        that depends on it.
        """
        assert isinstance(state, CandelabriaState)
        st = state
        canvases = self._canvases
        key = id(st)
        c = canvases.pop(key, None)
        if c is None or c.content is not st.content or c.tab.board is not st.board:
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
            if c.picked:  # none of the house choice's places is a field's data: start afresh
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
        """Write in the canvas what differs from what it was written from; each field as ``fill``
        writes it, clipped. The data that change seldom are first compared all at once."""
        over = frame[0] == _OVER
        self._head(st, seat, frame, over, c)
        if (
            st.year,
            st.order,
            st.castles,
            st.curse_models,
            st.curse_owners,
            st.corrupted,
            st.temples,
            st.curses,
            st.curse_influence,
            st.battles_left,
            st.battle,
            st.upgrade_piles,
            st.house_of,
            st.seal_cards,
            st.upgrades,
            st.tactics_used,
            st.decay_slots,
        ) != c.seldom:
            self._seldom(st, c)
        if st.turns != c.turns:
            c.turns = st.turns
            c.view[self.start["turn"]] = _unit(st.turns / self.turn_scale)
        self._update_map(st, c)
        self._update_boards(st, c)
        self._update_seats(st, c)
        self._update_held(st, seat, over, c)
        self._update_battle(st, seat, c)
        self._update_missions(st, seat, over, c)

    def _update_map(self, st: CandelabriaState, c: _Canvas) -> None:
        """The map: the Land Flames, the candles and their flames."""
        m, tab, span = c.view, c.tab, self.span
        if st.land_flames != c.land_flames:
            c.land_flames = st.land_flames[:]
            c.clear(span["land_flames"])
            for places, flames in zip(tab.land, st.land_flames, strict=True):
                if flames:
                    for i in places[flames]:
                        m[i] = 1.0
        if st.candle_territories != c.candle_territories or st.candle_flames != c.candle_flames:
            c.candle_territories = _copy(st.candle_territories)
            c.candle_flames = _copy(st.candle_flames)
            c.clear(span["candles"])
            self._candles(st, tab, m)

    def _update_boards(self, st: CandelabriaState, c: _Canvas) -> None:
        """The public boards and decks: the Tactics board, the decks' sizes, the supplies."""
        m, tab, at, span = c.view, c.tab, self.start, self.span
        if st.tactics_board != c.tactics_board:
            c.tactics_board = st.tactics_board[:]
            c.clear(span["tactics_board"])
            _counts(m, at["tactics_board"], tab.tactic, st.tactics_board)
        decay_deck = len(st.decay_deck) if st.decay_slots else -1  # the view shows it with Decay
        if (
            len(st.advanced_deck) != c.advanced_deck
            or len(st.curse_deck) != c.curse_deck
            or len(st.tactics_deck) != c.tactics_deck
            or decay_deck != c.decay_deck
            or st.temple_supply != c.temple_supply
            or st.reserve_gold != c.reserve_gold
            or st.reserve_wax != c.reserve_wax
        ):
            c.advanced_deck, c.curse_deck = len(st.advanced_deck), len(st.curse_deck)
            c.tactics_deck, c.decay_deck = len(st.tactics_deck), decay_deck
            c.temple_supply = st.temple_supply[:]
            c.reserve_gold, c.reserve_wax = st.reserve_gold, st.reserve_wax
            self._supplies(st, tab, m)

    def _update_seats(self, st: CandelabriaState, c: _Canvas) -> None:
        """Each seat's VP, gold, wax, supplies and hand size (each field written whole: nothing to
        clear)."""
        m, at = c.view, self.start
        if st.vp != c.vp:
            c.vp = st.vp[:]
            _per_seat(m, at["vp"], st.vp, VP_SCALE)
        if st.gold != c.gold:
            c.gold = st.gold[:]
            _per_seat(m, at["gold"], st.gold, WAREHOUSE)
        if st.wax != c.wax:
            c.wax = st.wax[:]
            _per_seat(m, at["wax"], st.wax, WAREHOUSE)
        if st.land_flame_supply != c.land_flame_supply:
            c.land_flame_supply = st.land_flame_supply[:]
            _per_seat(m, at["land_supply"], st.land_flame_supply, LAND_FLAMES)
        if st.candle_flame_supply != c.candle_flame_supply:
            c.candle_flame_supply = st.candle_flame_supply[:]
            _per_seat(m, at["candle_supply"], st.candle_flame_supply, CANDLE_FLAMES)
        hands = st.hands
        sizes = list(map(len, hands))
        if sizes != c.hand_sizes:
            c.hand_sizes = sizes
            _per_seat(m, at["hand_size"], sizes, HAND_SCALE)

    def _update_held(self, st: CandelabriaState, seat: int, over: bool, c: _Canvas) -> None:
        """The cards each seat is known to hold (its own hand to itself, every hand once over), the
        maneuvered cards and the tactic cards held."""
        m, tab, at, span, n = c.view, c.tab, self.start, self.span, self.n
        hands = st.hands
        shown = c.shown
        if shown is None:
            shown = c.shown = [None] * n
        known = st.known_hands
        for s in range(n):
            cards = hands[s] if s == seat or over else known[s]
            if cards != shown[s]:
                shown[s] = cards[:]
                base = at["known_cards"] + s * self.c
                c.clear((base, base + self.c))
                for code in cards:
                    m[base + tab.card[code]] = 1.0
        if st.maneuvered != c.maneuvered:
            c.maneuvered = _copy(st.maneuvered)
            c.clear(span["maneuvered"])
            _cards(m, at["maneuvered"], self.c, tab.card, st.maneuvered)
        if st.tactics != c.tactics:
            c.tactics = _copy(st.tactics)
            c.clear(span["tactics"])
            for s in range(n):
                _counts(m, at["tactics"] + s * self.k, tab.tactic, st.tactics[s])

    def _update_battle(self, st: CandelabriaState, seat: int, c: _Canvas) -> None:
        """A battle's secret and played tactic cards."""
        at, span = self.start, self.span
        if (st.battle or c.battle_seen) and (  # out of battle, and written so: nothing to do
            st.battle != c.battle_seen
            or st.secret_tactics != c.secret_tactics
            or st.played_tactics != c.played_tactics
            or seat != c.secret_seat
        ):
            c.battle_seen = st.battle[:]
            c.secret_tactics = _copy(st.secret_tactics)
            c.played_tactics = _copy(st.played_tactics)
            c.secret_seat = seat
            c.clear((at["chosen"], span["played"][1]))  # chosen, my_secret, played
            self._battle(st, seat, c.tab, c.view)

    def _update_missions(self, st: CandelabriaState, seat: int, over: bool, c: _Canvas) -> None:
        """The missions: their places, the public ones, the private ones the seat may see, the box."""
        at, span = self.start, self.span
        if (
            self.missions
            and st.mission_places
            and (
                st.mission_places != c.mission_places
                or seat != c.mission_seat
                or over != c.mission_over
                or st.public_missions != c.public_missions
                or st.private_missions != c.private_missions
                or len(st.mission_box) != c.mission_box
            )
        ):
            c.mission_places = _copy(st.mission_places)
            c.mission_seat, c.mission_over = seat, over
            c.public_missions = st.public_missions[:]
            c.private_missions = st.private_missions[:]
            c.mission_box = len(st.mission_box)
            c.clear((at["mission_public"], span["mission_box"][1]))
            self._missions_state(st, seat, c.tab, c.view)

    def _seldom(self, st: CandelabriaState, c: _Canvas) -> None:
        """The fields whose data change seldom (some of them differ): each written again if its
        data differ, and the copies compared all at once kept."""
        self._seldom_board(st, c)
        self._seldom_seats(st, c)
        c.seldom = (
            c.year,
            c.order,
            c.castles,
            c.curse_models,
            c.curse_owners,
            c.corrupted,
            c.temples,
            c.curses,
            c.curse_influence,
            c.battles_left,
            c.battle,
            c.upgrade_piles,
            c.house_of,
            c.seal_cards,
            c.upgrades,
            c.tactics_used,
            c.decay_slots,
        )

    def _seldom_board(self, st: CandelabriaState, c: _Canvas) -> None:
        """The year and turn order, the map's castles, curses and regions, the Curse Board, the
        battles and the Upgrade piles."""
        m = c.view
        tab = c.tab
        at = self.start
        span = self.span
        n = self.n
        if st.year != c.year or st.order != c.order:
            c.year, c.order = st.year, st.order[:]
            c.clear(span["year"])
            c.clear(span["order"])
            m[at["year"] + st.year - 1] = 1.0
            base = at["order"]
            for place, s in enumerate(st.order):
                m[base + s * n + place] = 1.0
        if st.castles != c.castles:
            c.castles = st.castles[:]
            c.clear(span["castles"])
            self._castles(st, tab, m)
        if st.curse_models != c.curse_models or st.curse_owners != c.curse_owners:
            c.curse_models, c.curse_owners = st.curse_models[:], st.curse_owners[:]
            c.clear(span["curse_models"])
            c.clear(span["curse_owner"])
            self._curse_models(st, tab, m)
        if st.corrupted != c.corrupted or st.temples != c.temples:
            c.corrupted, c.temples = st.corrupted, _copy(st.temples)
            c.clear((at["corrupted"], span["temple_top"][1]))
            self._regions(st, tab, m)
        # the Curse Board and the War Season
        if st.curses != c.curses or st.curse_influence != c.curse_influence:
            c.curses, c.curse_influence = st.curses[:], _copy(st.curse_influence)
            c.clear((at["curse_cards"], span["curse_flames"][1]))
            self._curses(st, tab, m)
        if st.battles_left != c.battles_left or st.battle != c.battle:
            c.battles_left, c.battle = st.battles_left[:], st.battle[:]
            c.clear((at["battles_left"], span["battle"][1]))
            for r in st.battles_left:
                m[at["battles_left"] + self.region_index[r]] = 1.0
            for s in st.battle:
                m[at["battle"] + s] = 1.0
        if st.upgrade_piles != c.upgrade_piles:
            c.upgrade_piles = _copy(st.upgrade_piles)
            c.clear((at["upgrade_tops"], span["upgrade_sizes"][1]))
            self._piles(st, tab, m)

    def _seldom_seats(self, st: CandelabriaState, c: _Canvas) -> None:
        """Each seat's house, deployed cards, upgrades, used tactic cards and Decay cards."""
        m = c.view
        tab = c.tab
        at = self.start
        span = self.span
        n = self.n
        if st.house_of != c.house_of:
            c.house_of = st.house_of[:]
            c.clear(span["houses"])
            base = at["houses"]
            for s in range(n):
                m[base + s * len(HOUSES) + tab.house[st.house_of[s]]] = 1.0
        if st.seal_cards != c.seal_cards:
            c.seal_cards = _copy(st.seal_cards)
            c.clear(span["deployed"])
            _cards(m, at["deployed"], self.c, tab.card, st.seal_cards)
        if st.upgrades != c.upgrades:
            c.upgrades = _copy(st.upgrades)
            c.clear(span["upgrades"])
            _cards(m, at["upgrades"], len(TILES), tab.tile, st.upgrades)
        if st.tactics_used != c.tactics_used:
            c.tactics_used = _copy(st.tactics_used)
            c.clear(span["tactics_used"])
            for s in range(n):
                _counts(m, at["tactics_used"] + s * self.k, tab.tactic, st.tactics_used[s])
        if st.decay_slots != c.decay_slots:
            c.decay_slots = _copy(st.decay_slots)
            if self.decay:
                c.clear(span["decay_slots"])
                self._decay(st, tab, m)

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
        ones = [at["me"] + seat, at["active"] + st.active, at["season"] + season]
        if frame[0] == _SECRET:
            secret = st.secret_tactics
            base = at["to_act"]
            ones += [base + s for s in st.battle if not secret[s]]
        else:
            ones.append(at["to_act"] + frame[1])
        numbers = self._pending_state(st, seat, frame, c.tab, m, ones)
        for i in ones:
            m[i] = 1.0
        c.head = ones + numbers if numbers else ones

    def _pending_state(
        self,
        st: CandelabriaState,
        seat: int,
        frame: list[int],
        tab: _Tables,
        m: Memory,
        ones: list[int],
    ) -> list[int]:
        """``_pending`` of view.typed_pending: the decision on top of the stack and its details. The
        places of its ones are added to ``ones`` (the caller writes them); its numbers are written
        here, and their places returned."""
        at = self.start
        kind = frame[0]
        numbers: list[int] = []
        ones.append(at["decision"] + PHASE_DECISION[kind])
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

    def _supplies(self, st: CandelabriaState, tab: _Tables, m: Memory) -> None:
        """The temples left, the decks' sizes and the reserve (every place written)."""
        at = self.start
        base = at["temples_left"]
        for colour, left in enumerate(st.temple_supply):
            m[base + tab.temple[colour]] = _unit(left / TEMPLES_EACH)
        decks = at["decks"]
        m[decks] = _unit(len(st.curse_deck) / CURSE_DECK)
        m[decks + 1] = _unit(len(st.tactics_deck) / TACTICS_DECK)
        m[decks + 2] = _unit(len(st.advanced_deck) / len(ADVANCED))
        m[decks + 3] = _unit(len(st.decay_deck) / len(DECAY)) if st.decay_slots else 0.0
        m[at["reserve"]] = _unit(st.reserve_gold / RESERVE)
        m[at["reserve"] + 1] = _unit(st.reserve_wax / RESERVE)

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
