"""2-Player Mode: the printed differences from the 3–5 player game.

* Setup and House Choice: "Randomly determine which player will choose first. They will indicate a starting
  Region ... and take the respective House. Then, the other player will choose a Region (and a House) from
  the two available to them on the opposite side of the map." Both are decisions (``house X``); until
  the second choice the game shows a provisional deal, which the choice replaces by a fresh setup with the
  chosen houses (rulings CA-2P1; the fresh setup is setup.py's ``rebuild``). Option ``houses`` fixes
  both (one west, one east).
* Mist (mist.py): draw until 3 curses are on the holder; each new curse stands on its region's Mine.
* Curse Influence: "move any Curse 1 territory (not Region) for each territory with this icon on which
  you have placed a Land Flame" — ``haunt K T``: curse K to a neighbouring territory T (CA-2P3).
* Extinguished Land Flames: "any Land Flame extinguished by the other player will move any Curse 1
  territory" — the flame goes back to its owner's supply and its owner moves a curse (CA-2P4).
* War: no curses granted; battles only in the regions holding a curse standee; curses have no combat
  power; common tactic cards go under the Tactics deck when used or cancelled (CA-2P6); only the two
  leftmost curse cards are discarded in the Epilogue (CA-2P7).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from candlebox.games.candelabria.marks import CURSE_MODELS, DECKS, TACTICS_USED, moved

if TYPE_CHECKING:
    from candlebox.games.candelabria.state import CandelabriaState


# ----------------------------------------------------------------------------- house choice
def seatable(st: CandelabriaState) -> list[int]:
    return list(st.content.seatable(st.side))


def half_of(st: CandelabriaState, house: int) -> str | None:
    return st.board.half.get(st.content.houses[house].region)


def opposite(st: CandelabriaState, first: int) -> list[int]:
    """The houses starting on the other half of the board from ``first``'s start region."""
    mine = half_of(st, first)
    return [h for h in seatable(st) if h != first and half_of(st, h) not in (mine, None)]


def provisional(st: CandelabriaState) -> list[str]:
    """Two houses on opposite sides, shown until the choice is made."""
    first = seatable(st)[0]
    return [st.content.houses[h].code for h in (first, opposite(st, first)[0])]


def check_pair(st: CandelabriaState, houses: list[int]) -> None:
    a, b = houses
    if b not in opposite(st, a):
        raise ValueError(
            "option 'houses': in the 2-player mode the second house starts on the opposite side of "
            f"the map from the first ({st.content.houses[a].name} starts in the "
            f"{half_of(st, a)}; rulings CA-2P1)"
        )


def pick_actions(st: CandelabriaState, frame: list[int]) -> list[str]:
    table = st.notation.house
    if frame[2] == 0:
        return [table[h] for h in seatable(st)]
    return [table[h] for h in opposite(st, frame[3])]


# ----------------------------------------------------------------------------- moving the curses
def haunt_actions(st: CandelabriaState, frame: list[int]) -> list[str]:
    if frame[2] <= 0:
        return []
    table = st.notation.haunt
    adj = st.board.adj
    return [table[k][n] for k, t in enumerate(st.curse_models) if t >= 0 for n in adj[t]]


def do_haunt(st: CandelabriaState, frame: list[int], verb: int, a: int, b: int) -> None:
    frame[2] -= 1
    names = st.board.names
    st.events.append(("haunt", frame[1], a, names[b]))
    st.curse_models[a] = b
    moved(st, CURSE_MODELS)


# ----------------------------------------------------------------------------- disposable tactics
def spend_tactic(st: CandelabriaState, seat: int, card: int) -> None:
    """A tactic card used or cancelled: a common card goes under the Tactics deck at once (2-player),
    a house card back to its War Board in the Epilogue (CA-2P6); in 3–5 players, every card waits for
    the Epilogue."""
    if st.two_player and st.content.tactics[card].house < 0:
        st.tactics_deck.insert(0, card)
        moved(st, DECKS)
    else:
        st.tactics_used[seat].append(card)
        moved(st, TACTICS_USED)
