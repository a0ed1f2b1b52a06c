"""War Season: the rulebook's "Deploy a Curse" and "Battle Opponents" examples (the latter merged with the
printed "War Epilogue" example, rulings CA-W2), the secret choice of tactic cards, cancelling, combat
power, the turn-order shift, the Epilogue and the end of the game."""

from __future__ import annotations

from typing import Any

import candlebox
from candlebox.games.candelabria.decision import Auto, Phase
from tests.candelabria.helpers import craft, game, me, move_land_flame, put_candle

CURSES = ["1", "2", "4", "3", "5", "7", "8", "9", "10"]  # year 1: curses of regions 1, 2 and 4
C, R, S, N = range(4)


def give_tactic(snap: dict[str, Any], seat: int, code: str) -> None:
    """A tactic card from the Tactics deck (or board) into a seat's hand."""
    for where in ("tactics_deck", "tactics_board"):
        if code in snap[where]:
            snap[where].remove(code)
            break
    else:
        raise AssertionError(code)
    snap["tactics"][seat].append(code)


def _empty_hands(snap: dict[str, Any]) -> None:
    for seat, hand in enumerate(snap["hands"]):
        snap["maneuvered"][seat] += hand
        snap["hands"][seat] = []
        snap["known_hands"][seat] = []


def battle_position(**options: Any) -> Any:
    """Year 1, the battle for region 3 about to be fought (Cinis, Satores and Nova Vita there).

    Satores: Land Flames 3a, 3b and its castle at 3a (6). Nova Vita: a Land Flame at 3c, its curse
    (region 1's: power 3) at 3c, its Explorer with 2 flames at 3b (6). Cinis: Land Flames 3b, 3c and its
    Pilgrim with 2 flames at 3c (4). Turn order Cinis, Rota Aurea, Satores, Nova Vita."""
    state = game(4, decks={"curse": CURSES}, **options)

    def change(snap: dict[str, Any]) -> None:
        _empty_hands(snap)
        move_land_flame(snap, S, "3c", None)
        move_land_flame(snap, N, None, "3c")
        move_land_flame(snap, C, None, "3b")
        move_land_flame(snap, C, None, "3c")
        put_candle(snap, N, "E", "3b", 2, "A05")
        put_candle(snap, C, "P", "3c", 2, "A09")
        snap["tactics"] = [[], [], [], []]
        snap["tactics_deck"] += ["C-1X1V", "C-2X1I", "C-1X1T", "R-2S1V", "R-1S1T", "R-2V!"]
        snap["tactics_deck"] += ["S-2X1V", "S-1X1D", "S-1V1T", "N-3I1X", "N-2I1T", "N-1I1S"]
        for seat, codes in ((C, ["1I1X", "C-1X1V"]), (S, ["3X", "1I2S!"]), (N, ["2I1X", "N-3I1X"])):
            for code in codes:
                give_tactic(snap, seat, code)
        snap["curses_granted"] = 3
        snap["curse_models"] = ["3c", None, None]
        snap["curse_owners"] = [N, -1, -1]
        snap["battles_left"] = []
        snap["battle"] = [C, S, N]
        snap["secret_tactics"] = [[], [], [], []]
        snap["played_tactics"] = [[None, None]] * 4
        snap["tactics_used"] = [[], [], [], []]
        snap["stack"] = [[Auto.BATTLES, -1], [Phase.SECRET, -1, 3]]

    return craft(state, change)


def test_battle_example_merged_with_the_war_epilogue_example() -> None:
    state = battle_position()
    powers = {s: _power(state, s) for s in (C, S, N)}
    assert powers == {C: 4, S: 6, N: 6}, "the printed starting powers"
    assert state.to_act == (C, S, N), "every participant chooses at once"
    assert state.legal_actions(R) == []
    assert "play 1I1X C-1X1V" in state.legal_actions(C)
    state.apply(N, "play 2I1X N-3I1X")
    assert state.to_act == (C, S)
    # Nobody sees Nova Vita's choice: not in the views, not in the logs, not in its public hand.
    for viewer in (None, C, R, S):
        seen = state.view(viewer)["seats"][N]
        assert seen["chosen"] is True and "secret" not in seen
        assert seen["tactics"] == ["2I1X", "N-3I1X"]
        assert [e for e in state.log(viewer) if e["event"] == "chose"] == [
            {"event": "chose", "seat": N}
        ]
    assert state.view(N)["seats"][N]["secret"] == ["2I1X", "N-3I1X"]
    state.apply(S, "play 3X 1I2S!")
    state.apply(C, "play 1I1X C-1X1V")
    reveal = [e for e in state.log(None) if e["event"] == "reveal"]
    assert [(e["seat"], e["cards"]) for e in reveal] == [
        (C, ["1I1X", "C-1X1V"]),
        (S, ["3X", "1I2S!"]),
        (N, ["2I1X", "N-3I1X"]),
    ]
    # Cancelling, in turn order: Cinis's 1I1X cancels Nova Vita's 2I1X.
    assert state.to_act == (C,)
    assert "cancel 1 N 1" in state.legal_actions(C)
    state.apply(C, "cancel 1 N 1")
    state.apply(C, "pass")
    assert state.to_act == (S,)
    assert all(not a.startswith("cancel 2") for a in state.legal_actions(S)), "1I2S! cannot cancel"
    state.apply(S, "pass")
    state.apply(N, "pass")
    # Cinis resolves: C-1X1V (Extinguish a Satores flame, 1 VP), then its uncovered Ignite slot.
    assert state.to_act == (C,) and state.view(C)["pending"]["decision"] == "extinguish"
    assert state.view(C)["pending"]["region"] == 3, "tactic effects only in the contested region"
    state.apply(C, "extinguish 3b")
    state.apply(C, "extinguish S")
    assert state.to_act == (C,) and state.view(C)["pending"]["decision"] == "ignite"
    assert state.legal_actions(C) == ["ignite P", "ignite 3a", "skip"]
    state.apply(C, "ignite 3a")
    assert {s: _power(state, s) for s in (C, S, N)} == {C: 5, S: 5, N: 6}, "the Epilogue example"
    assert me(state, C)["vp"] == 1
    # Satores: 3X (2 of Nova Vita's flames, 1 of Cinis's), then 1I2S! (a Land Flame, 2 from Cinis).
    for target in (("3b", "N-E"), ("3b", "N-E"), ("3a", "C")):
        state.apply(S, f"extinguish {target[0]}")
        state.apply(S, f"extinguish {target[1]}")
    state.apply(S, "ignite 3c")
    state.apply(S, "steal C gold")
    state.apply(S, "steal C wax")
    assert {s: _power(state, s) for s in (C, S, N)} == {C: 4, S: 6, N: 4}
    # Nova Vita: N-3I1X (3 flames, a Cinis Land Flame), then its uncovered Extinguish slot: a Satores
    # flame — the 6 -> 5 the example shows without a word (rulings CA-W2).
    state.apply(N, "ignite E")
    state.apply(N, "ignite E")
    state.apply(N, "ignite E")
    state.apply(N, "extinguish 3b")
    state.apply(N, "extinguish C")
    state.apply(N, "extinguish 3c")
    state.apply(N, "extinguish S")
    final = next(e for e in state.log(None) if e["event"] == "powers")
    assert final == {"event": "powers", "region": 3, "powers": {"0": 3, "2": 5, "3": 7}}
    win = next(e for e in state.log(None) if e["event"] == "win")
    assert win == {"event": "win", "seat": N, "region": 3}
    assert me(state, N)["vp"] == 4, "4 VP in the first Year"
    assert not [e for e in state.log(None) if e["event"] == "order"], "Nova Vita is already last"
    # The Epilogue ran, then Year 2 began: tactic cards back, candles off, maneuvered cards in hand.
    assert state.view(None)["year"] == 2
    assert sorted(me(state, C)["tactics"]) == ["1I1X", "C-1X1V"]
    assert me(state, N)["candles"] == {} and me(state, N)["candle_flames"] == 12


def _power(state: Any, seat: int) -> int:
    from candlebox.games.candelabria.war import power

    return power(state, seat, 3)


def test_winner_moves_to_last_place_and_ties_go_by_turn_order() -> None:
    state = battle_position()
    state.apply(C, "play - -")
    state.apply(S, "play - -")
    state.apply(N, "play - -")
    # Nobody can cancel: resolution of the War Board slots, in turn order. Skip them all.
    while not state.is_over and state.view(None)["year"] == 1:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        state.apply(seat, "skip" if "skip" in legal else legal[0])
    win = next(e for e in state.log(None) if e["event"] == "win")
    assert win["seat"] == S, "6 against 6: Satores is before Nova Vita in the turn order"
    assert [e["order"] for e in state.log(None) if e["event"] == "order"] == [[C, R, N, S]]


def test_option_battle_shift_none_keeps_the_turn_order() -> None:
    """Rulings CA-W3's option: the example's remark read as flavour, no shift at all."""
    state = battle_position(battle_shift="none")
    for seat in (C, S, N):
        state.apply(seat, "play - -")
    while not state.is_over and state.view(None)["year"] == 1:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        state.apply(seat, "skip" if "skip" in legal else legal[0])
    assert next(e for e in state.log(None) if e["event"] == "win")["seat"] == S
    assert not [e for e in state.log(None) if e["event"] == "order"]
    assert state.view(None)["order"] == [C, R, S, N]


def test_a_house_alone_wins_without_tactics() -> None:
    """After region 3, region 8 (only Cinis there) is fought: Cinis wins it at once."""
    state = battle_position()

    def change(snap: dict[str, Any]) -> None:
        snap["battles_left"] = [8]

    state = craft(state, change)
    for seat in (C, S, N):
        state.apply(seat, "play - -")
    while state.view(None)["year"] == 1:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        state.apply(seat, "skip" if "skip" in legal else legal[0])
    battles = [e for e in state.log(None) if e["event"] in ("battle", "win")]
    assert battles[-2:] == [
        {"event": "battle", "region": 8, "seats": [C]},
        {"event": "win", "seat": C, "region": 8},
    ]
    assert not any(e["event"] == "chose" and e["seat"] == C for e in state.log(None)[-6:])


def _curse_position() -> Any:
    """The Deploy a Curse example: Nova Vita and Cinis both have 3 flames in front of curse 1; Cinis is
    first in the turn order and has a piece in region 9 (4-player game with Luminis out)."""
    state = game(4, decks={"curse": CURSES})

    def change(snap: dict[str, Any]) -> None:
        _empty_hands(snap)
        snap["curse_influence"][0][C] = 3
        snap["curse_influence"][0][N] = 3
        snap["land_flame_supply"][C] -= 3
        snap["land_flame_supply"][N] -= 3
        move_land_flame(snap, C, None, "9a")
        snap["stack"] = [[Phase.TURN, 0]]
        snap["hands"][0] = snap["maneuvered"][0][:1]
        snap["maneuvered"][0] = snap["maneuvered"][0][1:]

    return craft(state, change)


def test_deploy_a_curse_example() -> None:
    state = _curse_position()
    card = me(state, C)["hand"][0]
    state.apply(C, f"maneuver {card}")
    state.apply(C, "done")
    # Kindling is over: curse 1 goes to Cinis, first in turn order (3 flames to 3).
    assert state.view(C)["pending"] == {"decision": "curse-at", "seats": [C], "curse": 1}
    legal = state.legal_actions(C)
    assert "at 9a" in legal, "a territory at war where Cinis has a unit"
    assert all(not a.endswith(("2a", "2b", "2c", "4a", "4b", "4c")) for a in legal), "corrupted"
    flames_back = me(state, N)["land_flames"]
    state.apply(C, "at 9a")
    assert me(state, N)["land_flames"] == flames_back, "Nova Vita's flames came back before"
    models = state.view(None)["curse_models"]
    assert models[0] == {"curse": 1, "territory": "9a", "owner": "C"}
    from candlebox.games.candelabria.war import power

    assert power(state, C, 9) == 1 + 3, "a Land Flame and the curse (power 3)"


def test_black_temple_region_refuses_curses_and_no_flames_means_no_curse() -> None:
    state = _curse_position()

    def change(snap: dict[str, Any]) -> None:
        snap["temples"]["9"] = ["black"]
        snap["temple_supply"][2] -= 1
        snap["curse_influence"][1][R] = 1
        snap["land_flame_supply"][R] -= 1

    state = craft(state, change)
    state.apply(C, f"maneuver {me(state, C)['hand'][0]}")
    state.apply(C, "done")
    assert "at 9a" not in state.legal_actions(C)
    unclaimed = [e for e in state.log(None) if e["event"] == "curse-unclaimed"]
    assert unclaimed == []
    state.apply(C, "at 8a")
    # Curse 2 goes to Rota Aurea (its one flame), whose pieces are all in region 2, corrupted by that
    # curse: it is not deployed; curse 3 has no flames: nobody controls it (rulings CA-W4).
    unclaimed = [e for e in state.log(None) if e["event"] == "curse-unclaimed"]
    assert unclaimed == [
        {"event": "curse-unclaimed", "curse": 2, "reason": "no-territory"},
        {"event": "curse-unclaimed", "curse": 3, "reason": "no-flames"},
    ]
    assert me(state, R)["land_flames"] == 25 - 1 - 3, "its flame came back (3 on the map, 1 marker)"


def test_a_secret_choice_shows_nothing_to_the_others() -> None:
    """Nova Vita chooses two cards in one game and none in another: every other seat's view and log
    are the same in both, and a resample for another seat re-deals the choice."""
    first, second = battle_position(), battle_position()
    first.apply(N, "play 2I1X N-3I1X")
    second.apply(N, "play - -")
    for viewer in (None, C, R, S):
        assert first.view(viewer) == second.view(viewer)
        assert first.log(viewer) == second.log(viewer)
    assert first.view(N) != second.view(N)
    choices = set()
    for seed in range(30):
        twin = first.resample(C, seed)
        assert twin.view(C) == first.view(C)
        choices.add(tuple(twin.view(N)["seats"][N]["secret"]))
    assert len(choices) > 1, "the others' secret choices are dealt anew"
    assert first.history[-1] == (N, "play 2I1X N-3I1X")
    assert first.resample(C, 1).history[-1] == (N, candlebox.HIDDEN_ACTION), "nor in the history"
    assert first.resample(N, 1).history[-1] == (N, "play 2I1X N-3I1X"), "its own choice stays"


def test_grey_temple_gives_the_battle_to_the_weakest() -> None:
    def change(snap: dict[str, Any]) -> None:
        snap["temples"]["3"] = ["grey"]
        snap["temple_supply"][1] -= 1

    state = craft(battle_position(), change)
    for seat in (C, S, N):
        state.apply(seat, "play - -")
    while state.view(None)["year"] == 1:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        state.apply(seat, "skip" if "skip" in legal else legal[0])
    assert next(e for e in state.log(None) if e["event"] == "win")["seat"] == C, "4 is lowest"


def test_double_vp_curse_and_year_vp() -> None:
    def change(snap: dict[str, Any]) -> None:
        snap["year"] = 2
        snap["curses"] = ["9", "2", "4"]  # curse 1 is region 9's: double VP
        snap["curse_deck"] = [c for c in snap["curse_deck"] if c != "9"] + ["1"]
        snap["corrupted"] = [2, 4, 9]

    state = craft(battle_position(), change)
    state.apply(C, "play - -")
    state.apply(S, "play - -")
    state.apply(N, "play 2I1X N-3I1X")
    while state.view(None)["year"] == 2:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        if seat == N and "ignite E" in legal:
            state.apply(seat, "ignite E")
        else:
            state.apply(
                seat, "pass" if "pass" in legal else ("skip" if "skip" in legal else legal[0])
            )
    win = next(e for e in state.log(None) if e["event"] == "win")
    assert win["seat"] == N
    battle_vp = [e for e in state.log(None) if e["event"] == "vp" and e["reason"] == "battle"]
    assert battle_vp == [{"event": "vp", "seat": N, "amount": 16, "reason": "battle"}], "8 x 2"


def test_the_end_of_year_3_scores_the_end_of_game_upgrades_and_names_the_winner() -> None:
    def change(snap: dict[str, Any]) -> None:
        snap["year"] = 3
        for pile in snap["upgrade_piles"] + [snap["upgrade_box"]]:
            if "2-end-barracks" in pile:
                pile.remove("2-end-barracks")
                break
        snap["upgrades"][C].append("2-end-barracks")
        snap["vp"] = [10, 30, 0, 0]

    state = craft(battle_position(), change)
    for seat in (C, S, N):
        state.apply(seat, "play - -")
    while not state.is_over:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        state.apply(seat, "skip" if "skip" in legal else legal[0])
    end = [e for e in state.log(None) if e["event"] == "vp" and e["reason"] == "end-of-game"]
    barracks = [t for t in state.view(None)["territories"] if t["icon"] == "barracks"]
    held = sum("C" in t["land_flames"] for t in barracks)
    assert {"event": "vp", "seat": C, "amount": 2 * held, "reason": "end-of-game"} in end
    assert state.view(None)["end_reason"] == "end" and not state.truncated
    best = max(state.scores)
    first = next(s for s in state.view(None)["order"] if state.scores[s] == best)
    assert state.winners == (first,), "the most VP, ties to the first in turn order"


def test_the_epilogue_puts_deployed_cards_under_the_advanced_deck() -> None:
    state = battle_position()
    for seat in (C, S, N):
        state.apply(seat, "play - -")
    while state.view(None)["year"] == 1:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        state.apply(seat, "skip" if "skip" in legal else legal[0])
    bottom = state.to_json()["state"]["advanced_deck"][-2:]
    assert sorted(bottom) == ["A05", "A09"]
    assert all(s["deployed"] == [None, None, None] for s in state.view(None)["seats"])
    assert state.view(None)["curse_models"] == [] and len(state.view(None)["curses"]) == 3


def test_each_tactic_card_is_logged_when_it_resolves_then_its_effects() -> None:
    """Step 5: "players then resolve any remaining Tactic Cards in Turn Order" — the log tells each
    card as it is carried out (slot 1, its effects, slot 2, its effects), not both cards at once."""
    state = battle_position()
    state.apply(C, "play - -")
    state.apply(S, "play 3X 1I2S!")
    state.apply(N, "play - -")
    for seat in (C, S, N):
        if state.to_act == (seat,) and "pass" in state.legal_actions(seat):
            state.apply(seat, "pass")
    start = len(state.events)
    while not any(e[0] == "win" for e in state.events[start:]):
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        state.apply(seat, "skip" if "skip" in legal and seat != S else legal[0])
    told = [
        (e[0], e[2]) if e[0] == "resolve" else (e[0],)
        for e in state.events[start:]
        if e[1] == S and e[0] in ("resolve", "extinguish", "ignite", "steal")
    ]
    assert told[0] == ("resolve", "3X") and ("resolve", "1I2S!") in told
    second = told.index(("resolve", "1I2S!"))
    assert set(told[1:second]) == {("extinguish",)}, "3X's effects before 1I2S! resolves"
    assert set(told[second + 1 :]) == {("ignite",), ("steal",)}
