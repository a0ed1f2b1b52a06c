"""Blind Bids in words: the log's sentences, the actions' labels and the prompts, plain strings shared
by the terminal, the server and the pages (the terminal colours the codes through ``Marks``)."""

from __future__ import annotations

from typing import Any

from candlebox.engine.plugin import (
    EventSentence,
    GameText,
    Marks,
    events_in_words,
    game_over_sentence,
)
from candlebox.engine.state import State

from .state import TITLE, BidsState


def _seat(entry: dict[str, Any], marks: Marks) -> str:
    """The entry's seat, its name's first letter raised: it starts the sentence."""
    name = marks.seat(int(entry.get("seat", -1)))
    return name[:1].upper() + name[1:]


def _prize(entry: dict[str, Any], marks: Marks) -> str:
    value = entry.get("prize")
    return f"Round {entry.get('round')}: a prize worth {marks.strong(str(value))} is turned up."


def _bid(entry: dict[str, Any], marks: Marks) -> str:
    card = entry.get("card")
    if card is None:
        return f"{_seat(entry, marks)} bids a card face down."
    return f"{_seat(entry, marks)} bids {marks.code(str(card))} face down."


def _reveal(entry: dict[str, Any], marks: Marks) -> str:
    bids = ", ".join(
        f"{marks.seat(seat)} {marks.code(str(card))}" for seat, card in enumerate(entry["bids"])
    )
    winner = marks.seat(int(entry.get("winner", -1)))
    return f"Bids revealed ({bids}): {winner} takes the prize worth {entry.get('prize')}."


SENTENCES: dict[str, EventSentence] = {
    "prize": _prize,
    "bid": _bid,
    "reveal": _reveal,
    "game-over": game_over_sentence({"rounds": "every prize has been taken"}),
}


def label(state: State, seat: int, action: str) -> str:
    """A legal action in words (``State.label`` checks legality first)."""
    return f"Bid your card {action.split()[1]}"


def prompt(state: State, seat: int | None) -> str:
    """The pending decision in words, as ``seat`` (None: a spectator) sees it."""
    assert isinstance(state, BidsState)
    if state.is_over:
        return "The game is over."
    waiting = len(state.to_act)
    if seat is not None and seat in state.to_act:
        return f"Choose a card of your hand to bid for the prize worth {state.prize}."
    return f"Waiting for {waiting} of {state.num_players} players to bid for the prize worth {state.prize}."


RULES = {
    "": (
        f"{TITLE}: every round a prize is turned up and every player bids one card of their hand "
        "in secret, all at once. The highest bid takes the prize's value in points; after the last "
        "round the most points win."
    ),
}
HELP = {"": "Type 'bid' and the number of a card of your hand, e.g. 'bid 7'."}

TEXT = GameText(
    event=events_in_words(SENTENCES), label=label, prompt=prompt, help=HELP, rules=RULES
)
