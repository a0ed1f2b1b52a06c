"""16 Candies action notation (documented in docs/notation/sixteen-candies.md).

Every action is short text a person can type:

- ``draw pile`` / ``draw discard`` — take the top card of the draw pile or of the discard pile;
  ``skip`` — draw nothing (only with the option ``draw=optional``);
- ``discard G6-K1`` — discard that card (a card's code joins its two halves; the Wild is ``W``);
- ``top G6 K3 W`` — turn the cards in hand (in the order the view lists them) so these halves are on
  top; used when picking up a new hand and after the discard;
- ``call`` — say "I've got candy!"; ``end`` — end the turn without calling.

The strings are built once here (orientation lists once per hand, then cached) so that listing legal
actions allocates nothing new on the hot path.
"""

from __future__ import annotations

from collections import Counter
from itertools import product

from candlebox.games.sixteen_candies.cards import (
    CODE,
    DECK,
    HALF_CANDY,
    HALF_CODE,
    HALF_CODES,
    HALF_COUNT,
    INSTANT_COUNTS,
    ORIENTATIONS,
    TYPE_OF,
)
from candlebox.games.sixteen_candies.instant_win import shows_four_five_six

DRAW_PILE = "draw pile"
DRAW_DISCARD = "draw discard"
SKIP = "skip"
CALL = "call"
END = "end"
DISCARD: tuple[str, ...] = tuple(f"discard {code}" for code in CODE)
DISCARD_TYPE: dict[str, int] = {action: t for t, action in enumerate(DISCARD)}

VERBS = ("draw", "skip", "discard", "top", "call", "end")

# Built at import (milliseconds) so that a fresh process meets a new three-card hand as fast as a warm
# one: every ``top A B C`` text (25 half codes: 15,625 texts, shared by every hand that shows them) and
# the ordered half triples that are instant wins. Building the strings and checking the wins hand by
# hand made a fresh process play its first hundred games at about two thirds of its later speed
# (issue 18).
_CODES: tuple[str, ...] = tuple(dict.fromkeys(HALF_CODE))
_CODE_NUMBER: tuple[int, ...] = tuple(_CODES.index(code) for code in HALF_CODE)  # by half id
_TOP3: tuple[str, ...] = tuple(f"top {a} {b} {c}" for a, b, c in product(_CODES, repeat=3))
_INSTANT: frozenset[tuple[int, ...]] = frozenset(
    triple
    for triple in product(
        [
            h
            for h in range(len(HALF_CODE))
            if HALF_CANDY[h] >= 0 and HALF_COUNT[h] in INSTANT_COUNTS
        ],
        repeat=3,
    )
    if shows_four_five_six(list(triple))
)
# Per card type: 1 if it has two orientations worth telling apart (a Wild has one), and whether one
# of its halves can take part in an instant win; the orientation lists of the eight kinds of hand.
_KIND: tuple[int, ...] = tuple(len(ORIENTATIONS[t]) - 1 for t in range(len(ORIENTATIONS)))
_MAY_WIN: tuple[bool, ...] = tuple(
    any(half in triple for triple in _INSTANT for half in (2 * t, 2 * t + 1))
    for t in range(len(ORIENTATIONS))
)
# _PLACE[k][t]: what card type t adds, in each of its orientations worth telling apart, to the index in
# _TOP3 of a text whose k-th half it shows (its code's number times 25 ** (2 - k)).
_PLACE: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(_CODE_NUMBER[2 * t + o] * len(_CODES) ** (2 - k) for o in range(_KIND[t] + 1))
        for t in range(len(ORIENTATIONS))
    )
    for k in range(3)
)
_BITS: tuple[list[tuple[int, ...]], ...] = tuple(
    list(product(range((k >> 2 & 1) + 1), range((k >> 1 & 1) + 1), range((k & 1) + 1)))
    for k in range(8)
)


class Rotations:
    """The ``top ...`` actions of one hand (a tuple of types, in hand order), built once and cached.

    ``actions`` lists every orientation worth telling apart in binary order (the first card's
    orientation most significant; a Wild has one); ``bits`` gives each action's orientations and
    ``instant`` whether its top halves make an Instant Round Win (4, 5 and 6 of one candy).
    ``held`` is the orientation that shows 4, 5 and 6 of one candy if the cards can, else None;
    ``winning`` every orientation that does.
    """

    __slots__ = ("actions", "bits", "held", "instant", "winning")

    def __init__(self, hand: tuple[int, ...]) -> None:
        self.actions: list[str] = []
        self.bits: dict[str, tuple[int, ...]] = {}
        self.instant: dict[str, bool] = {}
        self.held: tuple[int, ...] | None = None
        self.winning: set[tuple[int, ...]] = set()  # the orientations that are instant wins
        if len(hand) == 3:
            self._three(*hand)
            return
        for bits in product(*(ORIENTATIONS[t] for t in hand)):
            halves = [2 * t + o for t, o in zip(hand, bits, strict=True)]
            action = "top " + " ".join(HALF_CODE[h] for h in halves)
            win = shows_four_five_six(halves)
            self.actions.append(action)
            self.bits[action] = bits
            self.instant[action] = win
            if win:
                self.winning.add(bits)
                if self.held is None:
                    self.held = bits

    def _three(self, a: int, b: int, c: int) -> None:
        """The loop above for a hand of three, from the tables built at import (the hot case): the
        strings come from the table, the dicts are built in C, and only hands whose three
        cards can all show a 4, 5 or 6 are checked for an instant win."""
        bits_list = _BITS[_KIND[a] * 4 + _KIND[b] * 2 + _KIND[c]]
        ha, hb, hc = 2 * a, 2 * b, 2 * c
        # The texts' places in _TOP3, the orientations in binary order (as in bits_list)
        top3 = _TOP3
        actions = [
            top3[x + y + z] for x in _PLACE[0][a] for y in _PLACE[1][b] for z in _PLACE[2][c]
        ]
        self.actions = actions
        self.bits = dict(zip(actions, bits_list, strict=True))
        self.instant = dict.fromkeys(actions, False)
        if _MAY_WIN[a] and _MAY_WIN[b] and _MAY_WIN[c]:
            for action, bits in zip(actions, bits_list, strict=True):
                oa, ob, oc = bits
                if (ha + oa, hb + ob, hc + oc) in _INSTANT:
                    self.instant[action] = True
                    self.winning.add(bits)
                    if self.held is None:
                        self.held = bits


_ROTATIONS: dict[tuple[int, ...], Rotations] = {}


def build_hands() -> None:
    """Build every hand of three the box can deal (hands are kept sorted by type: 7,807 of them),
    once per process, at its first new game: about 50 ms of CPU. Built as they were met, a fresh
    process's first hundred games met thousands of them and ran at about three quarters of the
    warm speed (issue 18; bench/cold_start.py). Not at import: ``import candlebox`` loads every
    game, and a process that never plays 16 Candies should not pay for it. A hand of another deck
    (the ``deck`` option) is built when first met."""
    if _BUILT:
        return
    copies = Counter(DECK.full_set)
    types = range(len(ORIENTATIONS))
    for a in types:
        for b in range(a, len(types)):
            if a == b and copies[a] < 2:
                continue
            for c in range(b, len(types)):
                if b == c and copies[b] < (3 if a == b else 2):
                    continue
                hand = (a, b, c)
                if hand not in _ROTATIONS:
                    _ROTATIONS[hand] = Rotations(hand)
    _BUILT.append(True)


_BUILT: list[bool] = []  # one entry once build_hands has run


def rotations(hand: list[int]) -> Rotations:
    key = tuple(hand)
    found = _ROTATIONS.get(key)
    if found is None:
        found = _ROTATIONS[key] = Rotations(key)
    return found


def malformed(action: str) -> str | None:
    """Why ``action`` is not 16 Candies notation at all, or None if it is well formed."""
    verb, _, arg = action.partition(" ")
    if verb in (SKIP, CALL, END):
        return None if not arg else f"{verb!r} takes nothing after it"
    if verb == "draw":
        if arg in ("pile", "discard"):
            return None
        return "'draw' is followed by 'pile' or 'discard', e.g. 'draw pile'"
    if verb == "discard":
        if arg in TYPE_OF:
            return None
        return (
            f"'discard' is followed by a card code such as G6-K1 or W; {arg!r} is not a card code"
        )
    if verb == "top":
        halves = arg.split(" ")
        bad = [h for h in halves if h not in HALF_CODES]
        if not arg or bad:
            return (
                "'top' is followed by the top half of each card in hand, in order, "
                f"e.g. 'top G6 K3 W'; {' '.join(bad) or 'nothing'!r} is not a half"
            )
        return None
    return f"unknown action {verb!r}; 16 Candies actions are: {', '.join(VERBS)}"
