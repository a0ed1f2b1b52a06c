"""Missions Expansion: the deal (private and public), Yearly locks and resets, Ranking places, the 2-player
blocks, each mission's event, hidden information, saves."""

from __future__ import annotations

import random
from typing import Any

import pytest

from candlebox.games import candelabria
from candlebox.games.candelabria import missions, temples
from candlebox.games.candelabria.conformance import invariant as invariants
from candlebox.games.candelabria.missions import MISSIONS
from tests.candelabria.helpers import craft


def with_missions(players: int = 4, public: list[str] | None = None, **options: Any) -> Any:
    """A game whose public missions are ``public`` (each seat's private one: the next card)."""
    houses = {2: ["C", "R"], 3: ["C", "R", "S"], 4: ["C", "R", "S", "N"]}[players]
    state = candelabria.new_game(players=players, seed=2, houses=houses, missions=True, **options)
    if public is None:
        return state
    codes = [m[0] for m in MISSIONS]
    rest = [c for c in codes if c not in public]

    def change(snap: dict[str, Any]) -> None:
        m = snap["missions"]
        m["public_missions"] = list(public)
        m["private_missions"] = rest[:players]
        m["mission_box"] = rest[players:]

    return craft(state, change)


def vp_events(state: Any) -> list[tuple[Any, ...]]:
    return [e for e in state.events if e[0] == "mission"]


def test_each_player_gets_a_private_and_a_public_mission() -> None:
    state = with_missions(4)
    view = state.view(0)["missions"]
    assert len(view["public"]) == 4 and view["box"] == 24 - 8
    assert view["private"]["C"] is not None
    assert all(view["private"][h] is None for h in "RSN"), "the others' private missions are hidden"
    assert [e for e in state.log(1) if e["event"] == "mission-private" and e["seat"] == 0] == [
        {"event": "mission-private", "seat": 0}
    ]
    twin = state.resample(1, 7)
    assert (
        twin.private_missions[1] == state.private_missions[1]
        and twin.public_missions == state.public_missions
    )
    assert twin.view(1)["missions"] == state.view(1)["missions"]
    assert candelabria.load(state.to_json()) == state
    assert "missions" not in candelabria.new_game(players=4, seed=2).view(0)


def test_yearly_mission_once_a_year_by_year_value_and_reset_at_mist() -> None:
    state = with_missions(4, ["Y1", "Y2", "K4", "K5"])
    temples.place_temple(state, 2, 1, 6)
    assert vp_events(state) == [("mission", 2, "Y1", 1, 4)]
    temples.place_temple(state, 1, 1, 5)
    assert len(vp_events(state)) == 1, "locked for the year"
    state.year = 2
    missions.mist(state)
    temples.place_temple(state, 2, 2, 6)
    assert vp_events(state)[-1] == ("mission", 2, "Y1", 1, 8), "the same player again, a later year"


def test_ranking_mission_three_places_12_8_4_same_player_twice_then_full() -> None:
    state = with_missions(4, ["K4", "Y2", "Y3", "Y4"])
    for seat in (0, 0, 3, 1):
        missions.note(state, seat, "third-candle")
    assert [(e[1], e[3], e[4]) for e in vp_events(state)] == [(0, 1, 12), (0, 2, 8), (3, 3, 4)]
    assert ("mission-done", "K4") in state.events
    assert state.view(None)["missions"]["public"][0]["places"] == ["C", "C", "N"]


def test_a_private_mission_is_for_its_holder_only_and_shown_once_done() -> None:
    state = with_missions(4, ["Y2", "Y3", "Y4", "Y5"])  # private: C Y1, R Y6, S Y7, N Y8
    assert MISSIONS[state.private_missions[0]][0] == "Y1"
    temples.place_temple(state, 1, 1, 6)
    assert not vp_events(state), "another's private mission"
    assert state.view(2)["missions"]["private"]["C"] is None
    temples.place_temple(state, 0, 1, 5)
    assert vp_events(state) == [("mission", 0, "Y1", 1, 4)]
    assert state.view(2)["missions"]["private"]["C"]["mission"] == "Y1", "shown once completed"


def test_two_players_block_second_places_and_yearly_missions_in_year_one() -> None:
    state = with_missions(2, ["K4", "Y1"])
    temples.place_temple(state, 0, 1, 6)
    assert not vp_events(state), "Yearly missions are blocked in the First Year"
    for seat in (1, 0, 1):
        missions.note(state, seat, "third-candle")
    assert [(e[1], e[3], e[4]) for e in vp_events(state)] == [(1, 1, 12), (0, 3, 4)]
    assert state.view(None)["missions"]["public"][0]["places"] == ["R", "blocked", "C"]
    state.year = 2
    missions.mist(state)
    temples.place_temple(state, 1, 1, 6)
    assert vp_events(state)[-1] == ("mission", 1, "Y1", 1, 8)


@pytest.mark.parametrize(
    ("code", "event"),
    [(m[0], m[2]) for m in MISSIONS],
)
def test_every_mission_watches_its_event(code: str, event: str) -> None:
    state = with_missions(4, [code])
    missions.note(state, 1, event)
    assert vp_events(state) == [("mission", 1, code, 1, 4 if code.startswith("Y") else 12)]


def test_per_action_tallies_six_resources_three_buys_three_tactics() -> None:
    state = with_missions(4, ["K10", "K11", "K12"])
    missions.tally(state, 0, 0, 5)
    assert not vp_events(state)
    missions.new_action(state)
    missions.tally(state, 0, 0, 5)
    missions.tally(state, 0, 0, 1)
    missions.tally(state, 0, 1, 3)
    for _ in range(3):
        missions.tally(state, 2, 2)
    assert [e[1:3] for e in vp_events(state)] == [(0, "K10"), (0, "K11"), (2, "K12")]


def test_counter_both_cards_of_one_player_in_one_battle() -> None:
    state = with_missions(4, ["K9", "Y12"])
    missions.countered(state, 0, 1)
    missions.countered(state, 0, 2)
    assert [e[2] for e in vp_events(state)] == ["Y12"]
    missions.countered(state, 0, 2)
    assert [e[2] for e in vp_events(state)] == ["Y12", "K9"]


def test_random_games_with_missions_keep_the_invariants() -> None:
    for players in (2, 3, 4, 5):
        for seed in range(3):
            state = candelabria.new_game(players=players, seed=seed, missions=True)
            rng = random.Random(seed)
            step = 0
            while not state.is_over:
                seat = state.to_act[0]
                state.apply(seat, rng.choice(state.legal_actions(seat)))
                step += 1
                if step % 29 == 0:
                    invariants(state)
                    assert candelabria.load(state.to_json()) == state
                    twin = state.resample(seat, step)
                    assert twin.view(seat) == state.view(seat)
            invariants(state)


def test_real_play_third_candle_and_castle_putting_out_a_candle() -> None:
    from tests.candelabria.helpers import put_candle, set_gold, to_turn

    state = with_missions(4, ["K4", "K5", "Y6", "Y10"])

    def change(snap: dict[str, Any]) -> None:
        set_gold(snap, 0, gold=0, wax=10)
        put_candle(snap, 1, "E", "8c", 1, "A05")

    state = craft(state, change)
    state.apply(0, "deploy C1 E")
    to_turn(state, 0)
    state.apply(0, "deploy C2 P")
    to_turn(state, 0)
    state.apply(0, "deploy C3 W")
    assert ("mission", 0, "K4", 1, 12) in state.events, "the third candle of the year"
    to_turn(state, 0)
    hand = state.view(0)["seats"][0]["hand"]
    state.apply(0, f"maneuver {hand[0]}")
    state.apply(0, "move C 8c")
    assert "destroy R-E" in state.legal_actions(0)
    state.apply(0, "destroy R-E")
    got = [e[2] for e in vp_events(state) if e[1] == 0]
    assert "K5" in got and "Y6" in got


def test_example_complete_a_yearly_mission() -> None:
    """ "the Cinis player just built a Temple and because the Mission Card was a public mission (and it
    was not completed by anyone yet in this Year), they earn it ... places a flame ... and earns 8 VP." """
    state = with_missions(4, ["Y1", "K1", "K2", "K3"])
    state.year = 2
    missions.mist(state)
    vp = state.vp[0]
    temples.place_temple(state, 0, 1, 8)
    assert state.vp[0] == vp + 8
    assert state.view(None)["missions"]["public"][0]["places"] == ["C"]


def test_example_complete_a_ranking_mission() -> None:
    """ "The Cinis player just deployed the Pilgrim, which is their third Candle in the turn ... the third
    player ... earns the third place ... 4 VP, and since the Mission Card is complete, it may be removed." """
    from tests.candelabria.helpers import put_candle, set_gold

    state = with_missions(4, ["K4", "K1", "K2", "K3"])

    def change(snap: dict[str, Any]) -> None:
        snap["missions"]["mission_places"]["K4"] = [1, 2, -1]
        set_gold(snap, 0, gold=0, wax=10)
        put_candle(snap, 0, "E", "8a", 2, "A05")
        put_candle(snap, 0, "W", "8b", 4, "A09")

    state = craft(state, change)
    vp = state.vp[0]
    state.apply(0, "deploy C1 P")
    assert ("mission", 0, "K4", 3, 4) in state.events and ("mission-done", "K4") in state.events
    assert state.vp[0] >= vp + 4


def test_resample_after_the_game_keeps_every_private_mission_shown() -> None:
    """At the end every private mission is shown, so a determinization may not re-deal them."""
    state = candelabria.new_game(players=3, seed=11, missions=True)
    rng = random.Random(11)
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    for seat in range(3):
        twin = state.resample(seat, 99)
        assert twin.view(seat)["missions"] == state.view(seat)["missions"]
        assert len(state.view(seat)["missions"]["private"]) == 3


def _war_with_curse_tactics(seat: int, upgrade: str, flames: list[dict[int, int]]) -> Any:
    """Kindling about to end (Cinis's last card, maneuvered, before ``done``) with K12 public, ``seat``
    holding ``upgrade`` (a "when you deploy a Curse, gain Tactic Cards" tile) and these flames in front
    of curses 1-3."""
    from candlebox.games.candelabria.decision import Phase
    from tests.candelabria.helpers import give_upgrade, me

    state = candelabria.new_game(
        players=4, seed=1, houses=["C", "R", "S", "N"], missions=True, upgrade_pile=4
    )  # upgrade_pile=4: every tile in play
    codes = [m[0] for m in MISSIONS]

    def change(snap: dict[str, Any]) -> None:
        rest = [c for c in codes if c != "K12"]
        snap["missions"]["public_missions"] = ["K12"]
        snap["missions"]["private_missions"] = rest[:4]
        snap["missions"]["mission_box"] = rest[4:]
        for s, hand in enumerate(snap["hands"]):
            snap["maneuvered"][s] += hand
            snap["hands"][s] = []
            snap["known_hands"][s] = []
        snap["hands"][0] = snap["maneuvered"][0][:1]
        snap["maneuvered"][0] = snap["maneuvered"][0][1:]
        for k, row in enumerate(flames):
            for s, n in row.items():
                snap["curse_influence"][k][s] = n
                snap["land_flame_supply"][s] -= n
        snap["stack"] = [[Phase.TURN, 0]]

    state = craft(state, change)
    state = craft(state, lambda snap: give_upgrade(snap, seat, upgrade))
    state.apply(0, f"maneuver {me(state, 0)['hand'][0]}")
    return state


def _finish_war_prep(state: Any) -> None:
    while state.view(None)["season"] == "war" and state.to_act and len(state.to_act) == 1:
        seat = state.to_act[0]
        if state.view(seat)["pending"]["decision"] in ("secret", "cancel"):
            break
        state.apply(seat, state.legal_actions(seat)[0])


def test_tactic_tally_restarts_at_the_war_and_at_each_curse_granted() -> None:
    # Cinis took 2 tactic cards in its last Kindling turn, then gains 1 more deploying a curse in War
    # Preparation: a different action (CA-M4), so K12 is not completed.
    state = _war_with_curse_tactics(0, "1-tactic", [{0: 2}, {}, {}])
    missions.tally(state, 0, 2, 2)  # as a Barracks of 2 in this last turn would
    assert not vp_events(state)
    state.apply(0, "done")
    _finish_war_prep(state)
    assert ("take", 0) in [e[:2] for e in state.events], "the upgrade's tactic card was taken"
    assert not [e for e in vp_events(state) if e[2] == "K12"]
    # Three curses deployed by Satores, 1 tactic card each: three actions of 1 card, not one of 3.
    state = _war_with_curse_tactics(2, "1-tactic", [{2: 2}, {2: 1}, {2: 1}])
    state.apply(0, "done")
    _finish_war_prep(state)
    assert len([e for e in state.events if e[:2] == ("deploy-curse", 2)]) == 3
    assert len([e for e in state.events if e[:2] == ("take", 2)]) == 3
    assert not [e for e in vp_events(state) if e[2] == "K12"]
