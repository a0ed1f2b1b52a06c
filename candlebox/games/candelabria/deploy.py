"""Deploy: a candle card on a free seal slot (Explorer 2 flames, Pilgrim 3, Warrior 4), its wax paid, the
model at the castle's territory, the card's effects if its year has come, then an Advanced card drawn.

"Choose one of the Candles in your possession and decide which role to give to it" · "Pay the card's Wax
cost" · "place it in the same territory where your Wandering Castle is located" · "Perform the effects
printed on the deployed Candle Card if the Year listed has been reached or beyond" · "Draw a new Candle
Card from the Advanced Candle Card deck". Upgrades and powers that trigger "when you deploy a Candle"
resolve after the card's own effects, before the draw (rulings CA-18).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from candlebox.games.candelabria import effects, missions
from candlebox.games.candelabria.decision import ROLE_FLAMES, Auto, Phase
from candlebox.games.candelabria.marks import CANDLES, FLAME_SUPPLY, SEALS, hand_moved, moved
from candlebox.games.candelabria.pieces import pay_wax
from candlebox.games.candelabria.upgrades import has_power, triggers

if TYPE_CHECKING:
    from candlebox.games.candelabria.state import CandelabriaState


def deploy_actions(st: CandelabriaState, seat: int) -> list[str]:
    free = [r for r in range(3) if st.seal_cards[seat][r] < 0]
    if not free:
        return []
    wax = st.wax[seat]
    cards = st.content.candles
    table = st.notation.deploy
    return [table[c][r] for c in st.hands[seat] if cards[c].cost <= wax for r in free]


def deploy(st: CandelabriaState, seat: int, card: int, role: int) -> None:
    st.hands[seat].remove(card)
    if card in st.known_hands[seat]:
        st.known_hands[seat].remove(card)
    hand_moved(st, seat)
    st.seal_cards[seat][role] = card
    moved(st, SEALS)
    if min(st.seal_cards[seat]) >= 0:  # its third candle of the year (rulings CA-M3)
        missions.note(st, seat, "third-candle")
    cost = st.content.candles[card].cost
    pay_wax(st, seat, cost)
    # "Supply running out": a candle takes the flames its role gives, as many as are left (CA-37).
    flames = min(ROLE_FLAMES[role], st.candle_flame_supply[seat])
    st.candle_flame_supply[seat] -= flames
    st.candle_flames[seat][role] = flames
    moved(st, FLAME_SUPPLY)
    moved(st, CANDLES)
    stack = st.stack
    stack.append([Auto.DRAW, seat, 1, 0, 0])
    stack.append([Auto.AFTER_DEPLOY, seat, 0])
    stack.append([Auto.EFFECTS, seat, card, 0])
    code = st.content.candles[card].code
    if has_power(st, seat, "deploy-anywhere"):
        st.events.append(("deploy", seat, code, role, cost, flames, None))
        stack.append([Phase.DEPLOY_AT, seat, role])
        return
    st.candle_territories[seat][role] = st.castles[seat]
    moved(st, CANDLES)
    st.events.append(("deploy", seat, code, role, cost, flames, st.board.names[st.castles[seat]]))


def at_actions(st: CandelabriaState, frame: list[int]) -> list[str]:
    """Satores Order, Year I: "When you deploy a Candle you can deploy it in any territory." """
    return list(st.notation.at)


def do_at(st: CandelabriaState, frame: list[int], verb: int, a: int, b: int) -> None:
    st.stack.pop()
    seat, role = frame[1], frame[2]
    st.candle_territories[seat][role] = a
    moved(st, CANDLES)
    st.events.append(("place", seat, role, st.board.names[a]))


def run_after_deploy(st: CandelabriaState, frame: list[int]) -> None:
    """The seat's "when you deploy a Candle" upgrades and powers, one after another."""
    seat, index = frame[1], frame[2]
    found = triggers(st, seat, "deploy-")
    if index >= len(found):
        st.stack.pop()
        return
    frame[2] = index + 1
    effect, amount = found[index]
    if effect == "deploy-vp":
        effects.gain_vp(st, seat, amount, "upgrade")
    elif effect == "deploy-ignite":
        st.stack.append([Phase.IGNITE, seat, amount, -1])
    elif effect == "deploy-extinguish":
        st.stack.append([Phase.EXTINGUISH, seat, amount, -1])
    elif effect == "deploy-steal":
        st.stack.append([Phase.STEAL, seat, amount])
