"""The pending decision, made explicit: a stack of small frames of plain integers.

Candelabria's decisions nest (a maneuver's move enters a territory, the castle there destroys a Land Flame,
whose owner decides where it goes, then the mover's Land Flame triggers a territory action of several
picks, then the next move...). The state keeps them as a stack of frames, each a list of ints
``[kind, seat, ...]``; the top frame is the pending decision and its seat is the only one in ``to_act``.
Frames whose kind is an :class:`Auto` step need no decision: the driver (``flow.advance``) runs them until
a decision is on top. A frame is plain data, so a state clones and saves like any other.

Frame layouts (after ``kind, seat``):

=============== ======================================================================================
TURN            —                              a Kindling turn: deploy or maneuver
DEPLOY_AT       role                           Satores: the territory the new candle is placed on
MOVE            moves left, extra used, moved  a maneuver: move a model, the extra move, or done
DESTROY         territory                      a castle entered: which enemy flame it destroys
PUSH            territory, steps               a Warrior entered: which enemy candle retreats
PUSH_TO         territory, steps, seat, role   ... and where to
FLAME           —                              an extinguished Land Flame: its owner places it
INFLUENCE       flames left                    Curse Influence: one flame in front of a Curse
TAKE            cards left                     Barracks / Draw Tactic: take from the Tactics board
FORGE           purchases left                 Forge: an Upgrade tile, a Temple level, or done
MINE            count                          Mine: the mix of gold and wax
PORTAL          relocations left, moved        Portal: a miniature to relocate, or done
PORTAL_TO       model                          ... and where to
KEEP            —                              Nova Vita: keep one of the (up to) three cards drawn
RETURN          cards left                     Inn: a candle card back under the Advanced deck
IGNITE          count, region                  Ignite: a flame on your candle or a Land Flame
EXTINGUISH      count, region                  Extinguish: the territory
EXTINGUISH_AT   territory                      ... and the enemy flame there
STEAL           count                          Steal: one resource from an opponent
RAZE            count, region                  Destroy Temple: the region
SHIFT           region                         Luminis: move a candle within a region with a new
                                               or destroyed temple
CURSE_AT        curse place                    War Preparation: where the curse's winner places it
RECAST          region                         curse: perform again a candle's effects
LIFT            region                         curse: a candle of the region to place anywhere
LIFT_TO         owner, role                    ... and where to
GIFT            region                         curse: a Temple in the region or a free Upgrade tile
SECRET          region                         a battle: each participant's secret tactic cards
                                               (seat -1: every participant yet to choose acts)
CANCEL          region                         a battle: cancel an opponent's card with one of yours
WAR             —                              (unused: kept so old numbers stay readable)
OVER            —                              the game is over
HAUNT           moves left                     2-player: move any curse one territory, per count
PICK            stage, first house             2-player: the house choice (stage 0 the first
                                               chooser, 1 the other, on the opposite side)
DECAY_AT        card                           Decay: the War Board slot the drawn card covers
EITHER          card, region                   Decay: which half of an "A or B" effect
NUDGE           —                              Decay: move one of your candles one territory
=============== ======================================================================================

Auto steps: EFFECTS (seat, card, next effect) · AFTER_DEPLOY (seat, next trigger) · DRAW (seat, left,
then-return flag, drawn) · LAND (seat, territory) · END_TURN (seat) · REFILL · WAR_PREP (grant the
curses one by one) · BATTLES (the next region at war) · RESOLVE (region, next participant) · TACTIC (seat,
tactic type or ~war-board slot, next effect — -1: the card is yet to be resolved —, region) · EPILOGUE.
"""

from enum import IntEnum


class Phase(IntEnum):
    TURN = 0
    DEPLOY_AT = 1
    MOVE = 2
    DESTROY = 3
    PUSH = 4
    PUSH_TO = 5
    FLAME = 6
    INFLUENCE = 7
    TAKE = 8
    FORGE = 9
    MINE = 10
    PORTAL = 11
    PORTAL_TO = 12
    KEEP = 13
    RETURN = 14
    IGNITE = 15
    EXTINGUISH = 16
    EXTINGUISH_AT = 17
    STEAL = 18
    RAZE = 19
    SHIFT = 20
    CURSE_AT = 21
    RECAST = 22
    LIFT = 23
    LIFT_TO = 24
    GIFT = 25
    SECRET = 26
    CANCEL = 27
    WAR = 28
    OVER = 29
    HAUNT = 30
    PICK = 31
    DECAY_AT = 32
    EITHER = 33
    NUDGE = 34


# The kinds on top of the stack that are not a seat's decision (numbered before the later decisions).
IDLE = frozenset({Phase.WAR, Phase.OVER})


class Auto(IntEnum):
    EFFECTS = 40
    AFTER_DEPLOY = 41
    DRAW = 42
    LAND = 43
    END_TURN = 44
    REFILL = 45
    WAR_PREP = 46
    BATTLES = 47
    RESOLVE = 48
    TACTIC = 49
    EPILOGUE = 50


FIRST_AUTO = 40

NAMES: dict[int, str] = {p: p.name.lower().replace("_", "-") for p in Phase}
NAMES.update({a: a.name.lower().replace("_", "-") for a in Auto})

# How long each frame kind is (kind and seat included), for validating saved games.
FRAME_LENGTH: dict[int, int] = {
    Phase.TURN: 2,
    Phase.DEPLOY_AT: 3,
    Phase.MOVE: 5,
    Phase.DESTROY: 3,
    Phase.PUSH: 4,
    Phase.PUSH_TO: 6,
    Phase.FLAME: 2,
    Phase.INFLUENCE: 3,
    Phase.TAKE: 3,
    Phase.FORGE: 3,
    Phase.MINE: 3,
    Phase.PORTAL: 4,
    Phase.PORTAL_TO: 3,
    Phase.KEEP: 2,
    Phase.RETURN: 3,
    Phase.IGNITE: 4,
    Phase.EXTINGUISH: 4,
    Phase.EXTINGUISH_AT: 3,
    Phase.STEAL: 3,
    Phase.RAZE: 4,
    Phase.SHIFT: 3,
    Phase.CURSE_AT: 3,
    Phase.RECAST: 3,
    Phase.LIFT: 3,
    Phase.LIFT_TO: 4,
    Phase.GIFT: 3,
    Phase.SECRET: 3,
    Phase.CANCEL: 3,
    Phase.WAR: 2,
    Phase.OVER: 2,
    Phase.HAUNT: 3,
    Phase.PICK: 4,
    Phase.DECAY_AT: 3,
    Phase.EITHER: 4,
    Phase.NUDGE: 2,
    Auto.EFFECTS: 4,
    Auto.AFTER_DEPLOY: 3,
    Auto.DRAW: 5,
    Auto.LAND: 3,
    Auto.END_TURN: 2,
    Auto.REFILL: 2,
    Auto.WAR_PREP: 2,
    Auto.BATTLES: 2,
    Auto.RESOLVE: 4,
    Auto.TACTIC: 5,
    Auto.EPILOGUE: 2,
}

# Models on the map: the three candle roles (also the House Board's seal slots) and the castle.
EXPLORER, PILGRIM, WARRIOR, CASTLE = range(4)
ROLE_LETTER = "EPW"
MODEL_LETTER = "EPWC"
ROLE_NAMES = ("Explorer", "Pilgrim", "Warrior")
ROLE_FLAMES = (2, 3, 4)  # "The Explorer has two flames ... Pilgrim three ... Warrior four."
