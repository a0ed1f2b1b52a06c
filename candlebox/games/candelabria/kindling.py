"""Kindling Season: turns in turn order, each a Deploy or a Maneuver, until every hand is empty.

"A player cannot decide to pass their turn ... until they have run out of the Candle Cards in their
possession." A player with cards always has a legal action (any card can be discarded to maneuver); a
player without cards is skipped. "When all players have no more Candle Cards in their hand, this Season is
concluded" — then the War Season (war.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from candlebox.games.candelabria import deploy, maneuver, missions
from candlebox.games.candelabria.decision import Auto, Phase
from candlebox.games.candelabria.notation import Verb
from candlebox.games.candelabria.scoring import end_game
from candlebox.games.candelabria.war import to_war

if TYPE_CHECKING:
    from candlebox.games.candelabria.state import CandelabriaState


def start_kindling(st: CandelabriaState) -> None:
    st.events.append(("kindling", st.year))
    for seat in st.order:
        if st.hands[seat]:
            begin_turn(st, seat)
            return
    to_war(st)


def begin_turn(st: CandelabriaState, seat: int) -> None:
    st.active = seat
    st.stack.append([Phase.TURN, seat])


def turn_actions(st: CandelabriaState, frame: list[int]) -> list[str]:
    seat = frame[1]
    return deploy.deploy_actions(st, seat) + maneuver.maneuver_actions(st, seat)


def do_turn(st: CandelabriaState, frame: list[int], verb: int, a: int, b: int) -> None:
    seat = frame[1]
    st.stack.pop()
    st.stack.append([Auto.END_TURN, seat])
    missions.new_action(st)
    if verb == Verb.DEPLOY:
        deploy.deploy(st, seat, a, b)
    else:
        maneuver.begin_maneuver(st, seat, a)


def run_end_turn(st: CandelabriaState, frame: list[int]) -> None:
    st.stack.pop()
    seat = frame[1]
    st.turns += 1
    st.events.append(("end-turn", seat, st.turns))
    if st.turns >= st.max_turns:
        end_game(st, "max-turns")
        return
    order = st.order
    n = len(order)
    start = order.index(seat)
    for step in range(1, n + 1):
        nxt = order[(start + step) % n]
        if st.hands[nxt]:
            begin_turn(st, nxt)
            return
    to_war(st)
