"""Candle Quest for the RL adapters: action numbering and view encoding.

Actions (docs/notation/candle-quest.md), in id order: ``flip``, ``pass``, ``buy``, ``sell``; then per
variant — basic and advanced: ``loot S`` for every seat, ``auction N``, ``bid N``, ``pay N`` for
N = 1 … bank (the ``bank`` option: nobody can hold more shekels than the game has), ``discard CODE`` for
every candle code; junior: ``force S`` for every seat, ``pay N``, ``discard CODE``, ``give CODE``.

The observation encodes the seat's (typed) view only (rulings CQ-19): the public table, every discard pile,
how many candles each rival has behind the screen, and the seat's own candles and shekels.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from candlebox.engine import State, game_info
from candlebox.engine.encoding import Config, Layout, ViewEncoder, copy_row, items
from candlebox.engine.plugin import Encoding
from candlebox.games.candle_quest.candles import CODE, COLOUR, KIND, Kind
from candlebox.games.candle_quest.decision import FOR_GUARD, NAMES, Phase
from candlebox.games.candle_quest.scoring import candle_value
from candlebox.games.candle_quest.state import CandleQuestState
from candlebox.games.candle_quest.views import (
    BidPending,
    CandleQuestView,
    FinishedView,
    GivePending,
    OpenSeat,
    PayPending,
    TurnPending,
)

GAME_ID = "candle-quest"

_FACTS = game_info(GAME_ID).facts
CODES: tuple[str, ...] = tuple(_FACTS["candles"])
CODE_INDEX = {code: i for i, code in enumerate(CODES)}
N_COLOURS = len(_FACTS["colours"])
DECISIONS = ("turn", "buy-sell-auction", "bid", "pay", "guard-short", "give")
DECISION_INDEX = {name: i for i, name in enumerate(DECISIONS)}
PHASE_DECISION = {phase: DECISION_INDEX[name] for phase, name in NAMES.items()}
# The state numbers candles by their index in CODE; the encoder by the facts' order (the same today,
# mapped anyway so that neither order can drift from the other unnoticed).
CANDLE_SLOT: tuple[int, ...] = tuple(CODE_INDEX[code] for code in CODE)

COPIES_SCALE = 3.0  # the most copies of one candle code (D9, D10, U4, U6): counts are divided by it
CANDLES_SCALE = 60.0  # candles in the game
DUE_SCALE = 16.0  # the dearest payment: a loot of a Dancing 10 costs 10 + 5
VALUE_SCALE = 128.0  # an advanced collection's candle value stays below this
STEPS_PER_TURN = 13  # see max_game_length
STEP = float(np.float32(1.0 / COPIES_SCALE))
# For the Menorah colours a screen fills (scoring.colours_filled): a Lit candle's colour as a bit.
COLOUR_BIT: tuple[int, ...] = tuple(
    1 << COLOUR[c] if KIND[c] is Kind.LIT else 0 for c in range(len(CODE))
)
IS_DANCING: tuple[bool, ...] = tuple(
    KIND[c] is Kind.DANCING for c in range(len(CODE))
)  # one copy, as the float32 the view encoder adds


# A state read again keeps its last observation (``_Kept``): the public counts (set-aside and removed
# candles, every screen's size, every discard pile and its top) are most of an observation's writing
# and change at few moves, so only what differs from the copies kept with it is written again. This
# many states are kept (a batched env's games and room to spare; the oldest forgotten first).
KEPT_STATES = 256


class _Kept:
    """One state's last observation (``row``) with copies of the state data its count fields were
    written from, and per seat its own section (``my_candles`` … ``my_value``, shekels left zero)
    with the screen it was written from (None: not written, which differs from any data)."""

    __slots__ = ("aside", "mine", "piles", "removed", "row", "screens", "shown", "view", "wins")

    def __init__(self, players: int, size: int) -> None:
        self.aside: list[int] | None = None
        self.removed: list[int] | None = None
        self.screens: list[dict[int, int] | None] = [None] * players
        self.piles: list[list[int] | None] = [None] * players
        self.row = np.zeros(size, dtype=np.float32)
        self.view = items(self.row)
        self.mine: list[tuple[dict[int, int], Any] | None] = [None] * players
        self.shown: tuple[dict[int, int], Any] | None = None  # the own section in the row
        self.wins: list[int] = []  # the winners' places written


UNSEEN = object()  # a state the encoder has not read (or has forgotten)


def _zeros_view(span: tuple[int, int]) -> Any:
    return items(np.zeros(span[1] - span[0], dtype=np.float32))


def _recount(view: Any, places: tuple[int, ...], now: list[int], before: list[int] | None) -> None:
    """A count field written from ``before`` (None: all zeros) to ``now``: only the codes added or
    taken at the end when one list extends the other (piles grow and shrink at their tops, removed
    candles only grow), else every code of either. A code's count is at most 3 (COPIES_SCALE)."""
    step = STEP
    if before is None:
        changed: Any = now
    else:
        k = len(before)
        if len(now) > k and now[:k] == before:
            changed = now[k:]
        elif len(now) < k and before[: len(now)] == now:
            changed = before[len(now) :]
        else:
            changed = {*before, *now}
    for c in changed:
        view[places[c]] = now.count(c) * step


def action_texts(config: Config) -> list[str]:
    n = config.players
    bank = config.options["bank"]
    amounts = range(1, bank + 1)
    texts = ["flip", "pass", "buy", "sell"]
    if config.variant == "junior":
        texts += [f"force {s}" for s in range(n)]
        texts += [f"pay {k}" for k in amounts]
        texts += [f"discard {code}" for code in CODES]
        texts += [f"give {code}" for code in CODES]
    else:
        texts += [f"loot {s}" for s in range(n)]
        texts += [f"auction {k}" for k in amounts]
        texts += [f"bid {k}" for k in amounts]
        texts += [f"pay {k}" for k in amounts]
        texts += [f"discard {code}" for code in CODES]
    return texts


def max_game_length(config: Config) -> int:
    """Decisions in one game are at most 13 per turn: the turn's first action (1), a guard payment
    (at most 3: candles are worth at least 2 and an Unlit candle at most 6), the bonus turn's first
    action (1) and then at most 8 more — a loot's payment (at most 15 owed, candles worth at least 2)
    or an auction's bids (1 + 4 others). Passed turns count as turns, so ``max_turns`` bounds them."""
    return STEPS_PER_TURN * config.options["max_turns"]


def always_a_winner(config: Config) -> bool:
    return True  # every ending names at least one winner (rulings CQ-13, CQ-14, CQ-17)


class CandleQuestEncoder(ViewEncoder):
    def build(self, config: Config, layout: Layout) -> None:
        n = config.players
        t = len(CODES)
        self.n = n
        self.bank_total = float(config.options["bank"])
        self.max_turns = float(config.options["max_turns"])
        layout.add("me", n)  # one-hot: the viewing seat
        layout.add("active", n)  # whose turn it is
        layout.add("to_act", n)  # who owes the pending decision
        layout.add("decision", len(DECISIONS))
        layout.add("over", 1)
        layout.add("bonus_turn", 1)
        layout.add("paying_for_loot", 1)
        layout.add("paying_for_guard", 1)
        layout.add("due", 1)  # / 16
        layout.add("auctioneer", n)
        layout.add("high_bidder", n)
        layout.add("high_bid", 1)  # / bank option
        layout.add("give_to", n)
        layout.add("table", t)  # one-hot: the candle face up on the table
        layout.add("turn", 1)  # / max_turns
        layout.add("stack", 1)  # candles in the draw stack / 60
        layout.add("bank", 1)  # shekels in the bank / bank option
        layout.add("set_aside", t)  # counts / 3
        layout.add("removed", t)  # counts / 3
        layout.add("my_candles", t)  # counts / 3
        layout.add("my_shekels", 1)  # / bank option
        layout.add("my_colours", 1)  # / 8
        layout.add("my_value", 1)  # advanced: candle value / 128
        layout.add("behind_screen", n)  # each seat's candle count / 60
        layout.add("piles", n * t)  # each seat's discard pile, counts / 3
        layout.add("pile_tops", n * t)  # one-hot: the top of each pile (what can be looted)
        layout.add("winners", n)
        self.at = layout.fields
        self.t = t
        self.start = {name: place.start for name, place in layout.fields.items()}

        self._tables(n, t)

    def _tables(self, n: int, t: int) -> None:
        """Absolute places for ``fill_state``: one list index per write instead of offset sums."""
        at = self.start
        slot = CANDLE_SLOT
        self.seat_at = tuple(
            (
                at["me"] + s,
                at["active"] + s,
                at["to_act"] + s,
                at["auctioneer"] + s,
                at["give_to"] + s,
            )
            for s in range(n)
        )
        self.bidder_at = tuple(at["high_bidder"] + s for s in range(n))
        self.decision_at = {phase: at["decision"] + d for phase, d in PHASE_DECISION.items()}
        self.table_at = tuple(at["table"] + slot[c] for c in range(len(slot)))
        self.aside_at = tuple(at["set_aside"] + slot[c] for c in range(len(slot)))
        self.removed_at = tuple(at["removed"] + slot[c] for c in range(len(slot)))
        self.mine_at = tuple(at["my_candles"] + slot[c] for c in range(len(slot)))
        self.pile_at = tuple(
            tuple(at["piles"] + owner * t + slot[c] for c in range(len(slot))) for owner in range(n)
        )
        self.top_at = tuple(
            tuple(at["pile_tops"] + owner * t + slot[c] for c in range(len(slot)))
            for owner in range(n)
        )
        self.behind_at = tuple(at["behind_screen"] + s for s in range(n))
        self.winner_at = tuple(at["winners"] + s for s in range(n))
        self.places = tuple(
            at[name]
            for name in (
                "over", "bonus_turn", "paying_for_guard", "paying_for_loot", "due", "high_bid",
                "turn", "stack", "bank",
            )
        )  # fmt: skip
        self.shekels_at = at["my_shekels"]
        self._section_places(n, t)
        self._kept: dict[int, _Kept | None] = {}  # None: read once

    def _section_places(self, n: int, t: int) -> None:
        """The spans a kept row writes whole: the turn's fields (``me`` … ``bank``, at every read)
        and the seat's own section (``my_candles`` … ``my_value``, copied from its kept one)."""
        at = self.start
        self.head_span = (at["me"], at["bank"] + 1)
        mine = at["my_candles"]
        self.mine_span = (mine, at["my_value"] + 1)
        self.mine_rel = tuple(p - mine for p in self.mine_at)
        self.colours_rel = at["my_colours"] - mine
        self.value_rel = at["my_value"] - mine
        self.no_mine = _zeros_view(self.mine_span)
        self.zeros = items(np.zeros(at["winners"] + n, dtype=np.float32))
        self.head_zeros = self.zeros[self.head_span[0] : self.head_span[1]]

    reads_state = True
    bounded = True  # every number is a share of a bound it cannot pass (see the scales above)

    def fill_state(self, state: State, seat: int, out: np.ndarray) -> None:
        """``fill`` of ``typed_view(state, seat)``, read from the state: the public table, and of the
        screens only the seat's own (every screen's candle count is public).

        Written in the state's kept row (``_row``) and copied whole into ``out``."""
        assert isinstance(state, CandleQuestState)
        kept = self._row(state, seat)
        copy_row(out, kept.row, kept.view)

    def fill_state_items(self, state: State, seat: int, mv: Any) -> None:
        """``fill_state`` into a row given as its memoryview (``items(row)``): a batched env passes
        the views of its rows, made once (making one costs as much as several writes)."""
        assert isinstance(state, CandleQuestState)
        mv[:] = self._row(state, seat).view

    def encode_state(
        self, state: State, seat: int, out: np.ndarray | None = None, clip: bool = True
    ) -> np.ndarray:
        """As ``ViewEncoder.encode_state``, without clearing ``out`` first: the kept row is copied
        whole, and its numbers are in [0, 1] as written."""
        assert isinstance(state, CandleQuestState)
        row = self._row(state, seat).row
        if out is None:
            return row.copy()
        out[:] = row
        return out

    def _row(self, st: CandleQuestState, seat: int) -> _Kept:
        """The seat's observation of the state, in the state's kept row: kept from the state's
        second read on, a fresh one for a first read (a search's copies are read once).

        Written item by item through a memoryview (an item write costs a third of numpy's) at
        places precomputed in ``_tables``. A count ``k`` of one candle code is written as
        ``k * STEP`` (``STEP`` is 1/3 as float32; ``k`` <= 3), which rounds exactly as the view
        encoder's float32 additions do."""
        if st.content.code is not CODE and st.content.code != CODE:
            raise ValueError(
                "the Candle Quest encoding knows the printed candles only: this game plays a "
                "content pack with other candle codes"
            )
        key = id(st)
        kept: Any = self._kept.get(key, UNSEEN)
        if kept is None or kept is UNSEEN:
            fresh = _Kept(st.num_players, self.size)
            self._remember(key, None if kept is UNSEEN else fresh)
            kept = fresh
        over_at, bonus_at, guard_at, loot_at, due_at, high_at, turn_at, stack_at, bank_at = (
            self.places
        )
        mv = kept.view
        first, last = self.head_span
        mv[first:last] = self.head_zeros
        phase = st.phase
        mv[self.seat_at[seat][0]] = 1.0
        if phase is Phase.OVER:
            mv[over_at] = 1.0
        else:
            active = self.seat_at[st.active]
            mv[active[1]] = 1.0
            mv[self.seat_at[st.actor][2]] = 1.0
            mv[self.decision_at[phase]] = 1.0
            if phase is Phase.TURN:
                if st.bonus:
                    mv[bonus_at] = 1.0
            elif phase is Phase.PAY:
                mv[guard_at if st.paying == FOR_GUARD else loot_at] = 1.0
                mv[due_at] = st.due / DUE_SCALE
            elif phase is Phase.BID:
                mv[active[3]] = 1.0
                if st.high_bidder >= 0:
                    mv[self.bidder_at[st.high_bidder]] = 1.0
                mv[high_at] = max(0, st.high) / self.bank_total
            elif phase is Phase.GIVE:
                mv[active[4]] = 1.0
        if st.table >= 0:
            mv[self.table_at[st.table]] = 1.0
        mv[turn_at] = st.turns / self.max_turns
        mv[stack_at] = len(st.stack) / CANDLES_SCALE
        mv[bank_at] = st.bank / self.bank_total
        self._refresh(st, kept)
        entry = self._mine(st, seat, kept)
        if entry is not kept.shown:
            first, last = self.mine_span
            mv[first:last] = entry[1]
            kept.shown = entry
        mv[self.shekels_at] = st.shekels[seat] / self.bank_total
        if kept.wins or phase is Phase.OVER:
            for i in kept.wins:
                mv[i] = 0.0
            kept.wins = [self.winner_at[w] for w in st.winners] if phase is Phase.OVER else []
            for i in kept.wins:
                mv[i] = 1.0
        return kept

    def _remember(self, key: int, kept: _Kept | None) -> None:
        known = self._kept
        if key not in known and len(known) >= KEPT_STATES:
            # the state first read longest ago (pop, not del: bots in threads share the encoder)
            known.pop(next(iter(known)), None)
        known[key] = kept

    def _refresh(self, st: CandleQuestState, kept: _Kept) -> None:
        """The count fields whose state data differ from the kept copies, written anew (compared
        by value: right whatever state the row was last written for)."""
        kv = kept.view
        if kept.aside != st.aside:
            _recount(kv, self.aside_at, st.aside, kept.aside)
            kept.aside = st.aside[:]
        if kept.removed != st.removed:
            _recount(kv, self.removed_at, st.removed, kept.removed)
            kept.removed = st.removed[:]
        if kept.screens != st.screens:
            for owner, screen in enumerate(st.screens):
                if screen != kept.screens[owner]:
                    kv[self.behind_at[owner]] = sum(screen.values()) / CANDLES_SCALE
                    kept.screens[owner] = screen.copy()
        if kept.piles != st.piles:
            for owner, pile in enumerate(st.piles):
                old = kept.piles[owner]
                if pile != old:
                    self._repile(kv, owner, pile, old)
                    kept.piles[owner] = pile[:]

    def _repile(self, kv: Any, owner: int, pile: list[int], old: list[int] | None) -> None:
        """One discard pile's counts and top: only the candles added or taken when the pile grew
        or shrank at its top (a sale, a payment, a loot), else the whole pile (a new stack)."""
        places = self.pile_at[owner]
        tops = self.top_at[owner]
        if old:  # None or empty: no top to clear
            kv[tops[old[-1]]] = 0.0
        _recount(kv, places, pile, old)
        if pile:
            kv[tops[pile[-1]]] = 1.0

    def _mine(self, st: CandleQuestState, seat: int, kept: _Kept) -> tuple[dict[int, int], Any]:
        """The seat's own section (candles, colours filled, advanced candle value; its shekels are
        written by the caller) with the screen it shows, written anew (a new entry) only when the
        screen changed. Called after ``_refresh``, whose copy of the seat's screen is a new dict
        whenever the screen changed and is never changed itself: an entry made from that very copy
        is current, known without comparing the screens."""
        screen = kept.screens[seat]
        assert screen is not None  # _refresh copied every screen
        entry = kept.mine[seat]
        if entry is not None and entry[0] is screen:
            return entry
        view = entry[1] if entry is not None else _zeros_view(self.mine_span)
        if entry is not None:
            view[:] = self.no_mine
        places = self.mine_rel
        step = STEP
        lit = dancing = 0  # colours_filled, inlined: Lit colours as bits, Dancing candles counted
        for candle, copies in screen.items():
            # copies <= 3: the product is the float32 sum of ``copies`` steps, as the view's counts
            view[places[candle]] = copies * step
            bit = COLOUR_BIT[candle]
            if bit:
                lit |= bit
            elif IS_DANCING[candle]:
                dancing += copies
        view[self.colours_rel] = min(N_COLOURS, lit.bit_count() + dancing) / N_COLOURS
        if st.advanced:
            view[self.value_rel] = candle_value(screen, st.content) / VALUE_SCALE
        entry = kept.mine[seat] = (screen, view)
        return entry

    def __getstate__(self) -> dict[str, object]:
        """Pickled (for a worker process) without the kept rows: they are a cache."""
        state = dict(self.__dict__)
        state["_kept"] = {}
        state["no_mine"] = state["zeros"] = state["head_zeros"] = None
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self.no_mine = _zeros_view(self.mine_span)
        self.zeros = items(np.zeros(self.start["winners"] + self.n, dtype=np.float32))
        self.head_zeros = self.zeros[self.head_span[0] : self.head_span[1]]

    def fill(self, view: CandleQuestView, out: np.ndarray) -> None:
        at = self.at
        t = self.t
        seat = view.seat
        pending = view.pending
        self.fill_seats(out, seat, view.active, None if pending is None else pending.seats)
        if pending is not None:
            out[at["decision"].start + DECISION_INDEX[pending.decision]] = 1.0
            if isinstance(pending, TurnPending):
                if pending.bonus_turn:
                    out[at["bonus_turn"].start] = 1.0
            elif isinstance(pending, PayPending):
                if pending.paying_for == "loot":
                    out[at["paying_for_loot"].start] = 1.0
                elif pending.paying_for == "guard":
                    out[at["paying_for_guard"].start] = 1.0
                out[at["due"].start] = pending.due / DUE_SCALE
            elif isinstance(pending, BidPending):
                out[at["auctioneer"].start + pending.auctioneer] = 1.0
                if pending.high_bidder >= 0:
                    out[at["high_bidder"].start + pending.high_bidder] = 1.0
                out[at["high_bid"].start] = max(0, pending.high_bid) / self.bank_total
            elif isinstance(pending, GivePending):
                out[at["give_to"].start + pending.to] = 1.0
        if view.table is not None:
            out[at["table"].start + CODE_INDEX[view.table]] = 1.0
        out[at["turn"].start] = view.turn / self.max_turns
        out[at["stack"].start] = view.stack / CANDLES_SCALE
        out[at["bank"].start] = view.bank / self.bank_total
        _counts(out, at["set_aside"].start, view.set_aside)
        _counts(out, at["removed"].start, view.removed)
        for info in view.seats:
            owner = info.seat
            out[at["behind_screen"].start + owner] = info.candles_behind_screen / CANDLES_SCALE
            pile = info.discard_pile
            _counts(out, at["piles"].start + owner * t, pile)
            if pile:
                out[at["pile_tops"].start + owner * t + CODE_INDEX[pile[-1]]] = 1.0
            if owner == seat and isinstance(info, OpenSeat):
                _counts(out, at["my_candles"].start, info.candles)
                out[at["my_shekels"].start] = info.shekels / self.bank_total
                out[at["my_colours"].start] = info.colours / N_COLOURS
                if isinstance(info.candle_value, int):
                    out[at["my_value"].start] = info.candle_value / VALUE_SCALE
        if isinstance(view, FinishedView):
            self.fill_winners(out, view.winners)


def _counts(out: np.ndarray, start: int, codes: list[str]) -> None:
    ViewEncoder.add_counts(out, start, [CODE_INDEX[code] for code in codes], 1.0 / COPIES_SCALE)


def encoder(config: Config) -> CandleQuestEncoder:
    return CandleQuestEncoder(config)


ENCODING = Encoding(
    action_texts=action_texts,
    encoder=encoder,
    max_game_length=max_game_length,
    always_a_winner=always_a_winner,
)
