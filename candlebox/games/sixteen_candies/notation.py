"""16 Candies action notation (documented in docs/notation/sixteen-candies.md).

Every action is short text a person can type:

- ``draw pile`` / ``draw discard`` — take the top card of the draw pile or of the discard pile;
  ``skip`` — draw nothing (only with the option ``draw=optional``);
- ``discard G6-K1`` — discard that card (a card's code joins its two halves; the Wild is ``W``);
- ``top G6 K3 W`` — turn the cards in hand (in the order the view lists them) so these halves are on
  top; used when picking up a new hand and after the discard;
- ``call`` — say "I've got candy!"; ``end`` — end the turn without calling.

The strings are built once per deck (the printed one at import, a content pack's when a game first plays
it; orientation lists once per hand, then cached) so that listing legal actions allocates nothing new on
the hot path. A state reaches its deck's through its ``notation`` slot.
"""

from __future__ import annotations

from collections import Counter
from itertools import product

from candlebox.games.sixteen_candies.cards import INSTANT_COUNTS, PRINTED, Tables
from candlebox.games.sixteen_candies.instant_win import shows_four_five_six

DRAW_PILE = "draw pile"
DRAW_DISCARD = "draw discard"
SKIP = "skip"
CALL = "call"
END = "end"

VERBS = ("draw", "skip", "discard", "top", "call", "end")

# The orientations of a hand of three, by the kind of its cards (1 if a card has two orientations
# worth telling apart: a Wild has one), the first card's most significant: the same for every deck.
_BITS: tuple[list[tuple[int, ...]], ...] = tuple(
    list(product(range((k >> 2 & 1) + 1), range((k >> 1 & 1) + 1), range((k & 1) + 1)))
    for k in range(8)
)


class Notation:
    """The action texts of one deck, built once: every ``discard`` text, and for hands of three
    every ``top A B C`` text (25 half codes in the printed deck: 15,625 texts, shared by every hand
    that shows them) and the ordered half triples that are instant wins.

    Built once, not hand by hand: building the strings and checking the wins as hands were met made
    a fresh process play its first hundred games at about two thirds of its later speed (issue 18).
    """

    def __init__(self, deck: Tables) -> None:
        self.deck = deck
        self.discard: tuple[str, ...] = tuple(f"discard {code}" for code in deck.code)
        self.discard_type: dict[str, int] = {action: t for t, action in enumerate(self.discard)}
        codes: tuple[str, ...] = tuple(dict.fromkeys(deck.half_code))
        number = tuple(codes.index(code) for code in deck.half_code)  # by half id
        self.top3: tuple[str, ...] = tuple(
            f"top {a} {b} {c}" for a, b, c in product(codes, repeat=3)
        )
        may = [
            h
            for h in range(len(deck.half_code))
            if deck.half_candy[h] >= 0 and deck.half_count[h] in INSTANT_COUNTS
        ]
        self.instant: frozenset[tuple[int, ...]] = frozenset(
            triple for triple in product(may, repeat=3) if shows_four_five_six(deck, list(triple))
        )
        types = range(len(deck.orientations))
        self.kind: tuple[int, ...] = tuple(len(deck.orientations[t]) - 1 for t in types)
        self.may_win: tuple[bool, ...] = tuple(
            any(half in triple for triple in self.instant for half in (2 * t, 2 * t + 1))
            for t in types
        )
        # place[k][t]: what card type t adds, in each of its orientations worth telling apart, to
        # the index in top3 of a text whose k-th half it shows (its code's number times 25 ** (2 - k))
        self.place: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(
                tuple(number[2 * t + o] * len(codes) ** (2 - k) for o in range(self.kind[t] + 1))
                for t in types
            )
            for k in range(3)
        )
        self._rotations: dict[tuple[int, ...], Rotations] = {}
        self._built = False

    def build_hands(self) -> None:
        """Build every hand of three the deck can deal (hands are kept sorted by type: 7,807 of them
        in the printed deck), once per process, at its first new game: about 50 ms of CPU. Built as
        they were met, a fresh process's first hundred games met thousands of them and ran at about
        three quarters of the warm speed (issue 18; bench/cold_start.py). Not at import: ``import
        candlebox`` loads every game, and a process that never plays 16 Candies should not pay for
        it. A hand stacked by the ``deck`` option is built when first met."""
        if self._built:
            return
        copies = Counter(self.deck.full_set)
        n = len(self.deck.orientations)
        for a in range(n):
            for b in range(a, n):
                if a == b and copies[a] < 2:
                    continue
                for c in range(b, n):
                    if b == c and copies[b] < (3 if a == b else 2):
                        continue
                    hand = (a, b, c)
                    if hand not in self._rotations:
                        self._rotations[hand] = Rotations(self, hand)
        self._built = True

    def rotations(self, hand: list[int]) -> Rotations:
        key = tuple(hand)
        found = self._rotations.get(key)
        if found is None:
            found = self._rotations[key] = Rotations(self, key)
        return found

    def malformed(self, action: str) -> str | None:
        """Why ``action`` is not 16 Candies notation at all, or None if it is well formed."""
        verb, _, arg = action.partition(" ")
        if verb in (SKIP, CALL, END):
            return None if not arg else f"{verb!r} takes nothing after it"
        if verb == "draw":
            if arg in ("pile", "discard"):
                return None
            return "'draw' is followed by 'pile' or 'discard', e.g. 'draw pile'"
        if verb == "discard":
            if arg in self.deck.type_of:
                return None
            return (
                f"'discard' is followed by a card code such as G6-K1 or W; {arg!r} is not a card "
                "code"
            )
        if verb == "top":
            halves = arg.split(" ")
            bad = [h for h in halves if h not in self.deck.half_codes]
            if not arg or bad:
                return (
                    "'top' is followed by the top half of each card in hand, in order, "
                    f"e.g. 'top G6 K3 W'; {' '.join(bad) or 'nothing'!r} is not a half"
                )
            return None
        return f"unknown action {verb!r}; 16 Candies actions are: {', '.join(VERBS)}"


class Rotations:
    """The ``top ...`` actions of one hand (a tuple of types, in hand order), built once and cached.

    ``actions`` lists every orientation worth telling apart in binary order (the first card's
    orientation most significant; a Wild has one); ``bits`` gives each action's orientations and
    ``instant`` whether its top halves make an Instant Round Win (4, 5 and 6 of one candy).
    ``held`` is the orientation that shows 4, 5 and 6 of one candy if the cards can, else None;
    ``winning`` every orientation that does.
    """

    __slots__ = ("actions", "bits", "held", "instant", "winning")

    def __init__(self, notation: Notation, hand: tuple[int, ...]) -> None:
        self.actions: list[str] = []
        self.bits: dict[str, tuple[int, ...]] = {}
        self.instant: dict[str, bool] = {}
        self.held: tuple[int, ...] | None = None
        self.winning: set[tuple[int, ...]] = set()  # the orientations that are instant wins
        if len(hand) == 3:
            self._three(notation, *hand)
            return
        deck = notation.deck
        for bits in product(*(deck.orientations[t] for t in hand)):
            halves = [2 * t + o for t, o in zip(hand, bits, strict=True)]
            action = "top " + " ".join(deck.half_code[h] for h in halves)
            win = shows_four_five_six(deck, halves)
            self.actions.append(action)
            self.bits[action] = bits
            self.instant[action] = win
            if win:
                self.winning.add(bits)
                if self.held is None:
                    self.held = bits

    def _three(self, notation: Notation, a: int, b: int, c: int) -> None:
        """The loop above for a hand of three, from the deck's tables (the hot case): the strings
        come from the table, the dicts are built in C, and only hands whose three cards can all
        show a 4, 5 or 6 are checked for an instant win."""
        kind = notation.kind
        bits_list = _BITS[kind[a] * 4 + kind[b] * 2 + kind[c]]
        ha, hb, hc = 2 * a, 2 * b, 2 * c
        # The texts' places in top3, the orientations in binary order (as in bits_list)
        top3 = notation.top3
        place = notation.place
        actions = [top3[x + y + z] for x in place[0][a] for y in place[1][b] for z in place[2][c]]
        self.actions = actions
        self.bits = dict(zip(actions, bits_list, strict=True))
        self.instant = dict.fromkeys(actions, False)
        may_win = notation.may_win
        if may_win[a] and may_win[b] and may_win[c]:
            instant = notation.instant
            for action, bits in zip(actions, bits_list, strict=True):
                oa, ob, oc = bits
                if (ha + oa, hb + ob, hc + oc) in instant:
                    self.instant[action] = True
                    self.winning.add(bits)
                    if self.held is None:
                        self.held = bits


_NOTATIONS: dict[Tables, Notation] = {}


def notation_of(deck: Tables) -> Notation:
    """The deck's notation, built when a game first plays it (kept: a pack's decks are few)."""
    found = _NOTATIONS.get(deck)
    if found is None:
        found = _NOTATIONS[deck] = Notation(deck)
    return found


# The printed deck's, built at import (milliseconds) so that a fresh process meets a new three-card
# hand as fast as a warm one.
PRINTED_NOTATION = notation_of(PRINTED)
DISCARD: tuple[str, ...] = PRINTED_NOTATION.discard
DISCARD_TYPE: dict[str, int] = PRINTED_NOTATION.discard_type
