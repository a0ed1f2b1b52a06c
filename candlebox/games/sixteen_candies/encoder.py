"""16 Candies for the RL adapters: action numbering and view encoding.

Actions (docs/notation/sixteen-candies.md), in id order: ``draw pile``, ``draw discard``, ``skip`` (only
with the option ``draw=optional``), ``call``, ``end``, ``discard CODE`` for every card code, then
``top A B C`` for every ordered triple of half codes that three cards of the box can show (a hand's
cards in the order the view lists them, each with its top half). The ``top`` texts make the numbering
large (25 half codes: 15,625 triples) but fixed and independent of the hand: an id always means the
same text.

The observation encodes the seat's (typed) view only (rulings, 'Hidden information'): the discard pile, the
pools, the cards each player is known to hold (taken from the discard pile), and the seat's own hand.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import product
from typing import Any

import numpy as np

from candlebox.engine import State, game_info
from candlebox.engine.encoding import Config, Layout, ViewEncoder, items
from candlebox.engine.plugin import Encoding
from candlebox.games.sixteen_candies.cards import CODE, DECK, HALF_CODE, Tables
from candlebox.games.sixteen_candies.decision import NAMES, Phase
from candlebox.games.sixteen_candies.state import SixteenCandiesState
from candlebox.games.sixteen_candies.views import (
    FinishedView,
    HandSeat,
    SixteenCandiesView,
    ValuedSeat,
)
from candlebox.games.sixteen_candies.wild import hand_penalty, hand_value

GAME_ID = "sixteen-candies"

_FACTS = game_info(GAME_ID).facts
CARDS: tuple[str, ...] = tuple(_FACTS["cards"])
CARD_INDEX = {code: i for i, code in enumerate(CARDS)}
COPIES = {code: info["copies"] for code, info in _FACTS["cards"].items()}
HAND = int(_FACTS["hand"])
DECK_SIZE = float(_FACTS["deck_size"])
CANDIES: tuple[str, ...] = tuple(_FACTS["candies"])
CANDY_INDEX = {code: i for i, code in enumerate(CANDIES)}


def _half_codes() -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for info in _FACTS["cards"].values():
        for half in info["halves"]:
            seen.setdefault(half["code"], None)
    return tuple(seen)


HALVES: tuple[str, ...] = _half_codes()
HALF_INDEX = {code: i for i, code in enumerate(HALVES)}
DECISIONS = ("orient", "draw", "discard", "rotate", "call")
DECISION_INDEX = {name: i for i, name in enumerate(DECISIONS)}
PHASE_DECISION = {phase: DECISION_INDEX[name] for phase, name in NAMES.items()}
MAX_CARDS = HAND + 1  # a hand holds four cards between the draw and the discard

COUNT_SCALE = float(max(COPIES.values()))
VALUE_SCALE = 18.0  # three halves of six
PENALTY_SCALE = 9.0  # three halves of three
ROUNDS_SCALE = 100.0  # rounds played past 100 read as 1 (the only number that can exceed its bound)
STEP = 1.0 / COUNT_SCALE  # one copy (1/4: exact in float32)

# The cards each seat is known to hold are those its hand took from the discard pile: found from a
# game's discard-pile draws (``_Taken``) rather than by looking up every hand card's source event,
# which cost a third of an observation. This many games' draws are kept (the oldest forgotten first).
TAKEN_GAMES = 256


class _Taken:
    """The discard-pile draws of one game whose cards were still held when last read, as (event
    index, seat), with how far its events were read: a game's events list is only ever appended
    to, so a later read looks only at the events logged since. Holds the list, so that its id
    (the key it is kept under) cannot be another list's while it is kept."""

    __slots__ = ("draws", "events", "read")

    def __init__(self, events: list[tuple], read: int) -> None:
        self.events = events
        self.read = read
        self.draws: list[tuple[int, int]] = []


# The state's numbers (card types, half ids 2 x type + orientation, candy types) mapped to the
# encoder's slots, which follow the facts' codes.
CARD_SLOT: tuple[int, ...] = tuple(CARD_INDEX[code] for code in CODE)
HALF_SLOT: tuple[int, ...] = tuple(HALF_INDEX[code] for code in HALF_CODE)
CANDY_SLOT: tuple[int, ...] = tuple(CANDY_INDEX[code] for code in DECK.candy_codes)


@cache
def top_triples() -> tuple[tuple[str, ...], ...]:
    """Every ordered triple of half codes that three cards of the box (copies respected) can show."""
    holders: dict[str, list[str]] = {code: [] for code in HALVES}
    for card, info in _FACTS["cards"].items():
        for half in {h["code"] for h in info["halves"]}:
            holders[half].append(card)
    triples = []
    for triple in product(HALVES, repeat=HAND):
        for cards in product(*(holders[h] for h in triple)):
            if all(COPIES[c] >= k for c, k in Counter(cards).items()):
                triples.append(triple)
                break
    return tuple(triples)


def action_texts(config: Config) -> list[str]:
    texts = ["draw pile", "draw discard"]
    if config.options["draw"] == "optional":
        texts.append("skip")
    texts += ["call", "end"]
    texts += [f"discard {code}" for code in CARDS]
    texts += ["top " + " ".join(triple) for triple in top_triples()]
    return texts


def max_game_length(config: Config) -> int:
    """A turn is at most four decisions (draw, discard, turn the cards, call or end); a round adds one
    pick-up per player and has at least one turn (an instant win at the pick-up counts as a turn), and
    the game ends once ``max_turns`` turns have been played."""
    n = config.players
    return (4 + n) * config.options["max_turns"] + n


def always_a_winner(config: Config) -> bool:
    return True  # the last player with candy, or the most candy (ties share)


class SixteenCandiesEncoder(ViewEncoder):
    def build(self, config: Config, layout: Layout) -> None:
        n = config.players
        t = len(CARDS)
        self.n = n
        self.t = t
        self.max_turns = float(config.options["max_turns"])
        self.candy_scale = float(config.options["pool"] * n)
        layout.add("me", n)
        layout.add("active", n)
        layout.add("to_act", n)
        layout.add("decision", len(DECISIONS))
        layout.add("over", 1)
        layout.add("marker", n)  # the First Player Marker
        layout.add("caller", n)  # who called "I've got candy!" this round
        layout.add("final_turns", n)  # who still has a final turn
        layout.add("turn", 1)  # / max_turns
        layout.add("rounds_played", 1)  # / 100
        layout.add("draw_pile", 1)  # / deck size
        layout.add("discard_pile", t)  # counts / most copies
        layout.add("discard_top", t)  # one-hot: what 'draw discard' takes
        layout.add("pools", n)  # / (players x starting pool)
        layout.add("out", n)
        layout.add("cards", n)  # cards in each hand / 4
        layout.add("known", n * t)  # cards each seat is known to hold (taken from the discard pile)
        layout.add("hand_cards", MAX_CARDS * t)  # own hand, slot by slot: the card
        layout.add("hand_tops", MAX_CARDS * len(HALVES))  # ... and its top half
        layout.add("hand_value", 1)  # / 18
        layout.add("hand_candy", len(CANDIES))
        layout.add("hand_penalty", 1)  # / 9
        layout.add("winners", n)
        self.at = layout.fields
        self.start = {name: place.start for name, place in layout.fields.items()}

        self._tables(n, t)
        self._values = _Values(None)
        self._taken: dict[int, _Taken] = {}  # by the id of a game's events list

    def _tables(self, n: int, t: int) -> None:
        """Absolute places for ``fill_state``: one tuple index per write instead of offset sums."""
        at = self.start
        cards = range(len(CARD_SLOT))
        self.me_at = tuple(at["me"] + s for s in range(n))
        self.active_at = tuple(at["active"] + s for s in range(n))
        self.to_act_at = tuple(at["to_act"] + s for s in range(n))
        self.marker_at = tuple(at["marker"] + s for s in range(n))
        self.caller_at = tuple(at["caller"] + s for s in range(n))
        self.final_at = tuple(at["final_turns"] + s for s in range(n))
        self.winner_at = tuple(at["winners"] + s for s in range(n))
        self.decision_at = {phase: at["decision"] + d for phase, d in PHASE_DECISION.items()}
        self.discard_at = tuple(at["discard_pile"] + CARD_SLOT[c] for c in cards)
        self.top_at = tuple(at["discard_top"] + CARD_SLOT[c] for c in cards)
        self.known_at = tuple(
            tuple(at["known"] + owner * t + CARD_SLOT[c] for c in cards) for owner in range(n)
        )
        self.hand_at = tuple(
            tuple(at["hand_cards"] + place * t + CARD_SLOT[c] for c in cards)
            for place in range(MAX_CARDS)
        )
        self.half_at = tuple(
            tuple(
                at["hand_tops"] + place * len(HALVES) + HALF_SLOT[h] for h in range(len(HALF_SLOT))
            )
            for place in range(MAX_CARDS)
        )
        self.candy_at = tuple(at["hand_candy"] + CANDY_SLOT[c] for c in range(len(CANDY_SLOT)))

    reads_state = True
    bounded = True  # every number is a share of its bound (rounds and pools capped with min)

    def fill_state(self, state: State, seat: int, out: np.ndarray) -> None:
        """``fill`` of ``typed_view(state, seat)``, read from the state: of the hands only the seat's
        own, and of the others their size and the cards taken from the discard pile.

        Written through a memoryview of ``out`` (an item write costs a third of numpy's) with the
        places precomputed in ``_tables``; ``STEP`` is 1/4 (exact in float32), so counts added one
        by one equal the view encoder's."""
        self.fill_state_items(state, seat, items(out))

    def fill_state_items(self, state: State, seat: int, mv: Any) -> None:
        """``fill_state`` into a zeroed row given as its memoryview (``items(row)``): a batched env
        passes the views of its rows, made once (making one costs as much as several writes)."""
        assert isinstance(state, SixteenCandiesState)
        st = state
        if st.content.code is not CODE and st.content.code != CODE:
            raise ValueError(
                "the 16 Candies encoding knows the printed cards only: this game plays a content "
                "pack with other card codes"
            )
        at = self.start
        step = STEP
        phase = st.phase
        over = phase is Phase.OVER
        mv[self.me_at[seat]] = 1.0
        if over:
            mv[at["over"]] = 1.0
        else:
            mv[self.active_at[st.active]] = 1.0
            mv[self.to_act_at[st.actor]] = 1.0
            mv[self.decision_at[phase]] = 1.0
        mv[self.marker_at[st.marker]] = 1.0
        if st.caller >= 0:
            mv[self.caller_at[st.caller]] = 1.0
            if not over:
                for s in st.queue:
                    mv[self.final_at[s]] = 1.0
        mv[at["turn"]] = st.turns / self.max_turns
        mv[at["rounds_played"]] = min(1.0, st.rounds_played / ROUNDS_SCALE)
        mv[at["draw_pile"]] = len(st.draw) / DECK_SIZE
        pile = st.discard
        if pile:
            places = self.discard_at
            for c in pile:
                mv[places[c]] += step
            mv[self.top_at[pile[-1]]] = 1.0
        pools = at["pools"]
        outs = at["out"]
        sizes = at["cards"]
        scale = self.candy_scale
        for owner, hand in enumerate(st.hands):
            pool = st.pools[owner]
            mv[pools + owner] = min(1.0, pool / scale)  # gains can lift a pool past the start
            if pool == 0:
                mv[outs + owner] = 1.0
            mv[sizes + owner] = len(hand) / MAX_CARDS
        # taken from the discard pile and still held: everyone saw it (view.known_cards)
        taken = self._discard_draws(st)
        gone = False
        for src, owner in taken.draws:
            srcs = st.srcs[owner]
            if src in srcs:
                card = st.hands[owner][srcs.index(src)]
                mv[self.known_at[owner][card]] += step
            else:
                gone = True
        if gone:  # discarded since: a card never comes back to a hand under the same source
            taken.draws = [(src, owner) for src, owner in taken.draws if src in st.srcs[owner]]
        hand = st.hands[seat]
        halves = []
        for place, (card, up) in enumerate(zip(hand, st.ups[seat], strict=True)):
            top = 2 * card + up
            halves.append(top)
            mv[self.hand_at[place][card]] = 1.0
            mv[self.half_at[place][top]] = 1.0
        if len(hand) == 3:
            value, candy_at, penalty = self._valued(st.content, tuple(halves))
            mv[at["hand_value"]] = value
            mv[candy_at] = 1.0
            mv[at["hand_penalty"]] = penalty
        if over:
            for w in st.winners:
                mv[self.winner_at[w]] = 1.0

    def _discard_draws(self, st: SixteenCandiesState) -> _Taken:
        """The game's ``_Taken``, read up to its last event. A first read starts at the current
        round (a hand's cards are dealt in its round or drawn since); the draws of rounds before
        are dropped at the next read as gone from the hands."""
        events = st.events
        key = id(events)
        taken = self._taken.get(key)
        if taken is None:
            known = self._taken
            if len(known) >= TAKEN_GAMES:
                # the game first read longest ago (pop, not del: bots in threads share the encoder)
                known.pop(next(iter(known)), None)
            taken = known[key] = _Taken(events, st.round_start)
        end = len(events)
        if taken.read < end:
            for i in range(taken.read, end):
                event = events[i]
                if event[0] == "draw" and event[2] == "discard":
                    taken.draws.append((i, event[1]))
            taken.read = end
        return taken

    def __getstate__(self) -> dict[str, object]:
        """Pickled (for a worker process) without the discard-pile draws: they are a cache."""
        state = dict(self.__dict__)
        state["_taken"] = {}
        return state

    def _valued(self, content: Tables, halves: tuple[int, ...]) -> tuple[float, int, float]:
        """A three-card hand's value and penalty shares and its candy's place, worked out once per
        set of top halves (of one content's tables) and then looked up: working a hand's value
        out costs more than the rest of the seat's own section."""
        known = self._values
        if known.content is not content:
            known = self._values = _Values(content)
        entry = known.get(halves)
        if entry is None:
            value, candy = hand_value(content, halves)
            penalty = hand_penalty(content, halves)
            entry = (value / VALUE_SCALE, self.candy_at[candy], penalty / PENALTY_SCALE)
            known[halves] = entry
        return entry

    def fill(self, view: SixteenCandiesView, out: np.ndarray) -> None:
        at = self.at
        t = self.t
        seat = view.seat
        pending = view.pending
        self.fill_seats(out, seat, view.active, None if pending is None else pending.seats)
        if pending is not None:
            out[at["decision"].start + DECISION_INDEX[pending.decision]] = 1.0
        out[at["marker"].start + view.marker] = 1.0
        if view.caller is not None:
            out[at["caller"].start + view.caller] = 1.0
        for s in view.final_turns:
            out[at["final_turns"].start + s] = 1.0
        out[at["turn"].start] = view.turn / self.max_turns
        out[at["rounds_played"].start] = min(1.0, view.rounds_played / ROUNDS_SCALE)
        out[at["draw_pile"].start] = view.draw_pile / DECK_SIZE
        pile = view.discard_pile
        _counts(out, at["discard_pile"].start, pile)
        if pile:
            out[at["discard_top"].start + CARD_INDEX[pile[-1]]] = 1.0
        for info in view.seats:
            owner = info.seat
            out[at["pools"].start + owner] = min(1.0, info.pool / self.candy_scale)
            out[at["out"].start + owner] = 1.0 if info.out else 0.0
            out[at["cards"].start + owner] = info.cards / MAX_CARDS
            _counts(out, at["known"].start + owner * t, info.known)
            if owner == seat and isinstance(info, HandSeat):
                cards = at["hand_cards"].start
                tops = at["hand_tops"].start
                for slot, card in enumerate(info.hand):
                    out[cards + slot * t + CARD_INDEX[card.card]] = 1.0
                    out[tops + slot * len(HALVES) + HALF_INDEX[card.top]] = 1.0
                if isinstance(info, ValuedSeat):
                    out[at["hand_value"].start] = info.value / VALUE_SCALE
                    out[at["hand_candy"].start + CANDY_INDEX[info.candy]] = 1.0
                    out[at["hand_penalty"].start] = info.penalty / PENALTY_SCALE
        if isinstance(view, FinishedView):
            self.fill_winners(out, view.winners)


class _Values(dict[tuple[int, ...], tuple[float, int, float]]):
    """``SixteenCandiesEncoder._valued``'s answers for one content's tables, by top halves (at most
    every three cards of the box turned every way)."""

    def __init__(self, content: Tables | None) -> None:
        super().__init__()
        self.content = content


def _counts(out: np.ndarray, start: int, codes: list[str]) -> None:
    ViewEncoder.add_counts(out, start, [CARD_INDEX[code] for code in codes], 1.0 / COUNT_SCALE)


def encoder(config: Config) -> SixteenCandiesEncoder:
    return SixteenCandiesEncoder(config)


ENCODING = Encoding(
    action_texts=action_texts,
    encoder=encoder,
    max_game_length=max_game_length,
    always_a_winner=always_a_winner,
)
