"""Candle Quest as JAX functions (``candlebox.rl.jax``): the rules of turn.py, auction.py, loot.py,
payment.py, guard.py, junior.py and scoring.py over fixed-size arrays, so that thousands of games
step at once under ``jax.vmap``.

The engine (the Python modules beside this one) is the reference; ``candlebox.rl.jax.check`` plays
both on the same deals and the same actions and compares them at every step. Observations are the
encoder's (encoder.py: the same layout, the same numbers) and action ids its numbering, so a policy
trained on the PettingZoo env plays here and the reverse.

How the state is held (every array has a size fixed by the configuration):

- the draw stack is ``stack_len`` candles: its top ``stack_len - loose`` in order, an array of
  candle types with the top last (the ``deck`` option's candles, and every candle when ``check``
  gives the engine's own orders through ``step_dealt``), and below them ``loose`` candles in no
  particular order, held as counts by type (``loose_counts``): a draw from them takes a random one
  (a shuffled stack's top is a uniformly random candle of it, and nobody sees the order), one pick
  from the counts, so dealing, rebuilding the stack and mixing set-aside candles back are sums of
  counts, with no array of candles to shuffle, sort or search;
- each discard pile is an array with a length, its top first, and its counts by type; a screen, the
  set-aside and the removed candles are counts by type (their order never shows);
- the arrays of candles and counts are int8 in the state (``NARROW``), int32 in the rules.

Under ``jit``/``vmap`` an illegal action, or any action after the end, leaves that game's state as it
was; called eagerly, ``step`` raises ValueError naming it.
"""

from __future__ import annotations

from collections import Counter
from itertools import pairwise
from typing import Any, NamedTuple, cast

import jax
import jax.numpy as jnp
import numpy as np

from candlebox.engine.encoding import ActionNumbering, Config
from candlebox.engine.plugin import JaxRules
from candlebox.engine.state import State
from candlebox.games.candle_quest import encoder as enc
from candlebox.games.candle_quest.candles import N_COLOURS, Kind
from candlebox.games.candle_quest.decision import FOR_GUARD, FOR_LOOT, Phase
from candlebox.games.candle_quest.scoring import COMPLETION_BONUS
from candlebox.games.candle_quest.setup import JUNIOR_REMOVED_FACE, STARTING_SHEKELS
from candlebox.games.candle_quest.state import CandleQuestState
from candlebox.games.jax_common import (
    concrete,
    every_seat,
    i32,
    one_hot,
    public,
    require_legal,
    share,
)

# What an action id does (its verb), each id's argument being a seat, an amount or a candle type.
FLIP, PASS, BUY, SELL, LOOT, FORCE, AUCTION, BID, PAY, DISCARD, GIVE = range(11)
VERB_OF = {
    "flip": FLIP,
    "pass": PASS,
    "buy": BUY,
    "sell": SELL,
    "loot": LOOT,
    "force": FORCE,
    "auction": AUCTION,
    "bid": BID,
    "pay": PAY,
    "discard": DISCARD,
    "give": GIVE,
}


class CandleQuestJaxState(NamedTuple):
    """One game (or, under vmap, a batch: every field gains a leading axis).

    The first six fields are pgx's: the seat to act (-1 once over), the observation of the seat to
    act (once over: of the seat whose move ended the game), the legal action mask, this step's
    rewards (1 split among the winners at the step that ends the game), and the end: ``truncated``
    when the ``max_turns`` option ended it, ``terminated`` for any other end."""

    current_player: jax.Array
    observation: jax.Array
    legal_action_mask: jax.Array
    rewards: jax.Array
    terminated: jax.Array
    truncated: jax.Array
    phase: jax.Array  # decision.Phase
    actor: jax.Array  # who owes the pending decision, -1 once over
    active: jax.Array  # whose turn it is
    last_actor: jax.Array  # who made the last move
    bonus: jax.Array  # this turn is a bonus turn (after guarding)
    due: jax.Array  # still owed in the payment being made
    paying: jax.Array  # what the payment is for (FOR_LOOT, FOR_GUARD)
    high: jax.Array  # the auction's high bid, -1 if none
    high_bidder: jax.Array
    table: jax.Array  # the candle face up on the table, -1 if none
    turns: jax.Array  # completed turns
    passes: jax.Array  # consecutive turns passed for want of any action
    stack: jax.Array  # [candles] the stack's top stack_len - loose candles, in order, top last
    stack_len: jax.Array
    loose: jax.Array  # the bottom candles of the stack in no order (drawn at random)
    loose_counts: jax.Array  # [types] those loose candles by type
    piles: jax.Array  # [players, candles] each discard pile, its top first (zeros past its end)
    pile_len: jax.Array  # [players]
    pile_counts: jax.Array  # [players, types]
    screens: jax.Array  # [players, types] the candles behind each screen
    shekels: jax.Array  # [players]
    bank: jax.Array
    aside: jax.Array  # [types] Unlit candles set aside this turn
    removed: jax.Array  # [types] removed from the game
    winners: jax.Array  # [players] bool, once over


# The state's arrays of candles and counts by type, held as int8 (a type is under 64, a count at
# most the box's 60 candles): under vmap a step reads and writes every game's whole state, 2.8 kB
# a game so (3 players), 4.6 kB in int32. The rules compute in int32 (``_wide``).
NARROW = ("stack", "loose_counts", "piles", "pile_counts", "screens", "aside", "removed")


def _wide(s: CandleQuestJaxState) -> CandleQuestJaxState:
    """The state with its int8 arrays as int32, as the rules compute (the conversions fuse into
    what reads them)."""
    return s._replace(**{name: i32(getattr(s, name)) for name in NARROW})


def _narrow(s: CandleQuestJaxState) -> CandleQuestJaxState:
    """The state as stored: its arrays of candles and counts as int8."""
    return s._replace(**{name: jnp.asarray(getattr(s, name), jnp.int8) for name in NARROW})


class _Now(NamedTuple):
    """What the legality of the actions reads from a state (``CandleQuestJax._now``)."""

    phase: jax.Array
    is_turn: jax.Array
    can_flip: jax.Array
    turn_any: jax.Array  # any turn action but pass (a flip or a loot/force)
    seat_ok: jax.Array  # [players] the seat may loot this pile (force this screen)
    money: jax.Array
    held: jax.Array  # [types] the seat holds one
    is_top: jax.Array  # [types] of the highest face the seat holds
    price: jax.Array  # the face of the candle on the table
    high: jax.Array
    due: jax.Array


class Deal(NamedTuple):
    """A game's start: the draw stack (its candles in order, types, top last, zeros past them; its
    length; how many of its bottom candles are in no order, and those by type) and the seat that
    starts."""

    stack: jax.Array
    stack_len: jax.Array
    loose: jax.Array
    loose_counts: jax.Array
    start: jax.Array


class CandleQuestJax:
    """The environment of one configuration (``make``): ``init``, ``step``, ``observe``, pgx's API."""

    def __init__(self, config: Config) -> None:
        engine = config.new_game(0)  # the engine checks the options (deck codes, bank) and says why
        st = _candle_quest(engine)
        content = st.content
        if content.code != enc.CODE:
            raise ValueError(
                "the Candle Quest encoding knows the printed candles only: this game plays a "
                "content pack with other candle codes"
            )
        self.config = config
        opts = config.options
        self.num_players = config.players
        self.junior = config.variant == "junior"
        self.advanced = config.variant == "advanced"
        self.tiebreak_shekels = self.advanced and opts.get("tiebreak") == "shekels"
        self.max_turns = int(opts["max_turns"])
        self.bank_total = int(opts["bank"])
        self.first_player: int | None = opts["first_player"]
        types = len(content.code)
        self.types = types
        self.face = np.array(content.face, dtype=np.int32)
        self.sell = np.array(content.sell, dtype=np.int32)
        self.loot_cost = np.array(content.loot_cost, dtype=np.int32)
        self.unlit = np.array([k is Kind.UNLIT for k in content.kind], dtype=bool)
        self.dancing = np.array([k is Kind.DANCING for k in content.kind], dtype=bool)
        lit = np.array([k is Kind.LIT for k in content.kind], dtype=bool)
        # [types, colours]: a Lit candle's colour (the Menorah's places it can fill)
        self.colour_of = np.zeros((types, N_COLOURS), dtype=bool)
        for c in range(types):
            if lit[c]:
                self.colour_of[c, content.colour[c]] = True
        # a Lit type's colour as one bit (0 for the others)
        self.colour_bit = (
            self.colour_of.astype(np.uint32) << np.arange(N_COLOURS, dtype=np.uint32)
        ).sum(axis=1, dtype=np.uint32)
        full = list(content.candles.full_set)
        self.candles = len(full)
        copies = Counter(full)
        # One entry per Dancing candle of the box (its type): the wilds a screen can hold.
        self.wild_types = np.array(
            [c for c in range(types) if self.dancing[c] for _ in range(copies[c])], dtype=np.int32
        )
        self.wild_rank = np.array(
            [sum(1 for d in self.wild_types[:i] if d == t) for i, t in enumerate(self.wild_types)],
            dtype=np.int32,
        )  # which copy of its type each wild entry is
        pool = [
            c
            for c in full
            if not (self.junior and self.unlit[c] and content.face[c] == JUNIOR_REMOVED_FACE)
        ]
        self.pool = np.array(pool, dtype=np.int32)
        self.unlit_types = np.flatnonzero(self.unlit).astype(np.int32)
        # the Unlit types, lowest face first (then lowest type): which one a force takes
        self.unlit_by_face = sorted(self.unlit_types.tolist(), key=lambda c: (self.face[c], c))
        self.unlit_in_pool = int(self.unlit[self.pool].sum())  # the most a flip can set aside
        removed = Counter(full) - Counter(pool)
        self.start_removed = np.array([removed[c] for c in range(types)], dtype=np.int32)
        self.deck: list[int] | None = (
            None if opts["deck"] is None else [content.type_of[code] for code in opts["deck"]]
        )
        # The action numbering: each id's verb and argument (seat, amount or candle type).
        numbering = ActionNumbering(enc.action_texts(config))
        self.num_actions = a = numbering.num_distinct_actions
        verb = np.zeros(a, dtype=np.int32)
        arg = np.zeros(a, dtype=np.int32)
        for number, text in enumerate(numbering.texts):
            word, _, rest = text.partition(" ")
            verb[number] = VERB_OF[word]
            if word in ("discard", "give"):
                arg[number] = content.type_of[rest]
            elif rest:
                arg[number] = int(rest)
        self.verb = verb
        self.arg = arg
        self.runs = _runs(verb, arg)
        self.flip_id = numbering.to_id("flip")
        self.pass_id = numbering.to_id("pass")
        encoder = enc.CandleQuestEncoder(config)
        self.observation_size = encoder.size
        self.fields = [name for name, _, _ in encoder.fields()]
        self.slot = np.array(enc.CANDLE_SLOT, dtype=np.int32)
        self.decision_of = np.array(
            [enc.PHASE_DECISION.get(p, 0) for p in Phase],
            dtype=np.int32,
        )
        bank = self.bank_total
        self.money_share = share(bank, float(bank))
        self.turn_share = share(self.max_turns, float(self.max_turns))
        self.candle_share = share(self.candles, enc.CANDLES_SCALE)
        self.due_share = share(int(self.loot_cost.max() + self.face.max()), enc.DUE_SCALE)
        self.count_share = (np.arange(self.candles + 1, dtype=np.float64) * enc.STEP).astype(
            np.float32
        )
        step = np.float32(enc.STEP)
        exact = np.array_equal(
            np.arange(self.candles + 1, dtype=np.float32) * step, self.count_share
        )
        self.count_step: np.float32 | None = step if exact else None
        self.slot_is_type = bool(np.array_equal(self.slot, np.arange(types)))
        self.colours_share = share(N_COLOURS, float(N_COLOURS))
        most = int(self.face.max()) * (N_COLOURS + len(self.wild_types))
        self.value_share = share(most, enc.VALUE_SCALE)

    # ------------------------------------------------------------------ public API
    def init(self, key: jax.Array) -> CandleQuestJaxState:
        """A new game: the stack shuffled (the ``deck`` option's candles on top, in order) and the
        starting seat drawn (the start-player draw makes every seat as likely), from ``key``."""
        return self.init_dealt(self.first_deal(key))

    def step(self, state: CandleQuestJaxState, action: Any, key: jax.Array) -> CandleQuestJaxState:
        """The seat to act plays ``action`` (an action id); the candles drawn at random from the
        stack's loose part come from ``key``."""
        if concrete(action) and concrete(state.legal_action_mask):
            require_legal(state, action, self.num_actions, self.config.describe())
        # One random word a step (a threefry draw costs as much as a rules' branch): the few
        # draws of a flip take their chances from it through a hash (``_draw``).
        word = jax.random.bits(key, (), jnp.uint32)
        none = jnp.zeros(self.candles, jnp.int32)
        return self._step(state, action, none, none, word, given=False)

    def observe(self, state: CandleQuestJaxState, player: Any) -> jax.Array:
        """The seat's observation: what ``Spec.observe`` (the PettingZoo env's) gives for it."""
        return self._observe(state, i32(player))

    def observe_all(self, state: CandleQuestJaxState) -> jax.Array:
        """Every seat's observation, ``[players, size]``."""
        return every_seat(self._observe, state, self.num_players)

    def legal_action_ids(self, state: CandleQuestJaxState) -> tuple[jax.Array, jax.Array]:
        """The legal actions as ``(ids, valid)``: every id, and the mask (a few hundred ids)."""
        return jnp.arange(self.num_actions, dtype=jnp.int32), state.legal_action_mask

    # ------------------------------------------------------------------ deals
    def first_deal(self, key: jax.Array) -> Deal:
        """The stack after setup and the starting seat, drawn from ``key``."""
        stack = np.zeros(self.candles, dtype=np.int32)
        rest = Counter(self.pool.tolist())
        if self.deck is not None:  # on top, in order (the first code on top)
            stack[: len(self.deck)] = self.deck[::-1]
            rest -= Counter(self.deck)
        loose = np.array([rest[c] for c in range(self.types)], dtype=np.int32)
        if self.first_player is not None:
            start = i32(self.first_player)
        elif self.deck is not None:
            start = i32(0)
        else:
            start = jax.random.randint(key, (), 0, self.num_players, dtype=jnp.int32)
        return Deal(
            jnp.asarray(stack), i32(len(self.pool)), i32(loose.sum()), jnp.asarray(loose), start
        )

    def init_dealt(self, deal: Deal) -> CandleQuestJaxState:
        """A new game from its ``deal``."""
        n, t = self.num_players, self.types
        zero = i32(0)
        blank = CandleQuestJaxState(
            current_player=zero,
            observation=jnp.zeros(self.observation_size, jnp.float32),
            legal_action_mask=jnp.zeros(self.num_actions, bool),
            rewards=jnp.zeros(n, jnp.float32),
            terminated=jnp.asarray(False),
            truncated=jnp.asarray(False),
            phase=i32(Phase.TURN),
            actor=i32(deal.start),
            active=i32(deal.start),
            last_actor=i32(deal.start),
            bonus=jnp.asarray(False),
            due=zero,
            paying=i32(FOR_GUARD),
            high=i32(-1),
            high_bidder=i32(-1),
            table=i32(-1),
            turns=zero,
            passes=zero,
            stack=i32(deal.stack),
            stack_len=i32(deal.stack_len),
            loose=i32(deal.loose),
            loose_counts=i32(deal.loose_counts),
            piles=jnp.zeros((n, self.candles), jnp.int32),
            pile_len=jnp.zeros(n, jnp.int32),
            pile_counts=jnp.zeros((n, t), jnp.int32),
            screens=jnp.zeros((n, t), jnp.int32),
            shekels=jnp.full(n, STARTING_SHEKELS, jnp.int32),
            bank=i32(self.bank_total - STARTING_SHEKELS * n),
            aside=jnp.zeros(t, jnp.int32),
            removed=jnp.asarray(self.start_removed),
            winners=jnp.zeros(n, bool),
        )
        return self._public(_narrow(blank))

    def step_dealt(
        self, state: CandleQuestJaxState, action: Any, rebuilt: jax.Array, mixed: jax.Array
    ) -> CandleQuestJaxState:
        """``step`` with its randomness given: ``rebuilt`` the stack a rebuild from the discard
        piles makes (top last), ``mixed`` the whole stack after set-aside candles are mixed back
        (zeros where none); the stack is then in order, nothing loose."""
        word = jnp.uint32(0)  # unread: a given stack has nothing loose
        return self._step(state, action, i32(rebuilt), i32(mixed), word, given=True)

    def _step(
        self,
        state: CandleQuestJaxState,
        action: Any,
        rebuilt: jax.Array,
        mixed: jax.Array,
        word: jax.Array,
        given: bool,
    ) -> CandleQuestJaxState:
        action = i32(action)
        # The action's legality is the state's own mask at it (made by the step that led here): one
        # byte read, not the rules of every verb run again.
        legal = state.legal_action_mask[jnp.clip(action, 0, self.num_actions - 1)]
        ok = legal & (action >= 0) & (action < self.num_actions) & (state.actor >= 0)
        # An illegal action is no move of any phase (``ok`` is in every phase's flag), so every
        # field keeps its value by the rules themselves: no select between two whole states (under
        # vmap both are made and every array copied).
        after = self._advance(_wide(state), action, ok, rebuilt, mixed, word, given)
        return self._public(_narrow(after))

    # ------------------------------------------------------------------ the legal actions
    def _mask(self, s: CandleQuestJaxState) -> jax.Array:
        """Every id's legality, a verb's run of ids at a time: each run is its arguments (seats,
        amounts, candle types) compared with the state elementwise, so the mask needs no gather
        over its ids (under vmap a gather is a slow loop on a CPU, the runs vectorise)."""
        now = self._now(_wide(s))
        runs = []
        for verb, args in self.runs:
            allowed = self._allowed(now, verb, args)
            runs.append(jnp.broadcast_to(allowed, (len(args),)))
        return jnp.concatenate(runs) & (s.actor >= 0)

    def _now(self, s: CandleQuestJaxState) -> _Now:
        """What the legality of every verb reads from the state, for the seat to act."""
        seat = jnp.maximum(s.actor, 0)
        phase = s.phase
        face = jnp.asarray(self.face)
        money = _row(s.shekels, seat)
        screen = _row(s.screens, seat)
        is_turn = phase == Phase.TURN
        can_flip = (s.stack_len > 0) | (s.pile_len > 1).any()
        seats = jnp.arange(self.num_players)
        if self.junior:
            has_unlit = (screen * jnp.asarray(self.unlit)).sum() > 0
            sizes = s.screens.sum(axis=1)
            seat_ok = has_unlit & (seats != seat) & (sizes > 0)
        else:
            worth = (screen * face).sum()
            seat_ok = (s.pile_len > 0) & (
                jnp.asarray(self.loot_cost)[s.piles[:, 0]] <= money + worth
            )
        held = screen > 0
        top_face = jnp.where(held, face, -1).max()
        return _Now(
            phase=phase,
            is_turn=is_turn,
            can_flip=can_flip,
            turn_any=can_flip | seat_ok.any(),
            seat_ok=seat_ok,
            money=money,
            held=held,
            is_top=face == top_face,
            price=face[jnp.maximum(s.table, 0)],
            high=s.high,
            due=s.due,
        )

    def _allowed(self, now: _Now, verb: int, args: Any) -> jax.Array:
        """Whether ``verb`` with each of ``args`` (a constant array, or one traced argument) is
        legal: the engine's legal actions of each phase."""
        phase = now.phase
        paying = (phase == Phase.PAY) | (phase == Phase.SHORT)
        amounts = jnp.asarray(args)
        if verb == FLIP:
            return now.is_turn & now.can_flip
        if verb == PASS:
            return (now.is_turn & ~now.turn_any) | (phase == Phase.BID)
        if verb == BUY:
            return (phase == Phase.CHOOSE) & (now.money >= now.price)
        if verb == SELL:
            return phase == Phase.CHOOSE
        if verb in (LOOT, FORCE):  # the seat's pile (loot) or screen (force)
            return now.is_turn & _at(now.seat_ok, args, self.num_players)
        if verb == AUCTION:
            return (phase == Phase.CHOOSE) & (not self.junior) & (amounts <= now.money)
        if verb == BID:
            return (phase == Phase.BID) & (amounts > now.high) & (amounts <= now.money)
        if verb == PAY:
            exact = (amounts == now.due) & (now.money >= now.due)
            return paying & jnp.where(phase == Phase.PAY, exact, amounts == now.money)
        held = _at(now.held, args, self.types)
        if verb == DISCARD:
            return paying & held & ((phase == Phase.PAY) | _at(now.is_top, args, self.types))
        return (phase == Phase.GIVE) & held  # GIVE

    # ------------------------------------------------------------------ the rules
    def _draw(
        self,
        s: CandleQuestJaxState,
        flipping: jax.Array,
        rebuilt: jax.Array,
        word: jax.Array,
        given: bool,
    ) -> tuple[CandleQuestJaxState, jax.Array]:
        """turn.flip's drawing: the top candle (a further Unlit one on a bonus turn is set aside and
        another drawn), the stack rebuilt from the discard piles if it runs out (once: the piles
        then hold their tops only). Returns the state and the candle drawn (-1: none).

        The loop runs, under vmap, as long as any game of the batch draws again, so what it
        carries is kept small: the loose candles as counts by type, and the array of candles in
        order only where one can be (``given``, or the ``deck`` option)."""
        if not given and self.deck is None:
            return self._draw_loose(s, flipping, word)
        t = self.types
        unlit = jnp.asarray(self.unlit)
        types = jnp.arange(t)
        ordered = given or self.deck is not None  # whether the stack can hold candles in order
        # The rebuild, made ready: every pile but its top (in the engine's order when given).
        moved = jnp.maximum(s.pile_len - 1, 0).sum()
        tops = s.piles[:, 0]
        kept_counts = ((tops[:, None] == types) & (s.pile_len > 0)[:, None]).astype(jnp.int32)
        rebuild_counts = (s.pile_counts - kept_counts).sum(axis=0)

        def one(carry: tuple) -> tuple:
            stack, length, loose, counts, aside, candle, rebuilt_now, i, _ = carry
            rebuild = (length == 0) & ~rebuilt_now & (moved > 0)
            length = jnp.where(rebuild, moved, length)
            if given:
                stack = jnp.where(rebuild, rebuilt, stack)
            else:
                loose = jnp.where(rebuild, moved, loose)
                counts = jnp.where(rebuild, rebuild_counts, counts)
            draw = length > 0  # else nothing is left to draw: no candle
            in_order = length - loose
            if given:
                from_order = draw
            elif ordered:
                from_order = draw & (in_order > 0)
            else:
                from_order = jnp.asarray(False)
            drawn = stack[jnp.maximum(in_order - 1, 0)] if ordered else i32(0)
            if not given:  # a random loose candle: one pick from the counts
                chance = _hashed(word, i) % jnp.maximum(loose, 1).astype(jnp.uint32)
                chance = chance.astype(jnp.int32)
                picked = jnp.minimum((_prefix_sums(counts) <= chance).sum(), t - 1)
                at_random = draw & ~from_order
                drawn = jnp.where(from_order, drawn, picked)
                counts = counts - ((types == picked) & at_random)
                loose = loose - at_random
            length = length - draw
            aside_it = draw & unlit[drawn] & s.bonus
            aside = aside + ((types == drawn) & aside_it)
            candle = jnp.where(draw & ~aside_it, drawn, candle)
            going = aside_it  # an Unlit candle set aside: draw again
            return (
                stack,
                length,
                loose,
                counts,
                aside,
                candle,
                rebuilt_now | rebuild,
                i + 1,
                going,
            )

        start = (
            s.stack if ordered else jnp.zeros(0, jnp.int32),
            s.stack_len,
            s.loose,
            s.loose_counts,
            s.aside,
            i32(-1),
            jnp.asarray(False),
            i32(0),
            flipping,
        )
        stack, length, loose, counts, aside, candle, rebuilt_now, _, _ = jax.lax.while_loop(
            lambda carry: carry[-1], one, start
        )
        kept_piles = jnp.where(jnp.arange(self.candles) == 0, s.piles, 0)
        drawn_state = s._replace(
            stack=stack if ordered else s.stack,
            stack_len=length,
            loose=loose,
            loose_counts=counts,
            aside=aside,
            piles=jnp.where(rebuilt_now, kept_piles, s.piles),
            pile_len=jnp.where(rebuilt_now, jnp.minimum(s.pile_len, 1), s.pile_len),
            pile_counts=jnp.where(rebuilt_now, kept_counts, s.pile_counts),
        )
        return drawn_state, candle

    def _draw_loose(
        self, s: CandleQuestJaxState, flipping: jax.Array, word: jax.Array
    ) -> tuple[CandleQuestJaxState, jax.Array]:
        """``_draw`` where the whole stack is loose (drawn from keys, no ``deck`` option), with no
        loop: each draw is Unlit or not by a pick among the candles left, the Unlit ones counted
        by type (two numbers); only the candle that ends the flip, if not Unlit, is picked among
        every type's counts, once. A shuffled stack's first candle that is not Unlit is a uniform
        one of those, whatever came before it, so the draws keep the engine's odds. At most every
        Unlit candle of the game is set aside, then one more draw (a rebuilt stack holds none:
        discard piles never do), so the draws unroll to a fixed count, straight-line code that XLA
        fuses (a while loop ran, under vmap, until the batch's longest flip was done)."""
        t = self.types
        types = jnp.arange(t)
        moved = jnp.maximum(s.pile_len - 1, 0).sum()
        tops = s.piles[:, 0]
        kept_counts = ((tops[:, None] == types) & (s.pile_len > 0)[:, None]).astype(jnp.int32)
        rebuild_counts = (s.pile_counts - kept_counts).sum(axis=0)
        # The Unlit types' numbers are per-game scalars in lists (a handful of types): as arrays
        # of that length every sum over them was a reduction of its own, a pass over the batch.
        unlit_types = [int(c) for c in self.unlit_types]
        left = s.loose  # the candles in the stack
        unlit_left = [s.loose_counts[c] for c in unlit_types]  # its Unlit candles by type
        aside = [i32(0) for _ in unlit_types]  # set aside by this flip, by Unlit type
        flipped_unlit = [jnp.asarray(False) for _ in unlit_types]  # flipped (not a bonus turn)
        lit = jnp.asarray(False)  # the flip ends on a candle that is not Unlit
        rebuilt = jnp.asarray(False)
        going = flipping
        for i in range(self.unlit_in_pool + 1):
            rebuild = going & (left == 0) & ~rebuilt & (moved > 0)
            left = jnp.where(rebuild, moved, left)
            unlit_left = [jnp.where(rebuild, 0, u) for u in unlit_left]
            rebuilt = rebuilt | rebuild
            drew = going & (left > 0)  # else nothing is left to draw: no candle
            chance = (_hashed(word, i) % jnp.maximum(left, 1).astype(jnp.uint32)).astype(jnp.int32)
            first = i32(0)  # the Unlit candles first, type by type
            picks = []
            for u in unlit_left:
                picks.append(drew & (first <= chance) & (chance < first + u))
                first = first + u
            is_unlit = chance < first
            unlit_left = [u - pick for u, pick in zip(unlit_left, picks, strict=True)]
            left = left - drew
            aside = [a + (pick & s.bonus) for a, pick in zip(aside, picks, strict=True)]
            flipped_unlit = [
                f | (pick & ~s.bonus) for f, pick in zip(flipped_unlit, picks, strict=True)
            ]
            lit = lit | (drew & ~is_unlit)
            going = drew & is_unlit & s.bonus  # an Unlit candle set aside: draw again
        # [types]: the Unlit candles drawn (taken) and set aside, each type's place from its own
        # count (no reduction over the Unlit types)
        taken = sum(
            (types == c) * (a + f)
            for c, a, f in zip(unlit_types, aside, flipped_unlit, strict=True)
        )
        set_aside = sum((types == c) * a for c, a in zip(unlit_types, aside, strict=True))
        # A rebuild comes only once every candle left was set aside: then the stack is the piles'.
        remaining = jnp.where(rebuilt, rebuild_counts, s.loose_counts - taken)
        lits = jnp.where(jnp.asarray(self.unlit), 0, remaining)
        chance = _hashed(word, self.unlit_in_pool + 1) % jnp.maximum(lits.sum(), 1).astype(
            jnp.uint32
        )
        lit_candle = jnp.minimum((_prefix_sums(lits) <= chance.astype(jnp.int32)).sum(), t - 1)
        unlit_candle = sum(f * c for c, f in zip(unlit_types, flipped_unlit, strict=True))
        flipped_any = jnp.asarray(False)
        for f in flipped_unlit:
            flipped_any = flipped_any | f
        candle = jnp.where(lit, lit_candle, jnp.where(flipped_any, unlit_candle, -1))
        kept_piles = jnp.where(jnp.arange(self.candles) == 0, s.piles, 0)
        drawn_state = s._replace(
            stack_len=left,
            loose=left,
            loose_counts=remaining - ((types == lit_candle) & lit),
            aside=s.aside + set_aside,
            piles=jnp.where(rebuilt, kept_piles, s.piles),
            pile_len=jnp.where(rebuilt, jnp.minimum(s.pile_len, 1), s.pile_len),
            pile_counts=jnp.where(rebuilt, kept_counts, s.pile_counts),
        )
        return drawn_state, i32(candle)

    def _advance(
        self,
        s: CandleQuestJaxState,
        action: jax.Array,
        ok: jax.Array,
        rebuilt: jax.Array,
        mixed: jax.Array,
        word: jax.Array,
        given: bool,
    ) -> CandleQuestJaxState:
        """The legal (``ok``) action played; nothing changes where it is not."""
        n = self.num_players
        seat = s.actor
        phase = jnp.where(ok, s.phase, -1)  # no phase's move: every flag below is false
        verb = jnp.asarray(self.verb)[jnp.clip(action, 0, self.num_actions - 1)]
        arg = jnp.asarray(self.arg)[jnp.clip(action, 0, self.num_actions - 1)]
        face = jnp.asarray(self.face)
        unlit = jnp.asarray(self.unlit)
        table = jnp.maximum(s.table, 0)
        is_turn = phase == Phase.TURN
        is_choose = phase == Phase.CHOOSE
        is_bid = phase == Phase.BID
        is_pay = phase == Phase.PAY
        is_short = phase == Phase.SHORT
        is_give = phase == Phase.GIVE

        # ---- TURN: flip (turn.flip, guard.begin_guard), loot, force, pass
        flipping = is_turn & (verb == FLIP)
        s, drawn = self._draw(s, flipping, rebuilt, word, given)
        money = _row(s.shekels, seat)
        screen = _row(s.screens, seat)
        worth = (screen * face).sum()
        flipped_unlit = flipping & (drawn >= 0) & unlit[jnp.maximum(drawn, 0)]
        cost = face[jnp.maximum(drawn, 0)]
        guard_pays = flipped_unlit & (money + worth >= cost)
        guard_free = flipped_unlit & ~guard_pays & (money == 0) & (screen.sum() == 0)
        guard_short = flipped_unlit & ~guard_pays & ~guard_free
        no_candle = flipping & (drawn < 0)
        looting = is_turn & (verb == LOOT)
        source = jnp.where(looting, arg, 0)
        looted = _row(s.piles[:, 0], source)
        forcing = is_turn & (verb == FORCE)
        # the lowest Unlit face held (type 0 if none): a select per Unlit type, no argmin
        forced_out = i32(0)
        for c in self.unlit_by_face[::-1]:
            forced_out = jnp.where(screen[c] > 0, c, forced_out)
        passing = is_turn & (verb == PASS)
        passes = jnp.where(passing, s.passes + 1, jnp.where(is_turn, 0, s.passes))
        stalled = passing & (passes >= n)

        # ---- CHOOSE: buy, sell, auction
        buying = is_choose & (verb == BUY)
        selling = is_choose & (verb == SELL)
        opening = is_choose & (verb == AUCTION)
        received = jnp.minimum(jnp.asarray(self.sell)[table], s.bank)

        # ---- BID: bid or pass; after the auctioneer's right, settle (auction.settle)
        bidding = is_bid & (verb == BID)
        high = jnp.where(bidding, arg, s.high)
        high_bidder = jnp.where(bidding, seat, s.high_bidder)
        following = (seat + 1) % n
        settling = is_bid & (following == s.active)
        winner = jnp.maximum(high_bidder, 0)

        # ---- PAY: a candle or the rest in shekels; SHORT: the highest candle or all shekels
        paying_candle = (is_pay | is_short) & (verb == DISCARD)
        paying_money = (is_pay | is_short) & (verb == PAY)
        candle_out = jnp.where(paying_candle, arg, 0)
        due = jnp.where(paying_candle, s.due - face[candle_out], jnp.where(paying_money, 0, s.due))
        covered = is_pay & (due <= 0)
        due = jnp.where(covered, 0, due)
        loot_paid = covered & (s.paying == FOR_LOOT)
        guard_paid = covered & (s.paying == FOR_GUARD)

        # ---- GIVE (junior)
        giving = is_give & (verb == GIVE)

        # ---- the candles moved: each a one-hot sum over the few places (a scatter under vmap
        # is a loop per game on a CPU)
        seats = jnp.arange(n)
        types = jnp.arange(self.types)
        mine = seats == seat
        to_pile = selling | (paying_candle & ~unlit[candle_out])
        pile_candle = jnp.where(selling, table, candle_out)
        # a pile's top is its first place, so a candle discarded shifts the pile down one place
        # and a loot shifts it up: static slices, no place read or written at a per-game index
        pushed = jnp.concatenate([jnp.broadcast_to(pile_candle, (n, 1)), s.piles[:, :-1]], axis=1)
        popped = jnp.concatenate([s.piles[:, 1:], jnp.zeros((n, 1), s.piles.dtype)], axis=1)
        piles = jnp.where(
            (mine & to_pile)[:, None],
            pushed,
            jnp.where(((seats == source) & looting)[:, None], popped, s.piles),
        )
        pile_len = s.pile_len + (mine & to_pile) - ((seats == source) & looting)
        pile_counts = (
            s.pile_counts
            + ((mine & to_pile)[:, None] & (types == pile_candle))
            - (((seats == source) & looting)[:, None] & (types == looted))
        )
        leaves = (is_short & (paying_candle | paying_money)) | guard_free  # the Unlit candle
        removed = (
            s.removed
            + ((types == table) & is_short & leaves)
            + ((types == drawn) & guard_free)
            + ((types == forced_out) & forcing)
            + ((types == candle_out) & paying_candle & unlit[candle_out])
        )
        out_of_screen = jnp.where(forcing, forced_out, jnp.where(giving, arg, candle_out))
        # what goes behind a screen (turn.collect), and whose
        collecting = buying | (settling) | loot_paid | giving
        taker = jnp.where(settling, winner, jnp.where(giving, s.active, seat))
        gained = jnp.where(giving, arg, table)
        screens = (
            s.screens
            - ((mine & (forcing | giving | paying_candle))[:, None] & (types == out_of_screen))
            + (((seats == taker) & (collecting | guard_paid))[:, None] & (types == gained))
        )
        price = face[table]
        shekels = (
            s.shekels - mine * (buying * price + paying_money * arg) + mine * (selling * received)
        )
        auction_price = jnp.where(settling, high, 0)
        shekels = (
            shekels
            - (seats == winner) * auction_price
            + ((seats == s.active) & (winner != s.active)) * auction_price
        )
        bank = (
            s.bank
            + buying * price
            - selling * received
            + paying_money * arg
            + jnp.where(winner == s.active, auction_price, 0)
        )

        # ---- the next decision
        next_phase = jnp.select(
            [
                flipping & (drawn >= 0) & ~flipped_unlit,
                guard_pays | looting,
                guard_short,
                forcing,
                opening | (is_bid & ~settling),
            ],
            [i32(p) for p in (Phase.CHOOSE, Phase.PAY, Phase.SHORT, Phase.GIVE, Phase.BID)],
            s.phase,
        )
        next_actor = jnp.select(
            [forcing, opening, is_bid & ~settling], [arg, following, following], seat
        )
        new_table = jnp.select(
            [flipping & (drawn >= 0) & ~guard_free, looting],
            [drawn, looted],
            jnp.where(
                buying
                | selling
                | settling
                | loot_paid
                | guard_paid
                | (is_short & leaves)
                | guard_free,
                -1,
                s.table,
            ),
        )
        # ---- how the move ends: a candle collected, the turn over (turn.end_turn: set-aside
        # candles mixed back, the next seat's turn or the turn limit), a bonus turn, the game
        # over. Field by field, not a choice among whole states (each a copy of every array).
        colours = self._colours(screens)  # [players]
        complete = ((seats == taker) & (colours >= N_COLOURS)).any()
        menorah = collecting & complete
        turn_over = (collecting & ~complete) | selling | no_candle | (passing & ~stalled)
        bonus = guard_paid | guard_free | (is_short & leaves)
        turns = s.turns + turn_over
        truncating = turn_over & (turns >= self.max_turns)
        ending = menorah | stalled | truncating
        next_turn = turn_over & ~truncating
        next_seat = (s.active + 1) % n
        stack, stack_len, loose, loose_counts, aside = self._mix_back(s, turn_over, mixed, given)
        winners = self._winners(screens, colours, shekels, jnp.where(menorah, taker, -1))
        return s._replace(
            phase=i32(
                jnp.select(
                    [ending, next_turn | bonus], [i32(Phase.OVER), i32(Phase.TURN)], next_phase
                )
            ),
            actor=i32(
                jnp.select([ending, next_turn, bonus], [i32(-1), next_seat, s.active], next_actor)
            ),
            active=i32(jnp.where(next_turn, next_seat, s.active)),
            last_actor=jnp.where(ok, seat, s.last_actor),
            bonus=jnp.where(bonus, True, jnp.where(next_turn, False, s.bonus)),
            due=i32(
                jnp.select([guard_pays, looting], [cost, jnp.asarray(self.loot_cost)[looted]], due)
            ),
            paying=i32(
                jnp.select([guard_pays, looting], [i32(FOR_GUARD), i32(FOR_LOOT)], s.paying)
            ),
            high=i32(jnp.where(opening, arg, jnp.where(settling, -1, high))),
            high_bidder=i32(jnp.where(opening, seat, jnp.where(settling, -1, high_bidder))),
            table=i32(new_table),
            turns=i32(turns),
            passes=i32(passes),
            stack=stack,
            stack_len=stack_len,
            loose=loose,
            loose_counts=loose_counts,
            piles=piles,
            pile_len=i32(pile_len),
            pile_counts=i32(pile_counts),
            screens=i32(screens),
            shekels=i32(shekels),
            bank=i32(bank),
            aside=aside,
            removed=i32(removed),
            winners=jnp.where(ending, winners, s.winners),
            # paid at the end only: any other step (an illegal one too) pays nothing
            rewards=jnp.where(ending & winners, 1.0 / winners.sum(), 0.0).astype(jnp.float32),
            terminated=s.terminated | menorah | stalled,
            truncated=s.truncated | truncating,
        )

    def _mix_back(
        self, s: CandleQuestJaxState, turn_over: jax.Array, mixed: jax.Array, given: bool
    ) -> tuple[jax.Array, jax.Array, jax.Array, jax.Array, jax.Array]:
        """turn.end_turn's mixing: the set-aside candles back into the stack, shuffled (given: the
        engine's order ``mixed``; else the whole stack loose). Returns the stack, its length, its
        loose candles and their counts, and the set-aside candles."""
        count = s.aside.sum()
        mixing = turn_over & (count > 0)
        length = jnp.where(mixing, s.stack_len + count, s.stack_len)
        aside = jnp.where(turn_over, 0, s.aside)
        if given:  # nothing loose
            return jnp.where(mixing, mixed, s.stack), length, s.loose, s.loose_counts, aside
        counts = s.loose_counts + s.aside
        if self.deck is not None:  # the deck option's candles still in order join the loose ones
            in_order = jnp.arange(self.candles) < s.stack_len - s.loose
            types = jnp.arange(self.types)
            counts = counts + ((s.stack[:, None] == types) & in_order[:, None]).sum(axis=0)
        return (
            s.stack,
            length,
            jnp.where(mixing, length, s.loose),
            jnp.where(mixing, counts, s.loose_counts),
            aside,
        )

    def _colours(self, screen: jax.Array) -> jax.Array:
        """screen.colours_filled: distinct Lit colours, each Dancing candle filling one more. Any
        leading axes are seats. Each Lit type held sets its colour's bit, the bits OR-ed in one
        pass and counted: no [types, colours] array a screen (XLA made one per game and seat, a
        tenth of a step), no reduction per colour."""
        bits = jnp.where(screen > 0, jnp.asarray(self.colour_bit), jnp.uint32(0))
        lit = jax.lax.population_count(jax.lax.reduce_or(bits, axes=(bits.ndim - 1,)))
        dancing = sum(screen[..., c] for c in np.flatnonzero(self.dancing))
        return jnp.minimum(N_COLOURS, lit.astype(jnp.int32) + dancing)

    def _candle_value(self, screen: jax.Array) -> jax.Array:
        """scoring.candle_value: the best Lit face per colour, the Dancing candles (highest first)
        taking the lowest places they beat."""
        face = jnp.asarray(self.face)
        best = jnp.where((screen[:, None] > 0) & jnp.asarray(self.colour_of), face[:, None], 0)
        places = _ascending(best.max(axis=0))
        if len(self.wild_types) == 0:
            return places.sum()
        held = screen[jnp.asarray(self.wild_types)] > jnp.asarray(self.wild_rank)
        wilds = -_ascending(
            -jnp.where(held, face[jnp.asarray(self.wild_types)], 0)
        )  # highest first
        k = min(N_COLOURS, len(self.wild_types))
        wilds = jnp.concatenate([wilds[:k], jnp.zeros(N_COLOURS - k, wilds.dtype)])
        return jnp.maximum(places, wilds).sum()

    def _winners(
        self, screens: jax.Array, colours: jax.Array, shekels: jax.Array, completer: jax.Array
    ) -> jax.Array:
        """scoring.end_game: the winners by the variant's measure (``colours``: each seat's colours
        filled; ``completer``: the seat who completed the Menorah, -1 if none)."""
        seats = jnp.arange(self.num_players)
        if self.advanced:
            values = jax.vmap(self._candle_value)(screens)
            measure = (
                values
                + jnp.minimum(shekels, values // 2)
                + jnp.where(seats == completer, COMPLETION_BONUS, 0)
            )
        else:
            measure = jnp.where(completer >= 0, (seats == completer).astype(jnp.int32), colours)
        winners = measure == measure.max()
        if self.tiebreak_shekels:
            most = jnp.where(winners, shekels, -1).max()
            winners = winners & ((winners.sum() == 1) | (shekels == most))
        return winners

    def _public(self, s: CandleQuestJaxState) -> CandleQuestJaxState:
        return cast(CandleQuestJaxState, public(s, self._observe, self._mask))

    # ------------------------------------------------------------------ the observation
    def _observe(self, s: CandleQuestJaxState, seat: jax.Array) -> jax.Array:
        """encoder.CandleQuestEncoder.fill_state, field by field in the layout's order."""
        s = _wide(s)
        n, t = self.num_players, self.types
        over = s.phase == Phase.OVER
        playing = ~over
        phase = s.phase
        slot = jnp.asarray(self.slot)

        def counts(by_type: jax.Array) -> jax.Array:
            """Counts by type as the encoder's slots, each ``k * STEP``: a float32 product where it
            rounds as the encoder's table (checked at construction), no table lookup; and no
            scatter where the slots are the types' order (both cost a loop per game under vmap)."""
            if self.count_step is None:
                share = jnp.asarray(self.count_share)[by_type]
            else:
                share = by_type.astype(jnp.float32) * self.count_step
            if self.slot_is_type:
                return share
            return jnp.zeros(by_type.shape, jnp.float32).at[..., slot].set(share)

        money = jnp.asarray(self.money_share)
        screen = _row(s.screens, seat)
        is_bid = playing & (phase == Phase.BID)
        is_pay = playing & (phase == Phase.PAY)
        tops = s.piles[:, 0]
        value = (
            jnp.asarray(self.value_share)[self._candle_value(screen)]
            if self.advanced
            else jnp.asarray(0.0, jnp.float32)
        )
        parts = {
            "me": one_hot(seat, n),
            "active": one_hot(s.active, n, playing),
            "to_act": one_hot(s.actor, n, playing),
            "decision": one_hot(jnp.asarray(self.decision_of)[phase], len(enc.DECISIONS), playing),
            "over": over.astype(jnp.float32)[None],
            "bonus_turn": (playing & (phase == Phase.TURN) & s.bonus).astype(jnp.float32)[None],
            "paying_for_loot": (is_pay & (s.paying == FOR_LOOT)).astype(jnp.float32)[None],
            "paying_for_guard": (is_pay & (s.paying == FOR_GUARD)).astype(jnp.float32)[None],
            "due": jnp.where(
                is_pay,
                jnp.asarray(self.due_share)[jnp.clip(s.due, 0, len(self.due_share) - 1)],
                0.0,
            )[None],
            "auctioneer": one_hot(s.active, n, is_bid),
            "high_bidder": one_hot(s.high_bidder, n, is_bid),
            "high_bid": jnp.where(is_bid, money[jnp.clip(s.high, 0, self.bank_total)], 0.0)[None],
            "give_to": one_hot(s.active, n, playing & (phase == Phase.GIVE)),
            "table": one_hot(jnp.where(s.table >= 0, slot[jnp.maximum(s.table, 0)], -1), t),
            "turn": jnp.asarray(self.turn_share)[jnp.minimum(s.turns, self.max_turns)][None],
            "stack": jnp.asarray(self.candle_share)[s.stack_len][None],
            "bank": money[jnp.clip(s.bank, 0, self.bank_total)][None],
            "set_aside": counts(s.aside),
            "removed": counts(s.removed),
            "my_candles": counts(screen),
            "my_shekels": money[jnp.clip(_row(s.shekels, seat), 0, self.bank_total)][None],
            "my_colours": jnp.asarray(self.colours_share)[self._colours(screen)][None],
            "my_value": value[None],
            "behind_screen": jnp.asarray(self.candle_share)[s.screens.sum(axis=1)],
            "piles": counts(s.pile_counts).reshape(-1),
            "pile_tops": one_hot(jnp.where(s.pile_len > 0, slot[tops], -1), t).reshape(-1),
            "winners": (s.winners & over).astype(jnp.float32),
        }
        return jnp.concatenate([parts[name] for name in self.fields])

    # ------------------------------------------------------------------ check's deals
    def engine_pile(self, state: State) -> Deal:
        """The engine's game as dealt (its stack, in order, and the starting seat): valid before
        any move."""
        st = _candle_quest(state)
        stack = np.zeros(self.candles, dtype=np.int32)
        stack[: len(st.stack)] = st.stack
        none = jnp.zeros(self.types, jnp.int32)
        return Deal(jnp.asarray(stack), i32(len(st.stack)), i32(0), none, i32(st.active))

    def engine_deals(self, before: int, state: State, seat: int) -> tuple[np.ndarray, np.ndarray]:
        """``step_dealt``'s randomness for the engine's last move, given its ``engine_marks``
        before the move (how many events it had): the stack a rebuild made, in its shuffled order
        (the candles drawn from it since put back on its top), and the stack after a mix-back."""
        st = _candle_quest(state)
        rebuilt = np.zeros(self.candles, dtype=np.int32)
        mixed = np.zeros(self.candles, dtype=np.int32)
        events = st.events[before:]
        kinds = [event[0] for event in events]
        type_of = st.content.type_of
        if "rebuild" in kinds:
            at = kinds.index("rebuild")
            drawn = [type_of[e[2]] for e in events[at:] if e[0] in ("set-aside", "flip")]
            left = [] if "mix-back" in kinds[at:] else list(st.stack)
            order = left + drawn[::-1]
            if len(order) != events[at][1]:  # pragma: no cover - the engine's own bookkeeping
                raise AssertionError(f"rebuilt stack of {len(order)}, not {events[at][1]}")
            rebuilt[: len(order)] = order
        if "mix-back" in kinds:
            mixed[: len(st.stack)] = st.stack
        return rebuilt, mixed

    @staticmethod
    def engine_marks(state: State) -> int:
        """What ``engine_deals`` compares: the events so far."""
        return len(state.events)


def _candle_quest(state: State) -> CandleQuestState:
    if not isinstance(state, CandleQuestState):
        raise TypeError(f"not a Candle Quest state: {type(state).__name__}")
    return state


def _row(values: jax.Array, index: jax.Array) -> jax.Array:
    """``values[index]`` along the first axis (the seats: a few rows) as a select per row: under
    vmap an index that differs from game to game is a gather, a loop per game on a CPU."""
    row = values[0]
    for i in range(1, values.shape[0]):
        row = jnp.where(index == i, values[i], row)
    return row


def _ascending(values: jax.Array) -> jax.Array:
    """``jnp.sort`` of a short vector by ranks (each value's place: how many are below it, ties
    by position), a few dozen comparisons: XLA's sort is a loop per game under vmap on a CPU."""
    size = values.shape[-1]
    before = np.tri(size, k=-1, dtype=bool)  # [j, k]: k < j
    below = (values[None, :] < values[:, None]) | ((values[None, :] == values[:, None]) & before)
    rank = below.sum(axis=1)  # [j]
    return jnp.where(rank[None, :] == jnp.arange(size)[:, None], values[None, :], 0).sum(axis=1)


def _hashed(word: jax.Array, i: jax.Array | int) -> jax.Array:
    """The ``i``-th random 32-bit word drawn from ``word``: murmur3's finalizer of the word and
    ``i`` (a few integer operations, about uniform and independent from one ``i`` to the next)."""
    mixed = word ^ (jnp.asarray(i).astype(jnp.uint32) * jnp.uint32(0x9E3779B9))
    mixed = (mixed ^ (mixed >> 16)) * jnp.uint32(0x85EBCA6B)
    mixed = (mixed ^ (mixed >> 13)) * jnp.uint32(0xC2B2AE35)
    return mixed ^ (mixed >> 16)


def _prefix_sums(counts: jax.Array) -> jax.Array:
    """``jnp.cumsum`` of a short vector by doubling shifts (a handful of adds): XLA lowers a
    cumulative sum to a windowed reduction, several times dearer under vmap on a CPU."""
    size = counts.shape[-1]
    shift = 1
    while shift < size:
        counts = counts + jnp.concatenate([jnp.zeros(shift, counts.dtype), counts[:-shift]])
        shift *= 2
    return counts


def _runs(verb: np.ndarray, arg: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """The numbering as runs of one verb each, in id order, with each id's argument."""
    starts = [0, *np.flatnonzero(np.diff(verb) != 0) + 1, len(verb)]
    runs = [(int(verb[a]), arg[a:b]) for a, b in pairwise(starts)]
    verbs = [v for v, _ in runs]
    if len(set(verbs)) != len(verbs):  # pragma: no cover - the encoder's numbering groups verbs
        raise AssertionError(f"a verb's ids are not contiguous: {verbs}")
    return runs


def _at(values: jax.Array, args: Any, size: int) -> jax.Array:
    """``values`` at ``args`` (clipped to ``size``): no gather when ``args`` is every index in
    order."""
    if isinstance(args, np.ndarray) and np.array_equal(args, np.arange(size)):
        return values
    return values[jnp.minimum(args, size - 1)]


def make(config: Config) -> CandleQuestJax:
    return CandleQuestJax(config)


JAX_RULES = JaxRules(make=make)
