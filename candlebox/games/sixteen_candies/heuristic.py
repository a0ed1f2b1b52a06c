"""A rule-of-thumb 16 Candies player.

It keeps the three cards that show the most of one candy, turning each card so its best half is on top
(fewest penalty candies among equals, and always an Instant Round Win when the cards allow it). It takes
the discard pile's top card when that beats what the draw pile would bring on average (over the cards it
has not seen), and calls "I've got candy!" when its hand is strong for the number of opponents and the
time the round has run. It reads nothing but its own view and the game's public facts. Its hand
judgement is cached on card codes (it is the ISMCTS bot's rollout policy, called millions of times).

What the ISMCTS bot knows of 16 Candies beyond this policy is in ``search.py`` (its search hooks).
``state_policy`` is this policy reading a state directly for one seat (its own hand, and what is
public), without building the view; tests/sixteen_candies/test_heuristic_fast.py checks they agree.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import lru_cache

from candlebox.engine import Rng, State
from candlebox.games.sixteen_candies.cards import PRINTED, Tables, loaded_deck
from candlebox.games.sixteen_candies.decision import Phase
from candlebox.games.sixteen_candies.state import SixteenCandiesState
from candlebox.games.sixteen_candies.view import known_cards, turns_in_round
from candlebox.games.sixteen_candies.views import HandSeat, SixteenCandiesView, ValuedSeat
from candlebox.games.sixteen_candies.wild import hand_value

INSTANT = 100  # the worth of a hand that wins the round at once


def _distinct(holders: list[set[int]]) -> bool:
    """Three different cards, one for each set."""
    return any(
        a != b and b != c and a != c for a in holders[0] for b in holders[1] for c in holders[2]
    )


class Faces:
    """What this player knows of one deck's cards, by code (the printed deck's, or a content pack's
    that a game plays), and its hand judgement cached on card codes for that deck alone (two decks
    in one process, as in a designer's experiment, never share a judgement)."""

    def __init__(self, deck: Tables) -> None:
        self.deck = deck
        data = deck.data
        self.candies: list[str] = list(deck.deck.candy_codes)
        self.wild: str = data.wild.code
        self.wild_count: int = data.wild.count
        codes = [deck.code[t] for t in sorted(set(deck.full_set))]
        self.box: Counter = Counter({code: deck.copies[deck.type_of[code]] for code in codes})
        # Each half code: (candy or None for the Wild, count, penalty).
        self.half: dict[str, tuple[str | None, int, int]] = {
            deck.half_code[h]: (
                deck.deck.halves[h][0] or None,
                deck.half_count[h],
                deck.half_penalty[h],
            )
            for h in range(len(deck.half_code))
        }
        self.cards: tuple[str, ...] = tuple(codes)
        # Each card's two half codes (the Wild's twice).
        self.halves_of: dict[str, tuple[str, str]] = {
            code: (
                deck.half_code[2 * deck.type_of[code]],
                deck.half_code[2 * deck.type_of[code] + 1],
            )
            for code in codes
        }
        self.contrib: dict[str, tuple[int, ...]] = {
            code: self._contributions(code) for code in codes
        }
        # Which (candy, count) halves a card holds, for spotting 4-5-6.
        self.holds: dict[str, set[tuple[str, int]]] = {
            code: {
                (candy, count)
                for h in (2 * deck.type_of[code], 2 * deck.type_of[code] + 1)
                for candy, count, _ in [deck.deck.halves[h]]
                if candy
            }
            for code in codes
        }
        # Per card and candy: bits 1, 2, 4 for a half of 4, 5, 6 of that candy.
        self.hold_bits: dict[str, tuple[int, ...]] = {
            code: tuple(
                sum(1 << k for k, n in enumerate((4, 5, 6)) if (candy, n) in self.holds[code])
                for candy in self.candies
            )
            for code in codes
        }
        self._best_value_sorted = lru_cache(maxsize=1 << 17)(self.evaluate_hand)
        self.with_each = lru_cache(maxsize=1 << 14)(self._with_each)
        self.best_orientation = lru_cache(maxsize=1 << 15)(self._best_orientation)
        self.best_discard = lru_cache(maxsize=1 << 15)(self._best_discard)

    def clear_caches(self) -> None:
        """Forget every cached judgement (a test replays a game from cold caches)."""
        for cached in (
            self._best_value_sorted,
            self.with_each,
            self.best_orientation,
            self.best_discard,
        ):
            cached.cache_clear()

    def _contributions(self, code: str) -> tuple[int, ...]:
        """The most of each candy the card can show (a Wild: its count of any)."""
        t = self.deck.type_of[code]
        if t == self.deck.wild:
            return tuple(self.wild_count for _ in self.candies)
        best = dict.fromkeys(self.candies, 0)
        for candy, count, _ in (self.deck.deck.halves[2 * t], self.deck.deck.halves[2 * t + 1]):
            best[candy] = max(best[candy], count)
        return tuple(best[c] for c in self.candies)

    def best_value(self, cards: list[str] | tuple[str, ...]) -> int:
        """The best hand three of these cards can show (an instant win counts as INSTANT); cached."""
        return self._best_value_sorted(tuple(sorted(cards)))

    def evaluate_hand(self, cards: list[str] | tuple[str, ...]) -> int:
        """``best_value`` computed afresh (no cache): the reference the cache is tested against."""
        best = 0
        contrib, hold_bits, holds = self.contrib, self.hold_bits, self.holds
        for i, candy in enumerate(self.candies):
            counts = [contrib[c][i] for c in cards]
            # The best three: all of three cards, all but the least of four.
            total = sum(counts) if len(counts) <= 3 else sum(sorted(counts, reverse=True)[:3])
            best = max(best, total)
            # A 4-5-6 needs a 4, a 5 and a 6 of the candy among the cards at all: most hands have
            # none, so the search for three different holders is skipped (the search's hot path).
            bits = 0
            for c in cards:
                bits |= hold_bits[c][i]
            if bits != 7:
                continue
            holders = [
                {c for c in range(len(cards)) if (candy, n) in holds[cards[c]]} for n in (4, 5, 6)
            ]
            if all(holders) and _distinct(holders):
                return INSTANT
        return best

    def _with_each(self, hand: tuple[str, ...]) -> dict[str, int]:
        """``best_value`` of the (sorted) hand with each card of the box added: the draw's outcomes."""
        return {code: self.best_value((*hand, code)) for code in self.cards}

    def shown(self, tops: list[str]) -> tuple[int, int]:
        """(value, penalty) of the given top halves; a 4-5-6 of one candy is worth INSTANT."""
        half = self.half
        totals: Counter = Counter()
        wild = penalty = 0
        for top in tops:
            candy, count, cost = half[top]
            penalty += cost
            if candy is None:
                wild += count
            else:
                totals[candy] += count
        if len(totals) == 1 and wild == 0 and sorted(half[t][1] for t in tops) == [4, 5, 6]:
            return INSTANT, penalty
        return max(totals.values(), default=0) + wild, penalty

    def unseen(self, hand: list[str], discard_pile: list[str], known: list[list[str]]) -> Counter:
        """The box less the cards seen: the hand, the discard pile and the rivals' known cards."""
        left = Counter(self.box)
        left.subtract(hand)
        left.subtract(discard_pile)
        for cards in known:
            left.subtract(cards)
        return left

    def _best_orientation(self, actions: tuple[str, ...]) -> str:
        def worth(action: str) -> tuple[int, int]:
            value, penalty = self.shown(action.split(" ")[1:])
            return value, -penalty

        return max(actions, key=worth)

    def _best_discard(self, actions: tuple[str, ...], hand: tuple[str, ...]) -> str:
        def worth(action: str) -> tuple[int, int]:
            card = action.split(" ", 1)[1]
            rest = list(hand)
            rest.remove(card)
            # Keep the strongest three; among equals throw away the card with the least potential.
            return self.best_value(rest), -max(self.contrib[card])

        return max(actions, key=worth)


_FACES: dict[Tables, Faces] = {}


def faces_of(deck: Tables) -> Faces:
    """The deck's faces, built when a bot first plays it (kept: a process plays few decks)."""
    found = _FACES.get(deck)
    if found is None:
        found = _FACES[deck] = Faces(deck)
    return found


def faces_in(view: SixteenCandiesView) -> Faces:
    """The faces of the deck a view's game plays (its ``content``: a pack's hash, None: printed)."""
    return PRINTED_FACES if view.content is None else faces_of(loaded_deck(view.content))


# The printed deck's: what is about the printed game (and the tests' reference).
PRINTED_FACES = faces_of(PRINTED)
CANDIES: list[str] = PRINTED_FACES.candies
WILD: str = PRINTED_FACES.wild
BOX: Counter = PRINTED_FACES.box
HALF: dict[str, tuple[str | None, int, int]] = PRINTED_FACES.half
CONTRIB: dict[str, tuple[int, ...]] = PRINTED_FACES.contrib
HOLDS: dict[str, set[tuple[str, int]]] = PRINTED_FACES.holds
best_value = PRINTED_FACES.best_value
evaluate_hand = PRINTED_FACES.evaluate_hand
with_each = PRINTED_FACES.with_each
shown = PRINTED_FACES.shown


def _unseen_counts(faces: Faces, view: SixteenCandiesView, hand: list[str]) -> Counter:
    seat = view.seat
    return faces.unseen(hand, view.discard_pile, [p.known for p in view.seats if p.seat != seat])


def own_seat(view: SixteenCandiesView) -> HandSeat:
    """The viewing seat, whose hand it sees."""
    seat = view.seat
    assert seat is not None, "a policy plays a seat"
    me = view.seats[seat]
    assert isinstance(me, HandSeat), "a seat sees its own hand"
    return me


def policy(view: SixteenCandiesView, actions: list[str], rng: Rng) -> str:
    pending = view.pending
    assert pending is not None, "a policy is asked only while the game goes on"
    decision = pending.decision
    faces = faces_in(view)
    if decision in ("orient", "rotate"):
        return faces.best_orientation(tuple(actions))
    me = own_seat(view)
    hand = [card.card for card in me.hand]
    if decision == "draw":
        return _draw(
            faces, actions, hand, view.discard_pile, lambda: _unseen_counts(faces, view, hand)
        )
    if decision == "discard":
        return faces.best_discard(tuple(actions), tuple(hand))
    if decision == "call" and isinstance(me, ValuedSeat):
        players = sum(1 for p in view.seats if not p.out)
        return _call(players, view.turn_in_round, me.value)
    return actions[rng.below(len(actions))]  # pragma: no cover - every decision is handled above


def state_policy(state: State, seat: int, actions: list[str], rng: Rng) -> str:
    """``policy`` for ``seat`` read straight from the state: the same choice, no view built. It
    reads the seat's own hand and public facts only."""
    assert isinstance(state, SixteenCandiesState)
    phase = state.phase
    faces = faces_of(state.content)
    if phase is Phase.SETUP or phase is Phase.ROTATE:
        return faces.best_orientation(tuple(actions))
    code = state.content.code
    hand = [code[card] for card in state.hands[seat]]
    if phase is Phase.DRAW:
        discards = state_discards(state)
        return _draw(faces, actions, hand, discards, lambda: state_unseen(state, seat, hand))
    if phase is Phase.DISCARD:
        return faces.best_discard(tuple(actions), tuple(hand))
    if phase is Phase.CALL and len(hand) == 3:
        return _call(state_players(state), turns_in_round(state), state_value(state, seat))
    return actions[rng.below(len(actions))]  # pragma: no cover - every decision is handled above


def state_discards(state: SixteenCandiesState) -> list[str]:
    code = state.content.code
    return [code[card] for card in state.discard]


def state_unseen(state: SixteenCandiesState, seat: int, hand: list[str]) -> Counter:
    """``_unseen_counts`` of the seat's view, from the state."""
    known = [known_cards(state, owner) for owner in range(state.num_players) if owner != seat]
    return faces_of(state.content).unseen(hand, state_discards(state), known)


def state_players(state: SixteenCandiesState) -> int:
    """Seats still in the game (a seat whose pool is empty is out)."""
    return sum(1 for pool in state.pools if pool != 0)


def state_value(state: SixteenCandiesState, seat: int) -> int:
    """The value of the seat's three cards as turned (its view's ``ValuedSeat.value``)."""
    halves = [2 * card + up for card, up in zip(state.hands[seat], state.ups[seat], strict=True)]
    return hand_value(state.content, halves)[0]


def _draw(
    faces: Faces,
    actions: list[str],
    hand: list[str],
    discard_pile: list[str],
    unseen: Callable[[], Counter],
) -> str:
    """``unseen()``: how many of each card the seat has not seen (asked only when needed)."""
    if "draw discard" not in actions:
        return actions[0]
    now = faces.best_value(hand)
    outcomes = faces.with_each(tuple(sorted(hand)))
    taken = outcomes[discard_pile[-1]]
    if "draw pile" not in actions:
        return "draw discard" if taken > now or "skip" not in actions else "skip"
    # The mean over the unseen cards of the hand each would make (whole numbers: summed exactly).
    total = count = 0
    for code, k in unseen().items():
        if k > 0:
            total += outcomes[code] * k
            count += k
    expected = total / count if count else now
    if taken >= INSTANT or taken > expected + 0.5:
        return "draw discard"
    return "draw pile"


def _call(players: int, turn_in_round: int, value: int) -> str:
    return "call" if value >= call_need(players, turn_in_round) else "end"


def call_need(players: int, turns_in_round: int) -> int:
    """The hand value this policy calls with, ``players`` still in and that many turns of the round
    over: 12 against one rival at first, one less after each round of turns, at most three less."""
    opponents = players - 1
    waited = turns_in_round // max(1, players)  # rounds of turns so far
    return 11 + opponents - min(waited, 3)
