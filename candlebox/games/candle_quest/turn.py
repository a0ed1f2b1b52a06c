"""A turn: flip the top candle (then buy, sell or auction it), or loot a discard pile; play passes left.

Also the Additional Rules about the draw stack running out, the bonus turn after guarding, and the
rulings for a turn with nothing to do (docs/rulings.md, 'A turn with nothing to do').
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from candlebox.games.candle_quest import scoring
from candlebox.games.candle_quest.candles import Kind
from candlebox.games.candle_quest.decision import Phase
from candlebox.games.candle_quest.notation import (
    AUCTION,
    BUY,
    FLIP,
    FORCE,
    LOOT,
    PASS,
)
from candlebox.games.candle_quest.notation import (
    SELL as SELL_,
)
from candlebox.games.candle_quest.screen import put_behind

if TYPE_CHECKING:
    from candlebox.games.candle_quest.state import CandleQuestState


# ----------------------------------------------------------------------------- the turn's start
def can_flip(st: CandleQuestState) -> bool:
    if st.stack:
        return True
    return any(len(pile) > 1 for pile in st.piles)


def turn_actions(st: CandleQuestState, seat: int) -> list[str]:
    actions = [FLIP] if can_flip(st) else []
    if st.junior:
        if any(st.content.kind[c] is Kind.UNLIT for c in st.screens[seat]):
            actions.extend(FORCE[s] for s, other in enumerate(st.screens) if s != seat and other)
    else:
        wealth = st.shekels[seat] + st.worth[seat]
        cost = st.content.loot_cost
        actions.extend(
            LOOT[s] for s, pile in enumerate(st.piles) if pile and cost[pile[-1]] <= wealth
        )
    if not actions:
        actions.append(PASS)
    return actions


def rebuild_stack(st: CandleQuestState) -> bool:
    """All discard piles but their top candles, shuffled into a new stack. False if there are none."""
    moved: list[int] = []
    for pile in st.piles:
        if len(pile) > 1:
            moved.extend(pile[:-1])
            del pile[:-1]
    if not moved:
        return False
    st.rng.shuffle(moved)
    st.stack.extend(moved)
    st.events.append(("rebuild", len(moved)))
    return True


def flip(st: CandleQuestState, seat: int) -> bool:
    """Whether the candle flipped is an Unlit one left on the table, which the flipper must guard
    against (guard.py: the phase machine in rules.py takes that step)."""
    st.passes = 0
    content = st.content
    while True:
        if not st.stack and not rebuild_stack(st):
            st.events.append(("no-candle", seat))
            end_turn(st)
            return False
        candle = st.stack.pop()
        if content.kind[candle] is Kind.UNLIT:
            if st.bonus:  # a further Unlit candle this turn: set aside, draw again
                st.aside.append(candle)
                st.events.append(("set-aside", seat, content.code[candle]))
                continue
            st.events.append(("flip", seat, content.code[candle]))
            st.table = candle
            return True
        st.events.append(("flip", seat, content.code[candle]))
        st.table = candle
        st.phase = Phase.CHOOSE
        return False


# ----------------------------------------------------------------------------- buy, sell
def choose_actions(st: CandleQuestState, seat: int) -> list[str]:
    money = st.shekels[seat]
    actions = [BUY, SELL_] if money >= st.content.face[st.table] else [SELL_]
    if not st.junior and money >= 1:
        actions.extend(AUCTION[1 : money + 1])
    return actions


def buy(st: CandleQuestState, seat: int) -> None:
    candle = st.table
    price = st.content.face[candle]
    st.shekels[seat] -= price
    st.bank += price
    st.table = -1
    st.events.append(("buy", seat, st.content.code[candle], price))
    collect(st, seat, candle)


def sell(st: CandleQuestState, seat: int) -> None:
    candle = st.table
    # a dry bank pays what it has (rulings: 'The bank')
    received = min(st.content.sell[candle], st.bank)
    st.bank -= received
    st.shekels[seat] += received
    st.piles[seat].append(candle)
    st.table = -1
    st.events.append(("sell", seat, st.content.code[candle], received))
    end_turn(st)


# ----------------------------------------------------------------------------- gains and turn ends
def collect(st: CandleQuestState, seat: int, candle: int) -> None:
    """A candle goes behind ``seat``'s screen; the game ends at once if it completes the Menorah."""
    put_behind(st, seat, candle)
    if scoring.menorah_complete(st.screens[seat], st.content):
        scoring.end_game(st, "menorah", completer=seat)
    else:
        end_turn(st)


def pass_turn(st: CandleQuestState, seat: int) -> None:
    st.events.append(("pass", seat))
    st.passes += 1
    if st.passes >= st.num_players:  # a whole round with nothing anyone could do: it stays so
        scoring.end_game(st, "stalled")
    else:
        end_turn(st)


def start_bonus_turn(st: CandleQuestState) -> None:
    st.bonus = True
    st.phase = Phase.TURN
    st.actor = st.active
    st.events.append(("bonus-turn", st.active))


def end_turn(st: CandleQuestState) -> None:
    if st.aside:  # set-aside Unlit candles are mixed back into the stack at the end of the turn
        st.stack.extend(st.aside)
        st.events.append(("mix-back", len(st.aside)))
        st.aside.clear()
        st.rng.shuffle(st.stack)
    st.turns += 1
    st.events.append(("end-turn", st.active, st.turns))
    if st.turns >= st.max_turns:
        scoring.end_game(st, "max-turns")
        return
    st.active = st.actor = (st.active + 1) % st.num_players
    st.bonus = False
    st.phase = Phase.TURN
