"""Mist Season: curses drawn by the first player, house candles to their hands, regions corrupted."""

from __future__ import annotations

from typing import Any

import pytest

from candlebox.games.candelabria import CandelabriaState
from candlebox.games.candelabria.mist import run_mist
from tests.candelabria.helpers import craft, game


def test_example_corrupted_regions() -> None:
    """ "The Curse Card with Region 5 is revealed, thus Region 5 is corrupted ... The numbered token
    here is flipped to the X side." """
    state = game(4, decks={"curse": ["5", "1", "7"]})
    view = state.view(None)
    corrupted = {r["region"]: r["corrupted"] for r in view["regions"]}
    assert corrupted[5] is True
    assert [r for r, c in corrupted.items() if c] == [1, 5, 7]
    assert [c["curse"] for c in view["curses"]] == ["5", "1", "7"], "left to right in draw order"
    draws = [e for e in state.log(None) if e["event"] == "curse"]
    assert [(e["curse"], e["place"], e["seat"]) for e in draws] == [
        ("5", 1, 0),
        ("1", 2, 0),
        ("7", 3, 0),
    ]


def test_the_first_player_in_turn_order_draws() -> None:
    state = game(4, houses=["N", "S", "R", "C"])
    mist = next(e for e in state.log(None) if e["event"] == "mist")
    assert mist["seat"] == 3  # Cinis holds the first place of the turn order track


def test_region_6_is_never_corrupted() -> None:
    for seed in range(30):
        state = game(5, seed=seed)
        assert not next(r for r in state.view(None)["regions"] if r["region"] == 6)["corrupted"]


def test_a_corrupted_region_can_still_be_entered_and_used() -> None:
    state = game(4, decks={"curse": ["9", "5", "1"]})
    # Cinis's castle may walk into region 9 (corrupted): 8b has a bridge to 9c, where Luminis is absent.
    state.apply(0, "maneuver C1")
    assert "move C 9c" in state.legal_actions(0)
    state.apply(0, "move C 9c")
    assert "9c" in state.view(None)["seats"][0]["territories"]


def _next_year(state: CandelabriaState, year: int) -> CandelabriaState:
    """The position at the start of a later Mist: last year's curses gone, tokens flipped back
    (the War Epilogue's steps 5-6), the deck as it was left."""

    def change(snap: dict[str, Any]) -> None:
        snap["curses_out"] += snap["curses"]
        snap["curses"] = []
        snap["curse_influence"] = []
        snap["corrupted"] = []
        snap["year"] = year

    return craft(state, change)


@pytest.mark.parametrize(("players", "second", "third"), [(4, 3, 3), (5, 3, 3), (3, 2, 2)])
def test_later_years_draw_house_candles_into_their_hands(
    players: int, second: int, third: int
) -> None:
    state = game(players)
    hands = [len(s["known_hand"]) for s in state.view(None)["seats"]]
    state = _next_year(state, 2)
    run_mist(state)
    view = state.view(None)
    assert len(view["curses"]) == second, "3 players draw 2 curses after the First Year"
    for seat, info in enumerate(view["seats"]):
        assert len(info["known_hand"]) == hands[seat] + 1
        assert info["known_hand"][-1] == f"{info['house']}4", "the Year II house candle, face up"
    assert sum(r["corrupted"] for r in view["regions"]) == second
    state = _next_year(state, 3)
    run_mist(state)
    view = state.view(None)
    assert len(view["curses"]) == third
    for info in view["seats"]:
        assert info["known_hand"][-1] == f"{info['house']}5"
    assert view["curse_deck"] == 0, "three years use the whole Curse deck"
    events = [e for e in state.log(None) if e["event"] == "house-candle"]
    assert len(events) == 2 * players and all(
        e["drawer"] == state.view(None)["order"][0] for e in events
    )
    houses = [s["house"] for s in state.view(None)["seats"]]
    assert all(houses[e["seat"]] == e["card"][0] for e in events), "seat: the receiver"
