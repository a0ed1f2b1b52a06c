"""The pending decision: which kind of choice the game waits for (who decides is ``state.actor``).

A turn is split into steps so every list of legal actions stays small and every turn ends after at most
four of them: ``DRAW`` (from the draw pile or the discard pile), ``DISCARD`` (one of the four cards),
``ROTATE`` (the orientation of the three cards kept: any rotations made during the turn come down to
this) and ``CALL`` (call "I've got candy!" or end the turn). ``SETUP`` is the orientation every player
chooses when picking up a new hand, one seat after another from the First Player Marker.
"""

from enum import IntEnum


class Phase(IntEnum):
    SETUP = 0  # a player picks up the dealt cards and orients them: top ...
    DRAW = 1  # draw pile | draw discard (| skip, with draw=optional)
    DISCARD = 2  # discard CODE
    ROTATE = 3  # top ... : the orientation of the three cards kept
    CALL = 4  # call | end
    OVER = 5


NAMES = {
    Phase.SETUP: "orient",
    Phase.DRAW: "draw",
    Phase.DISCARD: "discard",
    Phase.ROTATE: "rotate",
    Phase.CALL: "call",
}
