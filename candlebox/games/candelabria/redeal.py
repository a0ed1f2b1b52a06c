"""The candle cards of a resampled state: a hidden history dealt anew that agrees with every event.

Re-dealing only the unknown slots of the hands and the Advanced deck (as resample once did) leaves the
others' ``draw``, ``keep`` and ``return`` events naming the real cards, and can deal a card where no
history puts it (a house candle everyone saw arrive in one hand dealt into another). Instead the card
flow is replayed from the setup, as ``seat`` saw it: every card nobody has shown it is a token, a
placeholder fixed only when an event it sees names the card (its own draw, a deploy, a maneuver);
whatever the others did in secret (which card an Inn returned, which card Nova Vita kept) is chosen at
random among the choices that fit what follows. The tokens left at the end are dealt the cards nobody
has placed, at random. The result is a history the seat cannot tell from the real one, its events
naming the cards of the new deal; it depends only on the seat's log, the public state and the seed.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from candlebox.engine import Rng
from candlebox.games.candelabria.decision import Phase

if TYPE_CHECKING:
    from candlebox.games.candelabria.state import CandelabriaState

ROLES = 3


@dataclass(frozen=True, slots=True)
class Redeal:
    """A consistent deal: the others' hands, the Advanced deck (top last), the aside cards and the
    rewritten events (event index -> event)."""

    hands: list[list[int]]
    advanced_deck: list[int]
    set_aside: list[int]
    events: dict[int, tuple]


class _Impossible(Exception):
    """The random choices so far lead to no history that fits the events: deal again."""


def redeal(st: CandelabriaState, seat: int, rng: Rng, attempts: int = 64) -> Redeal:
    """A random consistent deal of what ``seat`` cannot know about the candle cards.

    The secret choices are drawn among those that fit what follows (the cards each seat shows later,
    the cards ``seat`` draws from where others put cards back); a dead end the look-ahead misses
    deals again (measured: about 1 replay in 100). After ``attempts`` dead ends one replay makes
    every choice in a fixed order; should even that fail, the real cards are kept (consistent, since
    they happened) rather than fail the caller.
    """
    facts = _Facts(st, seat)
    for _ in range(attempts):
        try:
            return _Replay(st, seat, rng, facts).run()
        except _Impossible:
            continue
    try:
        return _Replay(st, seat, rng, facts, careful=True).run()
    except _Impossible:  # pragma: no cover - never met in the conformance games
        hands = [list(hand) for hand in st.hands]
        return Redeal(
            hands=hands,
            advanced_deck=list(st.advanced_deck),
            set_aside=list(st.set_aside),
            events={},
        )


class _Facts:
    """What every replay of one resample shares: read from the events once."""

    def __init__(self, st: CandelabriaState, seat: int) -> None:
        self.index = {card.code: i for i, card in enumerate(st.content.candles)}
        self.to_aside = _aside_draws(st)
        self.steps = _steps(st, self.to_aside, self.index)
        self.seen = _sightings(st, seat, self.index)


class _Replay:
    """One pass over the events, keeping items (a card id >= 0, or a token < 0) where the cards are."""

    def __init__(
        self, st: CandelabriaState, seat: int, rng: Rng, facts: _Facts, careful: bool = False
    ) -> None:
        self.st = st
        self.seat = seat
        self.rng = rng
        self.careful = careful
        content = st.content
        self.index = facts.index
        n = st.num_players
        self.hands = [list(content.house_candles[st.house_of[s]][1]) for s in range(n)]
        tokens = len(content.advanced)
        self.deck = [-1 - k for k in range(tokens)]  # the Advanced deck, top last
        self.free = set(content.advanced)  # the cards no item is known to be yet
        self.value: dict[int, int] = {}  # token -> the card it turned out to be
        self.set_aside: list[int] = []
        self.seal_cards = [[-1] * ROLES for _ in range(n)]
        self.maneuvered: list[list[int]] = [[] for _ in range(n)]
        self.order = list(range(n))
        self.named: dict[int, tuple] = {}  # event index -> the items a hidden event moved
        self.to_aside = facts.to_aside
        self.steps = facts.steps
        self.seen = facts.seen

    # ------------------------------------------------------------------ items
    def fix(self, item: int, card: int) -> int:
        """The item seen to be ``card``: a token turns into it, a card must be it."""
        if item >= 0:
            if item != card:
                raise _Impossible
            return card
        if item in self.value:
            if self.value[item] != card:
                raise _Impossible
            return card
        if card not in self.free:
            raise _Impossible
        self.free.discard(card)
        self.value[item] = card
        return card

    def take(self, owner: int, card: int) -> None:
        """``owner`` shows ``card`` from its hand: it is there, or one of its tokens is it."""
        hand = self.hands[owner]
        if card in hand:
            hand.remove(card)
            return
        tokens = [i for i, item in enumerate(hand) if item < 0]
        if not tokens:
            raise _Impossible
        i = tokens[0] if self.careful else self.rng.choice(tokens)
        self.fix(hand[i], card)
        del hand[i]

    def fits(self, owner: int, k: int, hand: list[int]) -> bool:
        """Whether ``owner``, left with ``hand`` after its secret choice at event ``k``, can still
        show every card it shows later: one in hand, or a token it holds then that can be that card
        (one nobody has placed, or one in the deck that a draw may bring). Its later draws count as
        tokens and its later secret choices as giving nothing away (they are checked in their turn)."""
        tokens = sum(1 for item in hand if item < 0)
        cards = Counter(item for item in hand if item >= 0)
        steps = self.steps[owner]
        for at in range(bisect_right(steps, (k, _SHOW, 1 << 30)), len(steps)):
            _, kind, card = steps[at]
            if kind == _GAIN_TOKEN:
                tokens += 1
            elif kind == _GAIN_CARD:
                cards[card] += 1
            elif cards[card] > 0:
                cards[card] -= 1
            elif tokens > 0 and (card in self.free or card in self.deck):
                tokens -= 1  # a token it holds turns out to be that card, or a draw brings it
            else:
                return False
        return True

    def sightings_fit(self, k: int, bottom: list[int]) -> bool:
        """Whether the items a secret choice at event ``k`` puts under the deck, in that order, can be
        the cards the seat later draws from those places (the deck's order is public, so which later
        draw meets which returned card is known; only the seat's own draws show the card)."""
        for j, item in enumerate(bottom):
            card = self.seen.get((k, j))
            if card is None:
                continue
            if item >= 0 and item != card:
                return False
            if item < 0 and (item in self.value or card not in self.free):
                return False
        return True

    def choose(self, choices: list[int]) -> int:
        if not choices:
            raise _Impossible
        return choices[0] if self.careful else self.rng.choice(choices)

    # ------------------------------------------------------------------ the replay
    def run(self) -> Redeal:
        st = self.st
        for k, event in enumerate(st.events):
            kind = event[0]
            if kind == "setup":
                self.order = list(event[3])
            elif kind == "order":
                self.order = list(event[1])
            elif kind == "draw":
                self.draw(k, event)
            elif kind == "keep":
                self.keep(k, event)
            elif kind == "return":
                self.put_back(k, event)
            elif kind == "deploy":
                card = self.index[event[2]]
                self.take(event[1], card)
                self.seal_cards[event[1]][event[3]] = card
            elif kind == "maneuver":
                card = self.index[event[2]]
                self.take(event[1], card)
                self.maneuvered[event[1]].append(card)
            elif kind == "house-candle":
                self.hands[event[3]].append(self.index[event[2]])
            elif kind == "epilogue":
                for s in self.order:
                    for role in range(ROLES):
                        if self.seal_cards[s][role] >= 0:
                            self.deck.insert(0, self.seal_cards[s][role])
                            self.seal_cards[s][role] = -1
                for s in self.order:
                    self.hands[s] += self.maneuvered[s]
                    self.maneuvered[s] = []
        return self.finish()

    def draw(self, k: int, event: tuple) -> None:
        drawer = event[1]
        if not self.deck:
            raise _Impossible
        item = self.deck.pop()
        if drawer == self.seat:
            item = self.fix(item, self.index[event[2]])
        else:
            self.named[k] = (item,)
        (self.set_aside if k in self.to_aside else self.hands[drawer]).append(item)

    def keep(self, k: int, event: tuple) -> None:
        keeper = event[1]
        aside = self.set_aside
        if not aside:
            raise _Impossible
        if keeper == self.seat:
            card = self.index[event[2]]
            if card not in aside:
                raise _Impossible
            i = aside.index(card)
        else:
            hand = self.hands[keeper]
            i = self.choose(
                [
                    j
                    for j in range(len(aside))
                    if self.sightings_fit(k, aside[:j] + aside[j + 1 :])
                    and self.fits(keeper, k, [*hand, aside[j]])
                ]
            )
        kept = aside[i]
        others = aside[:i] + aside[i + 1 :]
        self.set_aside = []
        self.hands[keeper].append(kept)
        for item in others:
            self.deck.insert(0, item)
        if keeper != self.seat:
            self.named[k] = (kept, *others)

    def put_back(self, k: int, event: tuple) -> None:
        owner = event[1]
        hand = self.hands[owner]
        if owner == self.seat:
            card = self.index[event[2]]
            if card not in hand:
                raise _Impossible
            i = hand.index(card)
        else:
            i = self.choose(
                [
                    j
                    for j in range(len(hand))
                    if self.sightings_fit(k, [hand[j]])
                    and self.fits(owner, k, hand[:j] + hand[j + 1 :])
                ]
            )
            self.named[k] = (hand[i],)
        self.deck.insert(0, hand.pop(i))

    def finish(self) -> Redeal:
        st, seat = self.st, self.seat
        if self.seal_cards != st.seal_cards or self.maneuvered != st.maneuvered:
            raise _Impossible  # pragma: no cover - public: the replay follows them exactly
        if Counter(self.hands[seat]) != Counter(st.hands[seat]):
            raise _Impossible  # pragma: no cover - the seat's own hand is known to it
        if len(self.deck) != len(st.advanced_deck) or len(self.set_aside) != len(st.set_aside):
            raise _Impossible  # pragma: no cover - sizes are public
        for i, mark in enumerate(
            st.advanced_known_by
        ):  # the deck cards the seat knows are where it knows
            if mark in (seat, -2):
                self.deck[i] = self.fix(self.deck[i], st.advanced_deck[i])
        for other, hand in enumerate(self.hands):
            if Counter(st.known_hands[other]) - Counter(hand):
                raise _Impossible
        # The tokens left get the cards nobody has placed, in an order that depends on the replay only.
        left = sorted(self.free)
        self.rng.shuffle(left)
        places = [item for hand in self.hands for item in hand if item < 0]
        places += [item for item in self.deck + self.set_aside if item < 0]
        if len(places) != len(left):
            raise _Impossible  # pragma: no cover - every token stands for one unplaced card
        for item, card in zip(places, left, strict=True):
            self.value[item] = card

        def final(item: int) -> int:
            return item if item >= 0 else self.value[item]

        codes = st.content.candles
        events: dict[int, tuple] = {}
        for k, items in self.named.items():
            kind, who = st.events[k][0], st.events[k][1]
            cards = [codes[final(item)].code for item in items]
            if kind == "keep":
                events[k] = (kind, who, cards[0], tuple(cards[1:]))
            else:
                events[k] = (kind, who, cards[0])
        hands = [
            list(st.hands[s]) if s == seat else [final(item) for item in hand]
            for s, hand in enumerate(self.hands)
        ]
        return Redeal(
            hands=hands,
            advanced_deck=[final(item) for item in self.deck],
            set_aside=[final(item) for item in self.set_aside],
            events=events,
        )


def _aside_draws(st: CandelabriaState) -> set[int]:
    """The indices of the draws that went aside for Nova Vita's choice (each draw is three, keep one):
    the draws of the keeper just before its ``keep`` (one plus the public count put under the deck),
    and those of a choice still pending."""
    events = st.events
    result: set[int] = set()
    pending: dict[int, list[int]] = {}
    for k, event in enumerate(events):
        if event[0] == "draw":
            pending.setdefault(event[1], []).append(k)
        elif event[0] == "keep":
            keeper = event[1]
            after = events[k + 1] if k + 1 < len(events) else ()
            count = 1 + (after[2] if after[:1] == ("bottom",) and after[1] == keeper else 0)
            result.update(pending.get(keeper, [])[-count:])
            pending[keeper] = []
    frame = st.stack[-1]
    if frame[0] == Phase.KEEP and st.set_aside:
        result.update(pending.get(frame[1], [])[-len(st.set_aside) :])
    return result


def _sightings(
    st: CandelabriaState, seat: int, index: dict[str, int]
) -> dict[tuple[int, int], int]:
    """The cards ``seat`` draws that others put under the deck in secret, by the place they were put:
    (the event that put them, the rank among the cards it put), found by following the deck's places
    (public: draws take the top, cards go under the bottom) without their cards."""
    places: list[tuple[int, int]] = [(-1, -1)] * len(st.content.advanced)  # top last
    deployed = 0
    seen: dict[tuple[int, int], int] = {}
    events = st.events
    for k, event in enumerate(events):
        kind = event[0]
        if kind == "draw":
            place = places.pop()
            if event[1] == seat and place[0] >= 0:
                seen[place] = index[event[2]]
        elif kind == "keep":
            after = events[k + 1] if k + 1 < len(events) else ()
            count = after[2] if after[:1] == ("bottom",) and after[1] == event[1] else 0
            for j in range(count):
                places.insert(0, (k, j))
        elif kind == "return":
            places.insert(0, (k, 0))
        elif kind == "deploy":
            deployed += 1
        elif kind == "epilogue":  # the deployed cards, face up: nobody's secret
            places[:0] = [(-1, -1)] * deployed
            deployed = 0
    return seen


_GAIN_TOKEN, _GAIN_CARD, _SHOW = 0, 1, 2


def _steps(
    st: CandelabriaState, to_aside: set[int], index: dict[str, int]
) -> list[list[tuple[int, int, int]]]:
    """For each seat, in order, (event index, what, card) of what its hand goes through: cards it
    draws unseen (a token each, a Nova Vita keep too), cards it receives face up, cards it shows
    (deploy, maneuver). A secret choice must leave it able to show the later ones."""
    n = st.num_players
    steps: list[list[tuple[int, int, int]]] = [[] for _ in range(n)]  # (event, kind, card)
    maneuvered: list[list[int]] = [[] for _ in range(n)]
    for k, event in enumerate(st.events):
        kind = event[0]
        if (kind == "draw" and k not in to_aside) or kind == "keep":
            steps[event[1]].append((k, _GAIN_TOKEN, -1))
        elif kind == "house-candle":
            steps[event[3]].append((k, _GAIN_CARD, index[event[2]]))
        elif kind in ("deploy", "maneuver"):
            steps[event[1]].append((k, _SHOW, index[event[2]]))
            if kind == "maneuver":
                maneuvered[event[1]].append(index[event[2]])
        elif kind == "epilogue":
            for seat in range(n):
                steps[seat] += [(k, _GAIN_CARD, card) for card in maneuvered[seat]]
                maneuvered[seat] = []
    return steps
