"""Candle Quest in words: the log's sentences, plain strings shared by the terminal, the server and the
pages (the terminal colours the candle codes through :class:`candlebox.engine.plugin.Marks`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from candlebox.engine.plugin import (
    PLAIN,
    EventSentence,
    GameText,
    Marks,
    code_text,
    events_in_words,
    game_over_sentence,
)
from candlebox.engine.state import State
from candlebox.games.candle_quest.decision import FOR_GUARD, Phase
from candlebox.games.candle_quest.state import CandleQuestState
from candlebox.games.candle_quest.words import table

_c = code_text  # a code from an entry, marked (a dash when there is none)


# ----------------------------------------------------------------------------- the log
def _seat(entry: dict[str, Any], key: str = "seat", m: Marks = PLAIN) -> str:
    return m.seat(entry.get(key))  # type: ignore[arg-type]


def _count(n: Any, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _auction_won(e: dict[str, Any], m: Marks) -> str:
    payee = "the bank" if e.get("paid_to") == "bank" else _seat(e, "paid_to", m)
    return f"{_seat(e, m=m)} wins the auction for {_c(m, e.get('candle'))}, paying {e.get('price')} to {payee}"


def _discard(e: dict[str, Any], m: Marks) -> str:
    where = "out of the game" if e.get("to") == "removed" else "onto their discard pile"
    return f"{_seat(e, m=m)} discards {_c(m, e.get('candle'))} {where}"


_game_over = game_over_sentence(
    {
        "menorah": "a Menorah is complete",
        "max-turns": "the turn limit is reached",
        "stalled": "nobody can do anything",
    }
)


LINES: dict[str, EventSentence] = {
    "start-draw": lambda e, m: f"{_seat(e, m=m)} draws {_c(m, e.get('candle'))} for the start",
    "start-player": lambda e, m: f"{_seat(e, m=m)} starts",
    "flip": lambda e, m: f"{_seat(e, m=m)} flips {_c(m, e.get('candle'))}",
    "set-aside": lambda e, m: f"{_seat(e, m=m)} flips {_c(m, e.get('candle'))} and sets it aside",
    "no-candle": lambda e, m: f"{_seat(e, m=m)} has no candle to flip",
    "rebuild": lambda e, m: (
        f"the discard piles are shuffled into a new stack of {_count(e.get('count'), 'candle')}"
    ),
    "mix-back": lambda e, m: (
        f"{_count(e.get('count'), 'set-aside candle')} shuffled back into the stack"
    ),
    "buy": lambda e, m: f"{_seat(e, m=m)} buys {_c(m, e.get('candle'))} for {e.get('price')}",
    "sell": lambda e, m: f"{_seat(e, m=m)} sells {_c(m, e.get('candle'))} for {e.get('received')}",
    "auction": lambda e, m: (
        f"{_seat(e, m=m)} auctions {_c(m, e.get('candle'))}, opening at {e.get('bid')}"
    ),
    "bid": lambda e, m: f"{_seat(e, m=m)} bids {e.get('amount')}",
    "pass-bid": lambda e, m: f"{_seat(e, m=m)} passes",
    "auction-won": _auction_won,
    "loot": lambda e, m: (
        f"{_seat(e, m=m)} loots {_c(m, e.get('candle'))} from {_seat(e, 'from', m)}'s pile "
        f"(costs {e.get('cost')})"
    ),
    "looted": lambda e, m: f"{_seat(e, m=m)} puts {_c(m, e.get('candle'))} behind the screen",
    "discard": _discard,
    "pay": lambda e, m: f"{_seat(e, m=m)} pays {e.get('amount')}",
    "guard": lambda e, m: (
        f"{_seat(e, m=m)} guards their Menorah and keeps {_c(m, e.get('candle'))}"
    ),
    "unlit-removed": lambda e, m: (
        f"{_c(m, e.get('candle'))} leaves the game ({_seat(e, m=m)} could not pay)"
    ),
    "bonus-turn": lambda e, m: f"{_seat(e, m=m)} takes a bonus turn",
    "force": lambda e, m: (
        f"{_seat(e, m=m)} discards {_c(m, e.get('candle'))} to make "
        f"{_seat(e, 'target', m)} give them a candle"
    ),
    "give": lambda e, m: f"{_seat(e, m=m)} gives {_c(m, e.get('candle'))} to {_seat(e, 'to', m)}",
    "pass": lambda e, m: f"{_seat(e, m=m)} passes (nothing to do)",
    "end-turn": lambda e, m: m.faint(f"end of turn {e.get('turn')}"),
    "menorah": lambda e, m: m.strong(f"{_seat(e, m=m)} completes the Menorah!"),
    "game-over": _game_over,
}


# One log entry as a sentence, e.g. 'seat 1 buys R7 for 7'; None for an unknown event.
event_line = events_in_words(LINES)


# ----------------------------------------------------------------------------- labels and prompts
def name(code: str) -> str:
    """A candle's name and code: 'Red candle (value 7), R7'."""
    entry = table().get(code)
    return code if entry is None else f"{entry.name}, {code}"


def _of(code: str) -> str:
    return table()[code].name if code in table() else code


def _shekels(n: int) -> str:
    return f"{n} shekel{'' if n == 1 else 's'}"


def label(state: State, seat: int, action: str) -> str:
    """A legal Candle Quest action in words."""
    assert isinstance(state, CandleQuestState)
    st = state
    verb, _, arg = action.partition(" ")
    on_table = st.content.code[st.table] if st.table >= 0 else ""
    if verb == "flip":
        return "Flip the top candle of the draw stack"
    if verb == "loot":
        target = int(arg)
        top = st.content.code[st.piles[target][-1]]
        cost = st.content.loot_cost[st.piles[target][-1]]
        said = f"Loot {_of(top)} ({top}) from seat {target}'s discard pile, paying {cost}"
        # short of shekels, the rest is paid with candles and the loot cannot be called off: said
        # wherever the label is (the page's legal actions, learn mode, the coach, the terminal)
        if st.shekels[seat] < cost:
            said += f": you have {_shekels(st.shekels[seat])}, so you pay with candles too"
        return said
    if verb == "force":
        return f"Discard an Unlit candle to make seat {arg} give you a candle of their choice"
    if verb == "give":
        return f"Give your {_of(arg)} ({arg}) to seat {st.active}"
    if verb == "buy":
        return f"Buy {_of(on_table)} ({on_table}) for {_shekels(st.content.face[st.table])}"
    if verb == "sell":
        return f"Sell {_of(on_table)} ({on_table}) to the bank for {_shekels(st.content.sell[st.table])}"
    if verb == "auction":
        return (
            f"Auction {_of(on_table)} ({on_table}), opening with your bid of {_shekels(int(arg))}"
        )
    if verb == "bid":
        return f"Bid {_shekels(int(arg))} for {_of(on_table)} ({on_table})"
    if verb == "pass":
        if st.phase is Phase.BID:
            return f"Pass: bid no more for {_of(on_table)} ({on_table})"
        return "Pass the turn: there is nothing else you can do"
    if verb == "discard":
        worth = st.content.face[st.content.type_of[arg]]
        if st.phase is Phase.SHORT:
            return f"Give up your {_of(arg)} ({arg}), your most valuable candle"
        return f"Pay with your {_of(arg)} ({arg}), worth {worth} towards the {st.due} owed"
    if verb == "pay":
        if st.phase is Phase.SHORT:
            return f"Give up all your shekels ({int(arg)})"
        return f"Pay the {_shekels(int(arg))} still owed"
    return action  # every verb is above; kept total for a game that grows one


def prompt(state: State, seat: int | None) -> str:
    """The pending Candle Quest decision in words, as ``seat`` sees it."""
    assert isinstance(state, CandleQuestState)
    st = state
    if st.phase is Phase.OVER:
        return "The game is over."
    code = st.content.code[st.table] if st.table >= 0 else ""
    candle = f"{_of(code)} ({code})" if code else ""
    # GIVE is the one decision left: the junior game's forced gift.
    return _PROMPTS.get(st.phase, _give_prompt)(st, seat == st.actor, candle)


def _turn_prompt(st: CandleQuestState, you: bool, candle: str) -> str:
    kind = "a bonus turn" if st.bonus else "your turn"
    if st.junior:
        choices = "flip a candle, discard an Unlit candle to force a player to give you one"
    else:
        choices = "flip a candle, or loot the top of a discard pile"
    if you:
        return f"It is {kind}: {choices} (or pass if you can do neither)."
    return f"Seat {st.actor} is taking {'a bonus turn' if st.bonus else 'a turn'}."


def _choose_prompt(st: CandleQuestState, you: bool, candle: str) -> str:
    options = "buy it or sell it" if st.junior else "buy it, sell it, or auction it"
    face = st.content.face[st.table]
    if you and st.shekels[st.actor] < face:  # only the choices there are, and why (issue 36)
        money = st.shekels[st.actor]  # an auction opens at 1 at least (turn.choose_actions)
        options = "sell it" if st.junior or money < 1 else "sell it or auction it"
        return f"You flipped {candle}: {options} (you cannot pay {face} to buy it)."
    if you:
        return f"You flipped {candle}: {options}."
    return f"Seat {st.actor} flipped {candle} and chooses to {options.replace(' it', '')}."


def _bid_prompt(st: CandleQuestState, you: bool, candle: str) -> str:
    high = (
        f"the high bid is {st.high} by seat {st.high_bidder}"
        if st.high_bidder >= 0
        else f"the opening bid is {st.high}"
    )
    if you:
        return f"Bid on {candle} or pass; {high}."
    return f"Seat {st.actor} is bidding on {candle}; {high}."


def _pay_prompt(st: CandleQuestState, you: bool, candle: str) -> str:
    purpose = "guard your Menorah against" if st.paying == FOR_GUARD else "loot"
    if you:
        return (
            f"Pay {st.due} to {purpose} {candle}: discard collected candles "
            "towards it or pay the rest in shekels."
        )
    return f"Seat {st.actor} is paying to {purpose.replace('your', 'their')} {candle}."


def _short_prompt(st: CandleQuestState, you: bool, candle: str) -> str:
    if you:
        return (
            f"You cannot pay to guard against {candle}: give up your most valuable "
            "candle, or all your shekels."
        )
    return f"Seat {st.actor} cannot pay to guard against {candle}."


def _give_prompt(st: CandleQuestState, you: bool, candle: str) -> str:
    if you:
        return f"Seat {st.active} forced you to give a candle: choose which."
    return f"Seat {st.actor} is choosing a candle to give seat {st.active}."


# Each pending decision's prompt: (state, whether the seat reading owes it, the candle in words).
_PROMPTS: dict[Phase, Callable[[CandleQuestState, bool, str], str]] = {
    Phase.TURN: _turn_prompt,
    Phase.CHOOSE: _choose_prompt,
    Phase.BID: _bid_prompt,
    Phase.PAY: _pay_prompt,
    Phase.SHORT: _short_prompt,
}

HELP = {
    "": (
        "A turn: flip the top candle of the draw stack, or loot the top candle of a discard pile "
        "(paying its value plus its sell value). A flipped Lit or Dancing candle is bought, sold, or "
        "auctioned to the highest bidder; a flipped Unlit candle must be guarded against by paying its "
        "value, after which you take a bonus turn."
    ),
    "junior": (
        "A turn: flip the top candle of the draw stack, or discard a collected Unlit candle to make "
        "another player give you a candle of their choice. A flipped Lit or Dancing candle is bought "
        "or sold; a flipped Unlit candle must be guarded against by paying its value, after which you "
        "take a bonus turn."
    ),
}
RULES = {
    "basic": (
        "Candle Quest: collect a Lit candle of each of the eight colours to complete your Menorah. "
        "Everyone starts with 12 shekels. On your turn flip a candle and buy it, sell it or auction "
        "it, or loot the top of a discard pile. Dancing candles stand in for any colour you lack. "
        "Unlit candles are threats: pay their value to guard your Menorah. The first to complete "
        "the Menorah wins."
    ),
    "advanced": (
        "Candle Quest, advanced: play as in the basic game, but when someone completes the Menorah "
        "the game ends and the most valuable collection wins: candles count their value, and "
        "shekels add up to half of it."
    ),
    "junior": (
        "Candle Quest for juniors: collect eight colours to complete your Menorah. There are no "
        "auctions and no looting, and the three Unlit candles of value 6 are out. Instead of a turn, "
        "you may discard an Unlit candle to make another player give you a candle of their choice."
    ),
}

TEXT = GameText(event=event_line, label=label, prompt=prompt, help=HELP, rules=RULES)
