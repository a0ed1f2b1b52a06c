"""Extinguished Land Flames: "any Land Flame extinguished by another player can be placed by a player in
the Curse Cards area instead of being placed back in their supply."

The Land Flame's owner decides (``curse K`` or ``supply``), whoever's turn it is: the owner's seat is the
one in ``to_act`` for that decision (rulings CA-27). A Land Flame removed by a castle's entry counts as
extinguished too (CA-20).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from candlebox.games.candelabria import missions
from candlebox.games.candelabria.decision import Phase
from candlebox.games.candelabria.marks import CURSE_BOARD, moved
from candlebox.games.candelabria.notation import SUPPLY, Verb
from candlebox.games.candelabria.pieces import (
    candle_flame_back,
    land_flame_to_supply,
    lift_land_flame,
)

if TYPE_CHECKING:
    from candlebox.games.candelabria.state import CandelabriaState


def extinguish_land_flame(st: CandelabriaState, owner: int, t: int) -> None:
    """The owner's Land Flame leaves territory ``t``; the owner then places it (a decision)."""
    lift_land_flame(st, owner, t)
    if st.two_player:
        # 2-player: "any Land Flame extinguished by the other player will move any Curse 1 territory"
        # — back to its owner's supply; its owner moves a curse (rulings CA-2P4).
        land_flame_to_supply(st, owner)
        st.events.append(("flame", owner, -1))
        st.stack.append([Phase.HAUNT, owner, 1])
        return
    st.stack.append([Phase.FLAME, owner])


def put_out(st: CandelabriaState, kind: str, seat: int, t: int, owner: int, role: int) -> bool:
    """``seat`` puts out, in territory ``t``, the owner's Land Flame (``role`` -1) or the flame of
    its candle ``role`` (the event ``kind``: "extinguish", or "destroy" by a castle's entry);
    whether that candle is left without a flame (for the missions that count how)."""
    st.events.append((kind, seat, st.board.names[t], owner, role))
    if role < 0:
        missions.note(st, seat, "land-flame")
        extinguish_land_flame(st, owner, t)
        return False
    candle_flame_back(st, owner, role)
    if st.candle_flames[owner][role] > 0:
        return False
    missions.note(st, seat, "candle-out")
    return True


def flame_actions(st: CandelabriaState, frame: list[int]) -> list[str]:
    # In War Preparation only the curses not yet granted take flames (rulings CA-W5).
    if st.curses_granted >= len(st.curses):
        return []
    return [*st.notation.curse[st.curses_granted : len(st.curses)], SUPPLY]


def do_flame(st: CandelabriaState, frame: list[int], verb: int, a: int, b: int) -> None:
    st.stack.pop()
    owner = frame[1]
    if verb == Verb.SUPPLY:
        land_flame_to_supply(st, owner)
        st.events.append(("flame", owner, -1))
    else:
        st.curse_influence[a][owner] += 1
        moved(st, CURSE_BOARD)
        st.events.append(("flame", owner, a))


def no_curse(st: CandelabriaState, frame: list[int]) -> None:
    """No Curse card on the board: the flame can only go back to the supply."""
    land_flame_to_supply(st, frame[1])
    st.events.append(("flame", frame[1], -1))
