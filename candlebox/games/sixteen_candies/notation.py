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

from itertools import product

from candlebox.games.sixteen_candies.cards import (
    CODE,
    HALF_CODE,
    HALF_CODES,
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


_ROTATIONS: dict[tuple[int, ...], Rotations] = {}


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
