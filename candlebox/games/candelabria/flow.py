"""The driver: list the top decision's legal actions, carry one out, then run automatic steps until the
next decision (or the War stop, or the end).

Each decision kind has a lister (``st, frame -> list of strings``: the real choices) and a handler
(``st, frame, verb, a, b``). Some decisions may also be declined (``done``, ``skip``, ``stay``, ``spare``):
that text is appended after the real choices. A decision with no real choice is not asked: its frame is
dropped (a Forge action with nothing affordable, a Steal with no opponent holding anything, ...).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from candlebox.games.candelabria import (
    decay,
    deploy,
    effects,
    extinguished,
    kindling,
    maneuver,
    setup,
    territory,
    two_player,
    war,
)
from candlebox.games.candelabria.decision import FIRST_AUTO, IDLE, Auto, Phase
from candlebox.games.candelabria.notation import DONE, SKIP, SPARE, STAY

if TYPE_CHECKING:
    from candlebox.games.candelabria.state import CandelabriaState

Frame = list[int]
Lister = Callable[["CandelabriaState", Frame], list[str]]
Handler = Callable[["CandelabriaState", Frame, int, int, int], None]
Step = Callable[["CandelabriaState", Frame], None]

LEGAL: dict[int, Lister] = {
    Phase.TURN: kindling.turn_actions,
    Phase.DEPLOY_AT: deploy.at_actions,
    Phase.MOVE: maneuver.move_actions,
    Phase.DESTROY: maneuver.destroy_actions,
    Phase.PUSH: maneuver.push_actions,
    Phase.PUSH_TO: maneuver.push_to_actions,
    Phase.FLAME: extinguished.flame_actions,
    Phase.INFLUENCE: territory.influence_actions,
    Phase.TAKE: territory.take_actions,
    Phase.FORGE: territory.forge_actions,
    Phase.MINE: territory.mine_actions,
    Phase.PORTAL: territory.portal_actions,
    Phase.PORTAL_TO: territory.portal_to_actions,
    Phase.KEEP: territory.keep_actions,
    Phase.RETURN: territory.return_actions,
    Phase.IGNITE: effects.ignite_actions,
    Phase.EXTINGUISH: effects.extinguish_actions,
    Phase.EXTINGUISH_AT: effects.extinguish_at_actions,
    Phase.STEAL: effects.steal_actions,
    Phase.RAZE: effects.raze_actions,
    Phase.SHIFT: effects.shift_actions,
    Phase.CURSE_AT: war.curse_at_actions,
    Phase.RECAST: war.recast_actions,
    Phase.LIFT: war.lift_actions,
    Phase.LIFT_TO: war.lift_to_actions,
    Phase.GIFT: war.gift_actions,
    Phase.CANCEL: war.cancel_actions,
    Phase.HAUNT: two_player.haunt_actions,
    Phase.PICK: two_player.pick_actions,
    Phase.DECAY_AT: decay.slot_actions,
    Phase.EITHER: decay.either_actions,
    Phase.NUDGE: decay.nudge_actions,
}
DO: dict[int, Handler] = {
    Phase.TURN: kindling.do_turn,
    Phase.DEPLOY_AT: deploy.do_at,
    Phase.MOVE: maneuver.do_move,
    Phase.DESTROY: maneuver.do_destroy,
    Phase.PUSH: maneuver.do_push,
    Phase.PUSH_TO: maneuver.do_push_to,
    Phase.FLAME: extinguished.do_flame,
    Phase.INFLUENCE: territory.do_influence,
    Phase.TAKE: territory.do_take,
    Phase.FORGE: territory.do_forge,
    Phase.MINE: territory.do_mine,
    Phase.PORTAL: territory.do_portal,
    Phase.PORTAL_TO: territory.do_portal_to,
    Phase.KEEP: territory.do_keep,
    Phase.RETURN: territory.do_return,
    Phase.IGNITE: effects.do_ignite,
    Phase.EXTINGUISH: effects.do_extinguish,
    Phase.EXTINGUISH_AT: effects.do_extinguish_at,
    Phase.STEAL: effects.do_steal,
    Phase.RAZE: effects.do_raze,
    Phase.SHIFT: effects.do_shift,
    Phase.CURSE_AT: war.do_curse_at,
    Phase.RECAST: war.do_recast,
    Phase.LIFT: war.do_lift,
    Phase.LIFT_TO: war.do_lift_to,
    Phase.GIFT: war.do_gift,
    Phase.CANCEL: war.do_cancel,
    Phase.HAUNT: two_player.do_haunt,
    Phase.PICK: setup.do_pick,
    Phase.DECAY_AT: decay.do_slot,
    Phase.EITHER: decay.do_either,
    Phase.NUDGE: decay.do_nudge,
}
AUTO: dict[int, Step] = {
    Auto.EFFECTS: effects.run_effects,
    Auto.AFTER_DEPLOY: deploy.run_after_deploy,
    Auto.DRAW: territory.run_draw,
    Auto.LAND: maneuver.run_land,
    Auto.END_TURN: kindling.run_end_turn,
    Auto.REFILL: territory.run_refill,
    Auto.WAR_PREP: war.run_war_prep,
    Auto.BATTLES: war.run_battles,
    Auto.RESOLVE: war.run_resolve,
    Auto.TACTIC: war.run_tactic,
    Auto.EPILOGUE: war.run_epilogue,
}
# The way to decline a decision that may be declined (after its real choices).
DECLINE: dict[int, str] = {
    Phase.MOVE: DONE,
    Phase.FORGE: DONE,
    Phase.PORTAL: DONE,
    Phase.IGNITE: SKIP,
    Phase.EXTINGUISH: SKIP,
    Phase.STEAL: SKIP,
    Phase.RAZE: SKIP,
    Phase.SHIFT: STAY,
    Phase.NUDGE: STAY,
}
# Decisions with nothing to choose that still do something when dropped.
EMPTY: dict[int, Step] = {Phase.FLAME: extinguished.no_curse}


def _decline(st: CandelabriaState, kind: int) -> str | None:
    if kind == Phase.DESTROY:
        return SPARE if st.castle_entry_optional else None
    if kind == Phase.PUSH:
        return SPARE if st.warrior_push_optional else None
    return DECLINE.get(kind)


def legal(st: CandelabriaState, frame: Frame, seat: int = -1) -> list[str]:
    """The legal actions of the top decision (which has at least one real choice: see advance); for the
    secret choice of tactic cards, those of ``seat``."""
    kind = frame[0]
    if kind in IDLE:
        return []
    if kind == Phase.SECRET:
        return war.secret_actions(st, seat)
    actions = LEGAL[kind](st, frame)
    decline = _decline(st, kind)
    if decline is not None:
        actions.append(decline)
    return actions


def advance(st: CandelabriaState) -> None:
    """Run automatic steps and drop empty decisions until a real decision is on top; cache its list."""
    stack = st.stack
    while True:
        frame = stack[-1]
        kind = frame[0]
        if kind >= FIRST_AUTO:
            AUTO[kind](st, frame)
            continue
        if kind in IDLE or kind == Phase.SECRET:
            st._forget_legal()
            return
        actions = LEGAL[kind](st, frame)
        if not actions:
            stack.pop()
            empty = EMPTY.get(kind)
            if empty is not None:
                empty(st, frame)
            continue
        decline = _decline(st, kind)
        if decline is not None:
            actions.append(decline)
        st._known_legal(
            frame[1], actions
        )  # computed to find an empty decision: the engine keeps it
        return


def do(st: CandelabriaState, seat: int, action: str) -> None:
    frame = st.stack[-1]
    verb, a, b = st.notation.parse[action]
    if frame[0] == Phase.SECRET:
        war.do_secret(st, frame, seat, a, b)
    else:
        DO[frame[0]](st, frame, verb, a, b)
    advance(st)


def start_game(st: CandelabriaState, options: dict[str, Any]) -> None:
    """A new game set up and run to its first decision (the package's ``create``)."""
    if st.two_player and options.get("houses") is None:
        # "Randomly determine which player will choose first" (option first_player fixes it): the
        # game shows a provisional deal until both have chosen (rulings CA-2P1).
        first = options.get("first_player")
        if first is not None and first >= 2:
            raise ValueError(f"option 'first_player': seat {first} is not in a 2-player game")
        chooser = st.rng.below(2) if first is None else first
        logged = len(st.events)
        setup.set_up(st, {**options, "houses": two_player.provisional(st), "first_player": None})
        del st.events[logged:]  # the provisional deal is not logged
        st.stack.append([Phase.PICK, chooser, 0, -1])
        advance(st)
        return
    setup.set_up(st, options)
    setup.start_year(st)
    advance(st)
