"""16 Candies as JAX functions (``candlebox.rl.jax``): the rules of gameplay.py, rounds.py and
scoring.py over fixed-size arrays, so that thousands of games step at once under ``jax.vmap``.

The engine (the Python modules beside this one) is the reference; ``candlebox.rl.jax.check`` plays
both on the same deals and the same actions and compares them at every step. Observations are the
encoder's (encoder.py: the same layout, the same numbers) and action ids its numbering, so a policy
trained on the PettingZoo env plays here and the reverse.

How the state is held (every array has a size fixed by the configuration):

- a hand is four slots of card types, sorted by type, the card just drawn in the last slot; an empty
  slot holds ``EMPTY`` (sorts last); ``ups`` the orientation of each slot (a Wild's is always 0, so
  which of several Wilds sits where never matters);
- the cards each player is known to hold (taken from the discard pile) are counts by type: the engine
  tracks the card's source per slot, but the view only counts them, and the one slot choice that
  depends on it (which of several Wilds is discarded) comes down to "a known one first";
- the draw and discard piles are 40-slot arrays with a length, the top at ``length - 1``, as the
  engine's lists; the queue (seats still to orient, or still owed a final turn) is a set of seats,
  whose next member is always the next seat clockwise from the one who acted.

Randomness: a new round deals from a shuffled box, and an empty draw pile is rebuilt from the
discard pile; both are drawn from the step's key (``step``), or given (``step_dealt``, which ``check``
drives with the engine's own deals). Drawn from a key, nothing is sorted: a new round's dealt cards
and first discard are a random sample of the box (a partial Fisher–Yates shuffle of its top), and the
draw pile's bottom ``loose`` cards are in no order, a draw from them taking a random one (the top of
a shuffled pile is a uniformly random card of it, and nobody sees the order below), so a rebuilt
draw pile is the discard pile as it lies. Under ``jit``/``vmap`` an illegal action, or any action after the
end, leaves that game's state as it was; called eagerly, ``step`` raises ValueError naming it.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable
from itertools import product
from typing import Any, NamedTuple, cast

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.custom_batching import custom_vmap

from candlebox.engine.encoding import ActionNumbering, Config
from candlebox.engine.plugin import JaxRules
from candlebox.engine.state import State
from candlebox.games.jax_common import (
    concrete,
    every_seat,
    i32,
    one_hot,
    require_legal,
    select,
    share,
)
from candlebox.games.sixteen_candies import encoder as enc
from candlebox.games.sixteen_candies.cards import (
    CODE,
    FULL_SET,
    HALF_CANDY,
    HALF_COUNT,
    HALF_PENALTY,
    N_CANDIES,
    N_TYPES,
    TYPE_OF,
    WILD,
)
from candlebox.games.sixteen_candies.decision import Phase
from candlebox.games.sixteen_candies.scoring import (
    CALLER_HIGHEST,
    CALLER_LOWEST_EXTRA,
    CALLER_MIDDLE,
    INSTANT_WINNER,
)
from candlebox.games.sixteen_candies.state import SixteenCandiesState

BOX = len(FULL_SET)  # cards in the box: every pile array has this many slots
SLOTS = enc.MAX_CARDS  # a hand holds four cards between the draw and the discard
HAND = enc.HAND
EMPTY = N_TYPES  # an empty hand slot: sorts after every card type
N_HALVES = len(enc.HALVES)
INSTANT_RANK = 1 << 20  # an instant winner's rank: above any hand (scoring.py's _ABOVE_ALL)
# The eight orientations of three cards, in the engine's binary order (the first card's most
# significant: notation.Rotations lists ``top`` actions so, and 'held' mode takes the first winner).
COMBOS = np.array(list(product((0, 1), repeat=HAND)), dtype=np.int32)

# Per half (2 x type + orientation; EMPTY's halves padded): candy (-1 for the Wild), count, penalty,
# and the encoder's slot of the half's code.
_PAD = [0, 0]
HALF_CANDY_OF = np.array([*HALF_CANDY, -1, -1], dtype=np.int32)
HALF_COUNT_OF = np.array([*HALF_COUNT, *_PAD], dtype=np.int32)
HALF_PENALTY_OF = np.array([*HALF_PENALTY, *_PAD], dtype=np.int32)
HALF_SLOT_OF = np.array([*enc.HALF_SLOT, -1, -1], dtype=np.int32)
CARD_SLOT_OF = np.array([*enc.CARD_SLOT, -1], dtype=np.int32)  # EMPTY: no slot (a zero one-hot)
SLOT_IS_TYPE = bool(np.array_equal(enc.CARD_SLOT, np.arange(N_TYPES)))  # the same numbering
CANDY_SLOT_OF = np.array(enc.CANDY_SLOT, dtype=np.int32)
# Per half, one bit for each (candy, count) of a 4, 5 or 6 (the Wild's and the other counts: 0), so
# that three halves show 4, 5 and 6 of one candy when their bits are distinct and make one candy's
# three (instant_win.shows_four_five_six in a few integer operations, no gathers of candy and count).
SHOW_BIT_OF = np.array(
    [
        1 << (3 * candy + count - 4) if candy >= 0 and 4 <= count <= 6 else 0
        for candy, count in zip(HALF_CANDY_OF, HALF_COUNT_OF, strict=True)
    ],
    dtype=np.int32,
)
# Per half, its count on each candy's total, a byte a candy (the Wild's on every candy's: it adds to
# whichever is largest); three halves' sum is a hand's totals by candy (18 at most: no carry).
TOTALS_OF = np.array(
    [
        sum(count << (8 * c) for c in range(N_CANDIES) if candy in (c, -1))
        for candy, count in zip(HALF_CANDY_OF, HALF_COUNT_OF, strict=True)
    ],
    dtype=np.int32,
)
FOUR_FIVE_SIX = tuple(7 << (3 * candy) for candy in range(N_CANDIES))
FULL_BOX = np.array(FULL_SET, dtype=np.int32)


class SixteenCandiesJaxState(NamedTuple):
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
    actor: jax.Array  # who owes the pending decision (also the active seat), -1 once over
    last_actor: jax.Array  # who made the last move
    marker: jax.Array  # the First Player Marker
    caller: jax.Array  # who called "I've got candy!" this round, -1 if nobody yet
    taken: jax.Array  # the type just taken from the discard pile this turn, -1 if none
    queue: jax.Array  # [players] bool: still to orient (SETUP) or still owed a final turn
    next_seat: jax.Array  # [players] the next seat clockwise still in the game
    hands: jax.Array  # [players, 4] card types, sorted, the drawn card last; EMPTY slots
    ups: jax.Array  # [players, 4] orientation of each slot
    hand_len: jax.Array  # [players]
    known: jax.Array  # [players, types] cards each holds that were taken from the discard pile
    draw: jax.Array  # [40] the draw pile, top at draw_len - 1
    draw_len: jax.Array
    loose: jax.Array  # the draw pile's bottom cards in no order (a draw from them is at random)
    discard: jax.Array  # [40] the discard pile, top at discard_len - 1
    discard_len: jax.Array
    pools: jax.Array  # [players] Health Pools
    turns: jax.Array  # completed turns
    round: jax.Array  # rounds dealt
    rounds_played: jax.Array  # rounds scored
    winners: jax.Array  # [players] bool, once over


class SixteenCandiesJax:
    """The environment of one configuration (``make``): ``init``, ``step``, ``observe``, pgx's API."""

    def __init__(self, config: Config) -> None:
        config.new_game(0)  # the engine checks the options (deck codes, first player) and says why
        self.config = config
        opts = config.options
        if opts.get("content") is not None:
            raise ValueError(
                "option 'content': the JAX rules play the printed deck only (its tables are "
                "compiled in); play a content pack through the engine"
            )
        self.num_players = n = config.players
        self.max_turns = int(opts["max_turns"])
        self.rounds_limit: int | None = opts["rounds"]
        self.start_pool = int(opts["pool"])
        self.cap = self.start_pool if opts["pool_cap"] else None
        self.optional_draw = opts["draw"] == "optional"
        self.rediscard = bool(opts["rediscard"])
        self.held_mode = opts["instant_win"] == "held"
        self.instant_gain = INSTANT_WINNER if opts["instant_gain"] == "two" else 0
        self.caller_wins_ties = opts["all_tied"] == "caller-wins"
        self.first_player = int(opts["first_player"] or 0)
        self.deck: list[int] | None = (
            None if opts["deck"] is None else [TYPE_OF[code] for code in opts["deck"]]
        )
        numbering = ActionNumbering(enc.action_texts(config))
        self.num_actions = numbering.num_distinct_actions
        self.draw_pile_id = numbering.to_id("draw pile")
        self.draw_discard_id = numbering.to_id("draw discard")
        self.skip_id = numbering.to_id("skip") if self.optional_draw else self.num_actions
        self.call_id = numbering.to_id("call")
        self.end_id = numbering.to_id("end")
        self.discard_ids = np.array(
            [numbering.to_id(f"discard {CODE[t]}") for t in range(N_TYPES)] + [self.num_actions],
            dtype=np.int32,
        )
        top_ids = np.full((N_HALVES,) * HAND, self.num_actions, dtype=np.int32)
        for triple in product(range(N_HALVES), repeat=HAND):
            text = "top " + " ".join(enc.HALVES[h] for h in triple)
            if text in numbering:
                top_ids[triple] = numbering.to_id(text)
        self.top_ids = top_ids
        encoder = enc.SixteenCandiesEncoder(config)
        self.observation_size = encoder.size
        self.fields = [name for name, _, _ in encoder.fields()]
        self.field_sizes = {name: size for name, _, size in encoder.fields()}
        self.turn_share = share(self.max_turns, self.max_turns)
        self.rounds_share = np.minimum(share(int(enc.ROUNDS_SCALE), int(enc.ROUNDS_SCALE)), 1.0)
        self.draw_share = share(BOX, BOX)
        scale = self.start_pool * n  # the encoder's candy_scale
        self.pool_share = share(scale, scale)
        self.value_share = share(int(enc.VALUE_SCALE), int(enc.VALUE_SCALE))
        self.penalty_share = share(int(enc.PENALTY_SCALE), int(enc.PENALTY_SCALE))
        self._round_end = {loose: self._make_round_end(loose) for loose in (False, True)}

    # ------------------------------------------------------------------ public API
    def init(self, key: jax.Array) -> SixteenCandiesJaxState:
        """A new game, its first round dealt from ``key`` (under the ``deck`` option's cards)."""
        rest = BOX - (0 if self.deck is None else len(self.deck))
        return self._first_round(self.first_pile(key), loose=rest)

    def step(
        self, state: SixteenCandiesJaxState, action: Any, key: jax.Array
    ) -> SixteenCandiesJaxState:
        """The seat to act plays ``action`` (an action id); a new round or a reshuffle draws from
        ``key``."""
        if concrete(action) and concrete(state.legal_action_mask):
            require_legal(state, action, self.num_actions, self.config.describe())
        # No sort (once most of a batched step's cost): a new round's deal is a random sample from
        # the top of the box, the rest of it loose; a rebuilt draw pile is the discard pile as it
        # lies, loose; a draw from loose cards takes a random one. One threefry block a step (two
        # words; a block per two words cost as much as a rules' branch), the deal's places and the
        # draw's chance hashed from them. The deal's shuffle is made by the few games whose round
        # ends (``_round_end``), from the words.
        words = self._words(key)
        return self._step(state, action, words[1:], state.discard, words[0], loose=True)

    def observe(self, state: SixteenCandiesJaxState, player: Any) -> jax.Array:
        """The seat's observation: what ``Spec.observe`` (the PettingZoo env's) gives for it."""
        return self._observe(state, i32(player))

    def observe_all(self, state: SixteenCandiesJaxState) -> jax.Array:
        """Every seat's observation, ``[players, size]``."""
        return every_seat(self._observe, state, self.num_players)

    def legal_action_ids(self, state: SixteenCandiesJaxState) -> tuple[jax.Array, jax.Array]:
        """The legal actions compactly: ``(ids, valid)``, 17 candidates of which ``valid`` marks each
        legal action once (a random legal action without scanning the 15,666-wide mask)."""
        return self._candidates(state)

    # ------------------------------------------------------------------ deals
    def _words(self, key: jax.Array) -> jax.Array:
        """A step's or a new game's random words: a chance, then one per dealt card (the places of
        ``_top_shuffled``), from one threefry draw of two words through a hash."""
        drawn = jax.random.bits(key, (2,), jnp.uint32)
        places = jnp.arange(HAND * self.num_players + 2, dtype=jnp.uint32)
        return _hashed(_hashed(drawn[0], places) ^ drawn[1], places)

    def first_pile(self, key: jax.Array) -> jax.Array:
        """The pile the first round deals from (top last): the ``deck`` option's cards on top, in
        order, over the rest of the box, whose top places (as many as a deal may take from it) are
        a random sample of it and whose other places are in no order (``loose``, as after a new
        round's deal: no sort)."""
        words = self._words(key)[1:]
        if self.deck is None:
            return _top_shuffled(jnp.asarray(FULL_BOX), words)
        rest = list((Counter(FULL_SET) - Counter(self.deck)).elements())
        sampled = _top_shuffled(jnp.asarray(np.array(rest, dtype=np.int32)), words[: len(rest)])
        return jnp.concatenate([sampled, jnp.asarray(np.array(self.deck[::-1], dtype=np.int32))])

    def init_dealt(self, pile: jax.Array) -> SixteenCandiesJaxState:
        """A new game whose first round deals from ``pile`` (40 card types, the top last)."""
        return self._first_round(i32(pile), loose=0)

    def _first_round(self, pile: jax.Array, loose: int) -> SixteenCandiesJaxState:
        """A new game dealt from ``pile``, whose bottom ``loose`` cards are in no order."""
        n = self.num_players
        zero = i32(0)
        blank = SixteenCandiesJaxState(
            current_player=zero,
            observation=jnp.zeros(self.observation_size, jnp.float32),
            legal_action_mask=jnp.zeros(self.num_actions, bool),
            rewards=jnp.zeros(n, jnp.float32),
            terminated=jnp.asarray(False),
            truncated=jnp.asarray(False),
            phase=i32(Phase.SETUP),
            actor=zero,
            last_actor=i32(self.first_player),
            marker=i32(self.first_player),
            caller=i32(-1),
            taken=i32(-1),
            queue=jnp.zeros(n, bool),
            next_seat=i32((np.arange(n) + 1) % n),
            hands=jnp.full((n, SLOTS), EMPTY, jnp.int32),
            ups=jnp.zeros((n, SLOTS), jnp.int32),
            hand_len=jnp.zeros(n, jnp.int32),
            known=jnp.zeros((n, N_TYPES), jnp.int32),
            draw=jnp.zeros(BOX, jnp.int32),
            draw_len=zero,
            loose=zero,
            discard=jnp.zeros(BOX, jnp.int32),
            discard_len=zero,
            pools=jnp.full(n, self.start_pool, jnp.int32),
            turns=zero,
            round=zero,
            rounds_played=zero,
            winners=jnp.zeros(n, bool),
        )
        dealt = self._start_round(blank, pile, loose=False)
        if loose:  # the draw pile's cards of the loose part (a deck option's cards stay on top)
            dealt = dealt._replace(loose=jnp.minimum(dealt.draw_len, loose))
        return self._public(dealt)

    def step_dealt(
        self, state: SixteenCandiesJaxState, action: Any, box: jax.Array, reshuffled: jax.Array
    ) -> SixteenCandiesJaxState:
        """``step`` with its randomness given: ``box`` the pile a new round deals from (40 types,
        top last), ``reshuffled`` the draw pile rebuilt from the discard pile if this draw empties
        it (its first ``discard_len - 1`` slots); the piles are then in order, nothing loose."""
        return self._step(state, action, box, reshuffled, jnp.uint32(0), loose=False)

    def _step(
        self,
        state: SixteenCandiesJaxState,
        action: Any,
        box: jax.Array,
        reshuffled: jax.Array,
        chance: jax.Array,
        loose: bool,
    ) -> SixteenCandiesJaxState:
        action = i32(action)
        # Legal by the compact candidates, not the 15,666-wide mask: a step that never reads the
        # mask lets XLA drop it where nothing else reads it (a policy choosing from
        # legal_action_ids), and building it is most of a batched step's memory traffic.
        ids, valid = self._candidates(state)
        legal = ((ids == action) & valid).any()
        ok = legal & (action >= 0) & (action < self.num_actions) & (state.actor >= 0)
        # The wide fields are left out of the rules' selects, and made once at the end.
        core = state._replace(
            observation=jnp.zeros(0, jnp.float32), legal_action_mask=jnp.zeros(0, bool)
        )
        deal = box if loose else i32(box)  # loose: the shuffle's words, not yet a pile
        after = self._advance(core, action, deal, i32(reshuffled), chance, loose)
        quiet = core._replace(rewards=jnp.zeros_like(state.rewards))
        return self._public(select(ok, after, quiet))

    # ------------------------------------------------------------------ the rules
    def _orientations(self, hand: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array]:
        """For the three cards ``hand``: each combination's ``top`` action id, whether it is an
        orientation worth telling apart (a Wild has one), and whether it shows 4, 5 and 6 of one
        candy (instant_win.shows_four_five_six). Each card's two halves are looked up once (six
        lookups, not one per card of each of the eight combinations: a gather is a loop per game
        under vmap); a combination picks among them by its constant bits."""
        both = 2 * hand[:, None] + jnp.arange(2)  # [card, up]: the half on top
        slots = jnp.maximum(jnp.asarray(HALF_SLOT_OF)[both], 0)  # an EMPTY slot: never valid here
        bits = jnp.asarray(SHOW_BIT_OF)[both]
        wild = hand == WILD  # a Wild turned over is the same card: one orientation
        flat = jnp.asarray(self.top_ids.reshape(-1))
        ids, valid, shows = [], [], []
        for combo in COMBOS.tolist():
            up = range(HAND)
            ids.append(flat[sum(slots[k, combo[k]] * N_HALVES ** (HAND - 1 - k) for k in up)])
            turned = [wild[k] for k in up if combo[k]]
            valid.append(~functools.reduce(jnp.logical_or, turned) if turned else jnp.asarray(True))
            shows.append(_shows_four_five_six(jnp.stack([bits[k, combo[k]] for k in up])))
        valid_all = jnp.stack(valid)
        return jnp.stack(ids), valid_all, jnp.stack(shows) & valid_all

    def _candidates(self, s: SixteenCandiesJaxState) -> tuple[jax.Array, jax.Array]:
        """Every action that may be legal now (8 orientations, 3 draws, 4 discards, call and end)
        and whether each is."""
        phase = s.phase
        seat = jnp.maximum(s.actor, 0)
        hand = s.hands[seat]
        top_ids, top_valid, _ = self._orientations(hand[:HAND])
        orienting = (phase == Phase.SETUP) | (phase == Phase.ROTATE)
        drawing = phase == Phase.DRAW
        pile_ok = (s.draw_len > 0) | (s.discard_len > 1)
        draw_ids = jnp.asarray([self.draw_pile_id, self.draw_discard_id, self.skip_id], jnp.int32)
        draw_valid = jnp.stack(
            [drawing & pile_ok, drawing & (s.discard_len > 0), drawing & self.optional_draw]
        )
        # the card just taken from the discard pile (the last slot) may not go back unless rediscard
        keep_last = (s.taken >= 0) & (not self.rediscard)
        discard_valid = (phase == Phase.DISCARD) & (
            jnp.arange(SLOTS) < jnp.where(keep_last, SLOTS - 1, SLOTS)
        )
        # several Wilds make one action: only the first slot of a type stands for it
        slots = jnp.arange(SLOTS)
        earlier = (hand[None, :] == hand[:, None]) & (slots[None, :] < slots[:, None])
        discard_valid = discard_valid & ~(earlier & discard_valid[None, :]).any(axis=1)
        discard_ids = jnp.asarray(self.discard_ids)[hand]
        calling = phase == Phase.CALL
        ids = jnp.concatenate(
            [top_ids, draw_ids, discard_ids, jnp.asarray([self.call_id, self.end_id], jnp.int32)]
        )
        valid = jnp.concatenate(
            [top_valid & orienting, draw_valid, discard_valid, jnp.stack([calling, calling])]
        )
        return ids, valid & (s.actor >= 0)

    def _mask(self, s: SixteenCandiesJaxState) -> jax.Array:
        ids, valid = self._candidates(s)
        where = jnp.where(valid, ids, self.num_actions)  # an index past the end is dropped
        return jnp.zeros(self.num_actions, bool).at[where].set(True, mode="drop")

    def _can_show(self, hand: jax.Array) -> tuple[jax.Array, jax.Array]:
        """'held' mode: whether three cards can show 4, 5 and 6 of one candy, and the first
        orientation (in binary order) that does."""
        _, _, wins = self._orientations(hand)
        return wins.any(), _combo_bits(_first(wins))

    def _advance(
        self,
        s: SixteenCandiesJaxState,
        action: jax.Array,
        deal: jax.Array,
        reshuffled: jax.Array,
        chance: jax.Array,
        loose: bool,
    ) -> SixteenCandiesJaxState:
        """The decision ``action`` and where it leads; a new round deals from ``deal``: the pile
        itself, or (``loose``) the words its top is shuffled by."""
        n = self.num_players
        seat = s.actor
        phase = s.phase
        seats = jnp.arange(n)
        hand = s.hands[seat]
        ups = s.ups[seat]
        # ---- an orientation (SETUP: picking up the hand; ROTATE: after the discard)
        top_ids, top_valid, top_wins = self._orientations(hand[:HAND])
        chosen = (top_ids == action) & top_valid  # at most one: valid orientations' ids differ
        oriented = ups.at[:HAND].set(_combo_bits(_first(chosen)))
        chose_instant = (chosen & top_wins).any()
        # ---- SETUP: the seat is done; after the last, instant wins are checked
        setup_queue = s.queue & (seats != seat)
        last_pickup = ~setup_queue.any()
        setup_ups = _put(s.ups, seat, oriented)
        in_round = s.hand_len > 0
        if self.held_mode:  # the hands that can show 4, 5 and 6 are turned up for their players
            held_win, held_bits = jax.vmap(self._can_show)(s.hands[:, :HAND])
            setup_winners = held_win & in_round & last_pickup
            setup_ups = jnp.where(
                setup_winners[:, None], setup_ups.at[:, :HAND].set(held_bits), setup_ups
            )
        else:  # what each hand shows as turned (not its eight orientations: a Wild's up is 0)
            shown = 2 * s.hands[:, :HAND] + setup_ups[:, :HAND]
            setup_winners = _shows_four_five_six(jnp.asarray(SHOW_BIT_OF)[shown]) & in_round
        # ---- DRAW
        empty_draw = s.draw_len == 0
        draw = jnp.where(empty_draw, reshuffled, s.draw)
        draw_len = jnp.where(empty_draw, s.discard_len - 1, s.draw_len)
        free = jnp.where(empty_draw, draw_len if loose else 0, s.loose)
        top_discard = s.discard[jnp.maximum(s.discard_len - 1, 0)]
        from_pile = action == self.draw_pile_id
        from_discard = action == self.draw_discard_id
        # the top card, or when the top is loose a random loose one (the top takes its place)
        top = jnp.maximum(draw_len - 1, 0)
        at_random = chance % jnp.maximum(draw_len, 1).astype(jnp.uint32)
        pick = jnp.where(free >= draw_len, at_random.astype(jnp.int32), top)
        picked = draw[pick]
        draw = _put(draw, pick, draw[top])
        drawn = jnp.where(from_pile, picked, top_discard)
        pile_discard = jnp.where(empty_draw, s.discard.at[0].set(top_discard), s.discard)
        pile_discard_len = jnp.where(empty_draw, 1, s.discard_len)
        # ---- DISCARD
        card = _first(jnp.asarray(self.discard_ids) == action)
        slot = _first(hand == card)
        kept_hand, kept_ups = _sorted(_put(hand, slot, EMPTY), _put(ups, slot, 0), _FOUR)
        known_here = s.known[seat, card]
        if not self.rediscard:
            known_here = known_here - ((card == WILD) & (s.taken == WILD))
        lose_known = known_here > 0
        if self.held_mode:
            discard_win, discard_bits = self._can_show(kept_hand[:HAND])
            kept_ups = jnp.where(discard_win, kept_ups.at[:HAND].set(discard_bits), kept_ups)
        else:
            discard_win = jnp.asarray(False)

        is_setup = phase == Phase.SETUP
        is_draw = phase == Phase.DRAW
        is_discard = phase == Phase.DISCARD
        is_rotate = phase == Phase.ROTATE
        is_call = phase == Phase.CALL
        drew = is_draw & (from_pile | from_discard)

        # ---- the state after the decision itself
        hands = jnp.where(
            drew,
            _put(s.hands, seat, hand.at[SLOTS - 1].set(drawn)),
            jnp.where(is_discard, _put(s.hands, seat, kept_hand), s.hands),
        )
        ups_after = jnp.where(
            is_setup,
            setup_ups,
            jnp.where(
                is_rotate,
                _put(s.ups, seat, oriented),
                jnp.where(is_discard, _put(s.ups, seat, kept_ups), s.ups),  # a draw's up is 0
            ),
        )
        hand_len = s.hand_len + (seats == seat) * jnp.where(drew, 1, jnp.where(is_discard, -1, 0))
        # a card taken from the discard pile is known, one discarded that was known no longer
        known_change = jnp.where(is_draw & from_discard, _one(drawn, N_TYPES), 0) - jnp.where(
            is_discard & lose_known, _one(card, N_TYPES), 0
        )
        known = s.known + jnp.where((seats == seat)[:, None], known_change[None, :], 0)
        drew_pile = is_draw & from_pile
        new_draw = jnp.where(drew_pile, draw, s.draw)
        new_draw_len = jnp.where(drew_pile, draw_len - 1, s.draw_len)
        new_loose = jnp.where(drew_pile, jnp.minimum(free, draw_len - 1), s.loose)
        discard = jnp.where(
            drew_pile,
            pile_discard,
            jnp.where(is_discard, _put(s.discard, s.discard_len, card), s.discard),
        )
        discard_len = jnp.where(
            drew_pile,
            pile_discard_len,
            s.discard_len + jnp.where(is_draw & from_discard, -1, 0) + jnp.where(is_discard, 1, 0),
        )
        taken = jnp.where(is_draw & from_discard, drawn, jnp.where(is_setup, s.taken, -1))
        call = is_call & (action == self.call_id)
        caller = jnp.where(call, seat, s.caller)
        queue = jnp.where(
            is_setup, setup_queue, jnp.where(call, in_round & (seats != seat), s.queue)
        )
        # ---- where the decision leads
        setup_done = is_setup & last_pickup
        setup_instant = setup_done & setup_winners.any()
        discard_instant = is_discard & discard_win
        rotate_instant = is_rotate & chose_instant
        finishes = (
            discard_instant | (is_rotate & (chose_instant | (s.caller >= 0))) | is_call
        )  # finish_turn
        next_phase = jnp.where(
            is_setup,
            jnp.where(last_pickup, Phase.DRAW, Phase.SETUP),
            jnp.where(
                is_draw,
                jnp.where(drew, Phase.DISCARD, Phase.ROTATE),
                jnp.where(is_discard, Phase.ROTATE, Phase.CALL),
            ),
        )
        next_actor = jnp.where(is_setup, jnp.where(last_pickup, s.marker, s.next_seat[seat]), seat)
        turns = s.turns + (finishes | setup_instant)
        mid = s._replace(
            phase=i32(next_phase),
            actor=i32(next_actor),
            last_actor=seat,
            caller=i32(caller),
            taken=i32(taken),
            queue=queue,
            hands=hands,
            ups=ups_after,
            hand_len=hand_len,
            known=known,
            draw=new_draw,
            draw_len=i32(new_draw_len),
            loose=i32(new_loose),
            discard=discard,
            discard_len=i32(discard_len),
            turns=i32(turns),
        )
        # ---- finish_turn (gameplay.py): the round's end, the game's end, or the next turn
        instant_seats = jnp.where(
            setup_instant, setup_winners, (discard_instant | rotate_instant) & (seats == seat)
        )
        any_instant = setup_instant | discard_instant | rotate_instant
        round_over = any_instant | (finishes & (caller >= 0) & ~queue.any())
        out_of_turns = finishes & ~round_over & (turns >= self.max_turns)
        following = mid.next_seat[seat]
        passed = mid._replace(
            phase=i32(Phase.DRAW),
            actor=following,
            queue=queue & (seats != following),
        )
        after_turn = select(finishes & ~round_over, passed, mid)
        ended = self._end_game(after_turn, truncated=True)
        after_turn = select(out_of_turns, ended, after_turn)
        return self._round_end[loose](round_over, after_turn, mid, instant_seats, deal)

    def _make_round_end(self, loose: bool) -> Callable[..., SixteenCandiesJaxState]:
        """``round_end(ends, after, mid, instant, deal)``: ``after``, or where ``ends`` the round
        ended from ``mid`` (``_end_round``). Alone it computes both and picks. Under ``vmap`` only
        the games whose round ends are scored and dealt anew: gathered into a batch of a sixteenth
        or a half of the games (the smallest that holds them; all of them, picked as alone, when
        more end), their results scattered over ``after``. The end of a round (scoring, the next
        deal and its shuffle) was a sixth of a batched step, paid by every game, while a step
        ends a round in a few games, or in about a quarter of them when the batch's turns are in
        step (every fourth step of games dealt together)."""

        def alone(
            ends: jax.Array,
            after: SixteenCandiesJaxState,
            mid: SixteenCandiesJaxState,
            instant: jax.Array,
            deal: jax.Array,
        ) -> SixteenCandiesJaxState:
            return select(ends, self._end_round(mid, instant, deal, loose), after)

        round_end = custom_vmap(alone)

        @round_end.def_vmap
        def _batched(axis_size: int, in_batched: Any, *args: Any) -> tuple[Any, Any]:
            args = jax.tree_util.tree_map(
                lambda x, batched: x if batched else jnp.broadcast_to(x, (axis_size, *x.shape)),
                args,
                tuple(in_batched),
            )
            ends, after, rest = args[0], args[1], args[2:]
            whole = jax.vmap(alone)

            def gathered(size: int) -> Callable[[Any], Any]:
                def run(_: Any) -> Any:
                    # the games ending a round, the rest of the places past the batch (dropped)
                    which = jnp.nonzero(ends, size=size, fill_value=axis_size)[0]
                    sub = jax.tree_util.tree_map(
                        lambda x: jnp.take(x, which, axis=0, mode="clip"), rest
                    )
                    scored = jax.vmap(lambda m, i, d: self._end_round(m, i, d, loose))(*sub)
                    return jax.tree_util.tree_map(
                        lambda x, y: x.at[which].set(y, mode="drop"), after, scored
                    )

                return run

            sizes = sorted({max(1, axis_size // 16), max(1, axis_size // 2)})
            count = ends.sum()
            branches = [lambda _: after] + [gathered(size) for size in sizes]
            branches.append(lambda _: whole(*args))
            tier = (count > 0) + sum(count > size for size in sizes)
            out = lax.switch(tier, branches, None)
            return out, jax.tree_util.tree_map(lambda _: True, out)

        return cast(Callable[..., SixteenCandiesJaxState], round_end)

    def _end_round(
        self, s: SixteenCandiesJaxState, instant: jax.Array, deal: jax.Array, loose: bool
    ) -> SixteenCandiesJaxState:
        """rounds.end_round: reveal, score by the tables, then end the game or deal anew (from
        ``deal``: the pile, or when ``loose`` the words its top is shuffled by)."""
        n = self.num_players
        box = _top_shuffled(jnp.asarray(FULL_BOX), deal) if loose else deal
        in_round = s.hand_len > 0
        halves = 2 * s.hands[:, :HAND] + s.ups[:, :HAND]
        values = _hand_value(halves)[0]
        penalties = jnp.asarray(HALF_PENALTY_OF)[halves].sum(axis=1)
        rank = jnp.where(instant, INSTANT_RANK, values)
        top = jnp.where(in_round, rank, -1).max()
        bottom = jnp.where(in_round, rank, INSTANT_RANK + 1).min()
        caller = s.caller
        has_caller = caller >= 0
        seats = jnp.arange(n)
        caller_lowest = has_caller & (rank[jnp.maximum(caller, 0)] == bottom)
        all_tied = top == bottom
        highest = ~all_tied & (rank == top)
        lowest = ~all_tied & ~highest & (rank == bottom)
        is_caller = seats == caller
        lose = -(penalties + CALLER_LOWEST_EXTRA)
        caller_due = jnp.where(
            all_tied,
            CALLER_HIGHEST if self.caller_wins_ties else lose,
            jnp.where(highest, CALLER_HIGHEST, jnp.where(lowest, lose, CALLER_MIDDLE)),
        )
        other_lowest = lowest | (all_tied & ~has_caller & ~instant.any())
        other_due = jnp.where(other_lowest & ~caller_lowest, -penalties, 0)
        due = jnp.where(instant, self.instant_gain, jnp.where(is_caller, caller_due, other_due))
        due = jnp.where(in_round, due, 0)
        after = s.pools + due
        if self.cap is not None:
            after = jnp.where(due > 0, jnp.minimum(after, jnp.maximum(self.cap, s.pools)), after)
        pools = jnp.maximum(0, after)
        scored = s._replace(pools=i32(pools), rounds_played=s.rounds_played + 1)
        left = (pools > 0).sum()
        last_candy = left <= 1
        by_rounds = (
            jnp.asarray(False)
            if self.rounds_limit is None
            else scored.rounds_played >= self.rounds_limit
        )
        by_turns = scored.turns >= self.max_turns
        over = select(
            last_candy | by_rounds,
            self._end_game(scored, truncated=False),
            self._end_game(scored, truncated=True),
        )
        return select(
            last_candy | by_rounds | by_turns, over, self._start_round(scored, box, loose)
        )

    def _end_game(self, s: SixteenCandiesJaxState, truncated: bool) -> SixteenCandiesJaxState:
        """rounds.end_game: the most candy wins (the last player with candy)."""
        winners = s.pools == s.pools.max()
        return s._replace(
            phase=i32(Phase.OVER),
            actor=i32(-1),
            queue=jnp.zeros_like(s.queue),
            winners=winners,
            rewards=jnp.where(winners, 1.0 / winners.sum(), 0.0).astype(jnp.float32),
            terminated=jnp.asarray(not truncated),
            truncated=jnp.asarray(truncated),
        )

    def _start_round(
        self, s: SixteenCandiesJaxState, pile: jax.Array, loose: bool
    ) -> SixteenCandiesJaxState:
        """rounds.start_round and setup.deal: the marker moves on, three cards to each player still
        in, one at a time from the marker clockwise, then the first discard; the rest is the draw
        pile (``pile`` holds the whole box, its top last; ``loose``: the rest in no order)."""
        n = self.num_players
        seats = jnp.arange(n)
        in_game = s.pools > 0
        # the next seat clockwise still in the game (a seat alone has itself)
        next_seat = seats
        for distance in range(n - 1, 0, -1):  # the nearest seat still in wins
            ahead = (seats + distance) % n
            next_seat = jnp.where(jnp.roll(in_game, -distance), ahead, next_seat)
        marker = jnp.where(s.round > 0, next_seat[s.marker], s.marker)
        count = in_game.sum()
        order = [marker]
        for _ in range(n - 1):
            order.append(next_seat[order[-1]])
        place = jnp.zeros(n, jnp.int32)
        for k, seat in enumerate(order):  # each seat's place in the deal (the first k of them)
            place = jnp.where((seats == seat) & (k < count), k, place)
        dealt = jnp.stack([pile[BOX - 1 - place - i * count] for i in range(HAND)], axis=1)
        dealt = jax.vmap(lambda cards: _sorted(cards, cards, _THREE)[0])(dealt)
        hands = jnp.where(
            in_game[:, None],
            jnp.concatenate([dealt, jnp.full((n, 1), EMPTY, jnp.int32)], axis=1),
            EMPTY,
        )
        flip = BOX - 1 - HAND * count
        return s._replace(
            phase=i32(Phase.SETUP),
            actor=i32(marker),
            marker=i32(marker),
            caller=i32(-1),
            taken=i32(-1),
            queue=in_game,
            next_seat=i32(next_seat),
            hands=i32(hands),
            ups=jnp.zeros_like(s.ups),
            hand_len=jnp.where(in_game, HAND, 0).astype(jnp.int32),
            known=jnp.zeros_like(s.known),
            draw=pile,
            draw_len=i32(flip),
            loose=i32(flip) if loose else i32(0),
            discard=jnp.zeros_like(s.discard).at[0].set(pile[flip]),
            discard_len=i32(1),
            round=s.round + 1,
        )

    def _public(self, s: SixteenCandiesJaxState) -> SixteenCandiesJaxState:
        """The fields pgx's API reads (jax_common.public). The observation is its fields
        concatenated: written in place over the one before the step (``custom_vmap``, a
        ``dynamic_update_slice`` a field), the playout was 0.84× as fast by wall time on a quiet
        machine, though no slower by CPU time (2026-12-07, docs/rl.md)."""
        looking = jnp.where(s.actor >= 0, s.actor, s.last_actor)
        return s._replace(
            current_player=s.actor,
            observation=self._observe(s, looking),
            legal_action_mask=self._mask(s),
        )

    # ------------------------------------------------------------------ the observation
    def _observe(self, s: SixteenCandiesJaxState, seat: jax.Array) -> jax.Array:
        """encoder.SixteenCandiesEncoder.fill_state, field by field in the layout's order."""
        n = self.num_players
        t = N_TYPES
        over = s.phase == Phase.OVER
        playing = ~over

        card_slot = self._card_slot
        pile_cards = jnp.where(
            jnp.arange(BOX) < s.discard_len, card_slot(s.discard), t
        )  # the discard pile's cards, as the encoder's slots (t: none, dropped)
        top = card_slot(s.discard[jnp.maximum(s.discard_len - 1, 0)])
        own = s.hands[seat]
        own_ups = s.ups[seat]
        halves = 2 * own + own_ups
        valued = s.hand_len[seat] == HAND
        value, candy = _hand_value(halves[:HAND])
        penalty = jnp.asarray(HALF_PENALTY_OF)[halves[:HAND]].sum()
        # known[owner, encoder slot]: the counts reordered from types to the encoder's slots
        known = (
            s.known
            if SLOT_IS_TYPE
            else jnp.zeros((n, t), jnp.int32).at[:, CARD_SLOT_OF[:t]].set(s.known)
        )
        pool_index = jnp.minimum(s.pools, len(self.pool_share) - 1)
        parts = {
            "me": one_hot(seat, n),
            "active": one_hot(s.actor, n, playing),
            "to_act": one_hot(s.actor, n, playing),
            "decision": one_hot(s.phase, len(enc.DECISIONS), playing),
            "over": over.astype(jnp.float32)[None],
            "marker": one_hot(s.marker, n),
            "caller": one_hot(s.caller, n),
            "final_turns": (s.queue & (s.caller >= 0) & playing).astype(jnp.float32),
            "turn": jnp.asarray(self.turn_share)[jnp.minimum(s.turns, self.max_turns)][None],
            "rounds_played": jnp.asarray(self.rounds_share)[
                jnp.minimum(s.rounds_played, len(self.rounds_share) - 1)
            ][None],
            "draw_pile": jnp.asarray(self.draw_share)[s.draw_len][None],
            "discard_pile": jnp.zeros(t, jnp.float32).at[pile_cards].add(enc.STEP, mode="drop"),
            "discard_top": one_hot(top, t, s.discard_len > 0),
            "pools": jnp.asarray(self.pool_share)[pool_index],
            "out": (s.pools == 0).astype(jnp.float32),
            "cards": s.hand_len.astype(jnp.float32) / SLOTS,
            "known": (known.astype(jnp.float32) * enc.STEP).reshape(-1),
            "hand_cards": one_hot(card_slot(own), t).reshape(-1),
            "hand_tops": one_hot(
                jnp.where(own < EMPTY, jnp.asarray(HALF_SLOT_OF)[halves], -1), N_HALVES
            ).reshape(-1),
            "hand_value": jnp.where(valued, jnp.asarray(self.value_share)[value], 0.0)[None],
            "hand_candy": one_hot(jnp.asarray(CANDY_SLOT_OF)[candy], N_CANDIES, valued),
            "hand_penalty": jnp.where(valued, jnp.asarray(self.penalty_share)[penalty], 0.0)[None],
            "winners": (s.winners & over).astype(jnp.float32),
        }
        return jnp.concatenate([parts[name] for name in self.fields])

    @staticmethod
    def _card_slot(types: jax.Array) -> jax.Array:
        """Card types (EMPTY included) as the encoder's slots (EMPTY: out of range, a zero
        one-hot); no lookup when they are the same numbers (a gather is a loop under vmap)."""
        if SLOT_IS_TYPE:
            return types
        return jnp.asarray(CARD_SLOT_OF)[types]

    # ------------------------------------------------------------------ check's deals
    def engine_pile(self, state: State) -> np.ndarray:
        """The pile the engine's current round was dealt from (40 types, top last), read from its
        deal: the draw pile, the first discard, then the dealt cards in reverse. Valid while the
        round's draw pile is untouched (right after the deal)."""
        st = _sixteen(state)
        dealt = [TYPE_OF[e[2]] for e in st.events[st.round_start :] if e[0] == "deal"]
        flip = next(e[1] for e in st.events[st.round_start :] if e[0] == "flip")
        return np.array([*st.draw, TYPE_OF[flip], *dealt[::-1]], dtype=np.int32)

    def engine_deals(
        self, before: tuple[int, int], state: State, seat: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """``step_dealt``'s randomness for the engine's last move by ``seat``, given its
        ``engine_marks`` before the move: the pile of a round it dealt, the draw pile it rebuilt
        (zeros where none)."""
        st = _sixteen(state)
        box = np.zeros(BOX, dtype=np.int32)
        reshuffled = np.zeros(BOX, dtype=np.int32)
        if st.round != before[0]:
            box = self.engine_pile(st)
        if st.epoch != before[1] and st.round == before[0]:
            rebuilt = [*st.draw, st.hands[seat][-1]]  # the drawn card was the rebuilt pile's top
            reshuffled[: len(rebuilt)] = rebuilt
        return box, reshuffled

    @staticmethod
    def engine_marks(state: State) -> tuple[int, int]:
        """What ``engine_deals`` compares: rounds dealt and reshuffles this round."""
        st = _sixteen(state)
        return st.round, st.epoch


def _sixteen(state: State) -> SixteenCandiesState:
    if not isinstance(state, SixteenCandiesState):
        raise TypeError(f"not a 16 Candies state: {type(state).__name__}")
    return state


def _hand_value(halves: jax.Array) -> tuple[jax.Array, jax.Array]:
    """wild.hand_value over the last axis (three top halves): the largest total of one candy, each
    Wild adding its count to it; the candy (ties to the first). The halves' totals by candy are
    added packed (``TOTALS_OF``), then compared candy by candy: no one-hot, no reduction."""
    packed = jnp.asarray(TOTALS_OF)[halves].sum(axis=-1)
    value = packed & 0xFF
    best = jnp.zeros_like(value)
    for candy in range(1, N_CANDIES):
        total = (packed >> (8 * candy)) & 0xFF
        better = total > value
        value = jnp.where(better, total, value)
        best = jnp.where(better, candy, best)
    return value, best


def _shows_four_five_six(bits: jax.Array) -> jax.Array:
    """instant_win.shows_four_five_six over the last axis (three top halves' ``SHOW_BIT_OF``): one
    candy's 4, 5 and 6, each once (distinct bits add up to their union)."""
    total = bits.sum(axis=-1)
    union = bits[..., 0] | bits[..., 1] | bits[..., 2]
    three = jnp.zeros(total.shape, bool)
    for full in FOUR_FIVE_SIX:
        three = three | (total == full)
    return three & (union == total)


def _first(flags: jax.Array) -> jax.Array:
    """The first place where ``flags`` (one axis) is true, 0 where none is: ``argmax`` as a
    plain minimum (XLA does not vectorise an argmax, a reduction over pairs, on a CPU)."""
    size = flags.shape[-1]
    first = jnp.min(jnp.where(flags, jnp.arange(size), size))
    return jnp.where(first < size, first, 0)


def _combo_bits(combo: jax.Array) -> jax.Array:
    """``COMBOS[combo]``: the orientation of each of three cards, the first the most significant
    bit (no lookup)."""
    return (combo >> jnp.arange(HAND - 1, -1, -1)) & 1


def _put(array: jax.Array, index: jax.Array, value: Any) -> jax.Array:
    """``array.at[index].set(value)`` (along the first axis; an index out of range writes nothing)
    as a select: under ``vmap`` a write at a per-game index is a scatter, a loop on a CPU."""
    where = jnp.arange(array.shape[0]) == index
    return jnp.where(where.reshape((-1,) + (1,) * (array.ndim - 1)), value, array)


def _one(index: jax.Array, size: int) -> jax.Array:
    """1 at ``index`` of ``size`` int32 places (none out of range)."""
    return (jnp.arange(size) == index).astype(jnp.int32)


def _hashed(word: jax.Array, i: jax.Array) -> jax.Array:
    """The ``i``-th random 32-bit word drawn from ``word``: murmur3's finalizer of the word and
    ``i`` (a few integer operations, about uniform and independent from one ``i`` to the next)."""
    mixed = word ^ (i.astype(jnp.uint32) * jnp.uint32(0x9E3779B9))
    mixed = (mixed ^ (mixed >> 16)) * jnp.uint32(0x85EBCA6B)
    mixed = (mixed ^ (mixed >> 13)) * jnp.uint32(0xC2B2AE35)
    return mixed ^ (mixed >> 16)


# Sorting networks (compare-exchange pairs) for three and four cards: cheaper than XLA's sort for a
# handful of items in every game of a batch.
_THREE = ((0, 1), (1, 2), (0, 1))
_FOUR = ((0, 1), (2, 3), (0, 2), (1, 3), (1, 2))


def _sorted(
    types: jax.Array, ups: jax.Array, network: tuple[tuple[int, int], ...]
) -> tuple[jax.Array, jax.Array]:
    """``types`` ascending, ``ups`` carried along. Equal types are Wilds, whose ``ups`` are all 0,
    so the order among equals never shows."""
    for i, j in network:
        swap = types[i] > types[j]
        ti, tj = types[i], types[j]
        ui, uj = ups[i], ups[j]
        types = types.at[i].set(jnp.where(swap, tj, ti)).at[j].set(jnp.where(swap, ti, tj))
        ups = ups.at[i].set(jnp.where(swap, uj, ui)).at[j].set(jnp.where(swap, ui, uj))
    return types, ups


def _top_shuffled(box: jax.Array, bits: jax.Array) -> jax.Array:
    """``box`` with its top ``len(bits)`` places a uniformly random ordered sample of its cards (a
    Fisher–Yates shuffle stopped there: each place, from the top down, swapped with a random one at
    or below it); the places below hold the rest, in no useful order."""
    size = box.shape[0]
    for j in range(bits.shape[0]):
        place = size - 1 - j
        other = (bits[j] % jnp.uint32(place + 1)).astype(jnp.int32)
        here, there = box[place], box[other]
        box = box.at[place].set(there).at[other].set(here)
    return box


def make(config: Config) -> SixteenCandiesJax:
    return SixteenCandiesJax(config)


JAX_RULES = JaxRules(make=make)
