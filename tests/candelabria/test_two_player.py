"""2-Player Mode: the house choice, Mist on the Mines, moving curses (Curse Influence and extinguished Land
Flames), War without curse control, disposable tactic cards, the carried-over curse, the end."""

from __future__ import annotations

import random
from typing import Any

import pytest

import candlebox
from candlebox.games import candelabria
from candlebox.games.candelabria.decision import Auto, Phase
from candlebox.games.candelabria.war import power
from tests.candelabria.helpers import craft, move_land_flame, play

CURSES = ["2", "8", "3", "1", "5", "7", "4"]  # year 1: regions 2, 8, 3
C, R = 0, 1  # Cinis (region 8, east; first in turn order), Rota Aurea (region 2, west)


def duo(**options: Any) -> Any:
    options.setdefault("houses", ["C", "R"])
    options.setdefault("decks", {"curse": CURSES})
    return candelabria.new_game(players=2, seed=1, **options)


def quiet(state: Any, until: Any) -> Any:
    """Quiet turns (maneuver the first card, no move) and empty secret choices until ``until(state)``."""
    while not until(state) and not state.is_over:
        who = state.to_act[0]
        pending = state.view(who)["pending"]
        if pending["decision"] == "turn":
            state.apply(who, f"maneuver {state.view(who)['seats'][who]['hand'][0]}")
        elif pending["decision"] == "secret":
            state.apply(who, "play - -")
        elif "done" in state.legal_actions(who):
            state.apply(who, "done")
        elif "pass" in state.legal_actions(who):
            state.apply(who, "pass")
        else:
            state.apply(who, state.legal_actions(who)[0])
    return state


def battles(state: Any) -> list[Any]:
    return [e for e in state.events if e[0] in ("battles", "battle", "win")]


# ----------------------------------------------------------------------------- setup
def test_two_players_default_to_the_two_player_variant_on_the_small_side() -> None:
    state = candlebox.new_game("candelabria", players=2, seed=3)
    assert state.variant == "two-player" and state.side == "small"
    assert candlebox.new_game("candelabria", players=4, seed=3).variant == "standard"
    with pytest.raises(ValueError):
        candlebox.new_game("candelabria", players=2, seed=3, variant="standard")
    with pytest.raises(ValueError):
        candlebox.new_game("candelabria", players=3, seed=3, variant="two-player")


def test_house_choice_first_any_start_region_then_one_of_two_on_the_opposite_side() -> None:
    chooser = {candelabria.new_game(players=2, seed=s).to_act[0] for s in range(12)}
    assert chooser == {0, 1}, "the first chooser is random"
    state = candelabria.new_game(players=2, seed=5, first_player=1)
    assert state.to_act == (1,)
    assert state.legal_actions(1) == ["house C", "house R", "house S", "house N"]
    assert state.view(None)["pending"] == {"decision": "pick", "seats": [1], "stage": 1}
    state.apply(1, "house C")  # region 8: east
    assert state.to_act == (0,)
    assert state.legal_actions(0) == ["house R", "house S"]  # regions 2 and 3: west
    state.apply(0, "house S")
    view = state.view(None)
    assert [s["house"] for s in view["seats"]] == ["S", "C"]
    assert state.view(None)["pending"]["decision"] == "turn"
    assert not any(r["corrupted"] for r in view["regions"]), "every region token numbered side up"
    assert len(view["curse_models"]) == 3
    assert [e for e in state.events if e[0] == "pick"] == [("pick", 1, "C"), ("pick", 0, "S")]
    assert sum(e[0] == "setup" for e in state.events) == 1, "the provisional deal is not logged"
    # Nova Vita (4, east) first: the other picks from Rota Aurea and Satores (west).
    state = candelabria.new_game(players=2, seed=5, first_player=0)
    state.apply(0, "house N")
    assert state.legal_actions(1) == ["house R", "house S"]
    state.apply(1, "house R")
    assert candelabria.load(state.to_json()) == state


def test_the_house_choice_shows_only_what_is_decided() -> None:
    """The state holds a provisional deal until the second choice; no view shows any of it."""
    state = candelabria.new_game(players=2, seed=5, first_player=1, missions=True)
    for viewer in (None, 0, 1):
        view = state.view(viewer)
        assert [s["house"] for s in view["seats"]] == [None, None]
        assert view["order"] == [] and view["active"] is None
        assert all(not t["land_flames"] and "castle" not in t for t in view["territories"])
        assert len(view["territories"]) == 24 and not any(r["temples"] for r in view["regions"])
        assert view["tactics_board"] == [] and view["curses"] == []
        assert all(p["top"] is None for p in view["upgrade_piles"])
        assert view["missions"] == {"public": [], "private": {}, "box": 24}
        assert all(s["tactics"] == [] and s["upgrades"] == [] for s in view["seats"])
        assert all(s.get("hand", s.get("known_hand")) == [] for s in view["seats"])
    assert state.describe_pending() == "seat 1 is to choose a start region and its house"
    state.apply(1, "house C")
    view = state.view(0)
    assert [s["house"] for s in view["seats"]] == [None, "C"], "the first choice is decided"
    assert view["pending"]["first"] == "C" and view["tactics_board"] == []
    state.apply(0, "house S")
    view = state.view(0)
    assert [s["house"] for s in view["seats"]] == ["S", "C"] and len(view["tactics_board"]) == 6
    assert len(view["missions"]["public"]) == 2


def test_houses_option_needs_opposite_sides() -> None:
    duo(houses=["R", "N"])
    with pytest.raises(ValueError, match="opposite side"):
        duo(houses=["R", "S"])
    with pytest.raises(ValueError):
        duo(houses=["C", "L"])  # Luminis is not on the small side


def test_a_save_during_the_house_choice_restores() -> None:
    state = candelabria.new_game(players=2, seed=9)
    twin = candelabria.load(state.to_json())
    assert twin == state
    seat = state.to_act[0]
    state.apply(seat, "house R")
    twin.apply(seat, "house R")
    assert twin == state


# ----------------------------------------------------------------------------- Mist
def test_mist_places_each_curse_on_its_regions_mine_and_flips_no_token() -> None:
    state = duo()
    view = state.view(None)
    assert [c["curse"] for c in view["curses"]] == ["2", "8", "3"]
    assert [m["territory"] for m in view["curse_models"]] == ["2b", "8a", "3b"]
    assert all(m["owner"] is None for m in view["curse_models"])
    assert state.corrupted == 0
    assert len([e for e in state.curse_deck if e >= 0]) == 4, (
        "7 curses: piles 3/2/2 as with 3 players"
    )


# ----------------------------------------------------------------------------- moving curses
def test_curse_influence_moves_a_curse_one_territory_per_icon() -> None:
    state = duo()
    play(state, (C, "maneuver C1"), (C, "move C 8a"), (C, "move C 7c"))  # 7c: Curse icon
    assert state.view(C)["pending"] == {"decision": "haunt", "seats": [C], "count": 1}
    legal = state.legal_actions(C)
    assert "haunt 2 7b" in legal and "haunt 1 3a" in legal and "haunt 3 3c" in legal
    assert "haunt 2 7a" not in legal, "one territory, not two"
    assert not any(a.startswith("curse") for a in legal), "no flames in front of curses"
    state.apply(C, "haunt 2 7b")
    assert state.view(None)["curse_models"][1]["territory"] == "7b"
    assert state.to_act == (R,)


def test_a_land_flame_extinguished_by_the_other_lets_its_owner_move_a_curse() -> None:
    def change(snap: dict[str, Any]) -> None:
        move_land_flame(snap, R, None, "8c")

    state = craft(duo(), change)
    supply = state.land_flame_supply[R]
    play(state, (C, "maneuver C1"), (C, "move C 8c"))
    assert state.legal_actions(C) == ["destroy R"]
    state.apply(C, "destroy R")
    assert state.land_flame_supply[R] == supply + 1, "the flame goes back to its owner's supply"
    assert state.to_act == (R,) and state.view(R)["pending"]["decision"] == "haunt"
    state.apply(R, "haunt 2 8c")
    assert state.curse_models[1] == state.board.index["8c"]
    assert state.to_act == (C,)


# ----------------------------------------------------------------------------- War
def test_war_battles_only_where_curses_stand_in_order_and_no_curse_is_granted() -> None:
    state = quiet(duo(), lambda s: s.year == 2)
    year1 = []
    for e in state.events:
        if e[0] == "epilogue":
            break
        year1.append(e)
    kinds = {e[0] for e in year1}
    assert "deploy-curse" not in kinds and "curse-unclaimed" not in kinds
    assert ("battles", (3, 8, 2)) in year1, "from the region after the leftmost card's (2)"
    assert ("win", C, 8) in year1 and ("win", R, 2) in year1
    assert ("battle", 3, ()) in year1


def test_curses_have_no_combat_power_and_one_battle_per_region() -> None:
    def change(snap: dict[str, Any]) -> None:
        snap["curse_models"] = ["8a", "8b", "3b"]

    state = craft(duo(), change)
    assert power(state, C, 8) == 3 + 4  # three Land Flames and the castle: the curses add nothing
    state = quiet(state, lambda s: s.year == 2)
    assert next(e for e in state.events if e[0] == "battles") == ("battles", (3, 8))


def _battle_in_8() -> Any:
    """Year 1, the battle for region 8 about to be chosen: Rota Aurea has a Land Flame at 8c."""

    def change(snap: dict[str, Any]) -> None:
        for seat, hand in enumerate(snap["hands"]):
            snap["maneuvered"][seat] += hand
            snap["hands"][seat] = []
            snap["known_hands"][seat] = []
        move_land_flame(snap, R, None, "8c")
        snap["tactics"][C].append(snap["tactics_deck"].pop())
        snap["curses_granted"] = 3
        snap["battles_left"] = [2]
        snap["battle"] = [C, R]
        snap["stack"] = [[Auto.BATTLES, -1], [Phase.SECRET, -1, 8]]

    return craft(duo(), change)


def test_tactic_cards_are_disposable_common_under_the_deck_house_back_after_war() -> None:
    state = _battle_in_8()
    common = next(t for t in state.view(C)["seats"][C]["tactics"] if "-" not in t)
    play(state, (C, f"play C-1X1V {common}"), (R, "play - -"))
    quiet(state, lambda s: s.year == 2)
    snap = state.to_json()["state"]
    assert common not in snap["tactics"][C]
    assert snap["tactics_deck"][-1] == common, "returned under the Tactics deck"
    assert "C-1X1V" in snap["tactics"][C], "a house card goes back to its War Board"


def test_only_the_two_leftmost_curses_leave_the_third_stays_where_it_is() -> None:
    state = duo()
    play(state, (C, "maneuver C1"), (C, "move C 8a"), (C, "move C 7c"), (C, "haunt 3 3c"))
    state = quiet(state, lambda s: s.year == 2)
    view = state.view(None)
    assert [c["curse"] for c in view["curses"]] == ["3", "1", "5"]
    assert [m["territory"] for m in view["curse_models"]] == ["3c", "1b", "5b"]
    assert sorted(state.content.curses[k].code for k in state.curses_out) == ["10", "2", "8", "9"]
    assert next(e for e in reversed(state.events) if e[0] == "curse")[2] == "5"
    state = quiet(state, lambda s: s.is_over)
    assert len([e for e in state.events if e[0] == "battles"]) == 3


def test_end_of_the_game_most_vp_wins_after_year_3() -> None:
    state = quiet(duo(), lambda s: s.is_over)
    assert state.year == 3 and not state.truncated
    vp = state.vp
    assert state.scores == tuple(float(v) for v in vp)
    best = max(vp)
    assert state.winners == (next(s for s in state.order if vp[s] == best),)


def test_random_two_player_games_finish_and_round_trip() -> None:
    for seed in range(6):
        state = candelabria.new_game(players=2, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        assert candelabria.load(state.to_json()) == state
        assert len(state.curses_out) == 8 and len(state.curses) == 1
