"""Building 16 Candies positions for tests: fixed deals, scripted turns, and crafted saves."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import candlebox
from candlebox import State
from tests.sixteen_candies import position

GAME = "sixteen-candies"


def deck_for(
    hands: Sequence[Sequence[str]], flip: str, pile: Sequence[str] = (), first: int = 0
) -> list[str]:
    """The ``deck`` option that deals ``hands[seat]`` to each seat, flips ``flip`` and leaves ``pile``
    on top of the draw pile (dealt one card at a time from the first player, clockwise)."""
    n = len(hands)
    order = [(first + k) % n for k in range(n)]
    deck = [hands[seat][i] for i in range(3) for seat in order]
    return [*deck, flip, *pile]


def game(
    hands: Sequence[Sequence[str]],
    flip: str = "H4-G3",
    pile: Sequence[str] = (),
    first: int = 0,
    seed: int = 1,
    **options: Any,
) -> State:
    return candlebox.new_game(
        GAME,
        players=len(hands),
        seed=seed,
        deck=deck_for(hands, flip, pile, first),
        first_player=first,
        **options,
    )


def play(state: State, *steps: tuple[int, str]) -> State:
    for seat, action in steps:
        state.apply(seat, action)
    return state


def turn(state: State, seat: int, draw: str, discard: str, top: str, call: bool = False) -> State:
    """One whole turn: draw, discard, orient, then call or end (a final turn has no call step)."""
    play(state, (seat, draw), (seat, f"discard {discard}"), (seat, f"top {top}"))
    if state.legal_actions(seat) == ["call", "end"]:
        state.apply(seat, "call" if call else "end")
    return state


def orient_all(state: State, *tops: str) -> State:
    """Every player picks up the dealt hand, in turn from the marker, with these top halves."""
    for top in tops:
        seat = state.to_act[0]
        state.apply(seat, f"top {top}")
    return state


def me(state: State, seat: int) -> dict[str, Any]:
    return state.view(seat)["seats"][seat]


def events(state: State, kind: str, seat: int | None = None) -> list[dict[str, Any]]:
    return [e for e in state.log(seat) if e["event"] == kind]


def pools(state: State) -> list[int]:
    return [p["pool"] for p in state.view(None)["seats"]]


def craft(state: State, **changes: Any) -> State:
    """The same position with snapshot fields replaced, read back with every count checked."""
    data = state.to_json()
    data["state"].update(changes)
    return position.restore(data, state)
