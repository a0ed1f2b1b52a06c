"""The Kindling season, rule by rule: turns, Deploy, Maneuver, the six territory actions, candle effects,
temples, extinguished Land Flames, and bad input.

Seats in the 4-player games here: 0 Cinis (castle 8b; Land Flames 8a 8b 8c), 1 Rota Aurea (2a; 2a 2b 2c),
2 Satores (3a; 3a 3b 3c), 3 Nova Vita (4c; 4a 4c) — turn order 0, 1, 2, 3.
"""

from __future__ import annotations

from typing import Any

import pytest

from candlebox import IllegalAction
from candlebox.games.candelabria import CandelabriaState
from tests.candelabria.helpers import (
    craft,
    game,
    give_card,
    give_upgrade,
    me,
    move_land_flame,
    play,
    put_candle,
    set_gold,
    territory,
    to_turn,
)

TACTICS = ["3X", "1I2S!", "2I1X", "1I1X", "2V", "1T1V", "2S", "1I1V"]


def setup(change: Any = None, players: int = 4, **options: Any) -> CandelabriaState:
    options.setdefault("decks", {"tactics": TACTICS, "curse": ["5", "1", "7"]})
    state = game(players, **options)
    return craft(state, change) if change else state


# ----------------------------------------------------------------------------- turns
def test_turns_follow_the_turn_order_and_wrap() -> None:
    state = setup()
    seen = []
    for _ in range(5):
        seat = state.to_act[0]
        seen.append(seat)
        state.apply(seat, f"maneuver {me(state, seat)['hand'][0]}")
        while state.view(seat)["pending"]["decision"] != "turn" or state.to_act == (seat,):
            if "done" not in state.legal_actions(seat):
                break
            state.apply(seat, "done")
    assert seen == [0, 1, 2, 3, 0]


def test_no_passing_while_holding_cards_and_empty_hands_are_skipped() -> None:
    state = setup()
    for seat in range(4):
        assert all(
            a.split()[0] in ("deploy", "maneuver") for a in state.legal_actions(seat) or ["deploy"]
        )
    # Maneuver away every card: 3 rounds of quiet turns, then the season is over.
    turns = 0
    while state.view(None)["year"] == 1:
        who = state.to_act[0]
        decision = state.view(who)["pending"]["decision"]
        if decision == "turn":
            turns += 1
            assert me(state, who)["hand"], "only players holding cards take turns"
            state.apply(who, f"maneuver {me(state, who)['hand'][0]}")
        else:
            state.apply(
                who, "done" if "done" in state.legal_actions(who) else state.legal_actions(who)[0]
            )
    assert turns == 12
    kinds = [e["event"] for e in state.log(None)]
    assert kinds.index("war") > max(
        i for i, k in enumerate(kinds) if k == "end-turn" and i < kinds.index("war")
    )
    assert "epilogue" in kinds and state.view(None)["season"] == "kindling"
    assert all(me(state, s)["hand"] for s in range(4)), "the maneuvered cards are back in hand"


def test_a_player_who_ran_out_waits_for_the_others() -> None:
    def change(snap: dict[str, Any]) -> None:
        for code in snap["hands"][1][1:]:  # Rota Aurea keeps a single card
            snap["advanced_deck"].append(code)
            snap["advanced_known_by"].append(-1)
        snap["hands"][1] = snap["hands"][1][:1]
        snap["known_hands"][1] = snap["known_hands"][1][:1]

    state = setup(change)
    to_turn(state, 1)
    state.apply(1, "maneuver R1")
    to_turn(state, 0)
    to_turn(state, 2)  # from Cinis straight to Satores: Rota Aurea has no card left
    turns = [e["seat"] for e in state.log(None) if e["event"] == "end-turn"]
    assert turns == [0, 1, 2, 3, 0]


def test_max_turns_ends_the_game_with_the_most_vp_winning_ties_by_turn_order() -> None:
    state = setup(max_turns=2)
    to_turn(state, 1)
    state.apply(1, "maneuver R1")
    while not state.is_over:
        state.apply(1, "done")
    assert state.is_over and state.truncated
    assert state.winners == (0,), "all at 0 VP: the first in turn order wins"
    assert state.scores == (0.0, 0.0, 0.0, 0.0)


# ----------------------------------------------------------------------------- deploy
def test_one_candle_per_role_and_the_wax_is_paid() -> None:
    state = setup()
    state.apply(0, "deploy C2 W")  # C2: 2 Extinguish, Year I
    state.apply(0, "skip")
    to_turn(state, 0)
    legal = state.legal_actions(0)
    assert not any(a.startswith("deploy") and a.endswith(" W") for a in legal)
    assert "deploy C1 E" in legal and "deploy C1 P" in legal
    assert "deploy C3 E" not in legal, "C3 costs 2 wax; 1 is left"
    assert me(state, 0)["wax"] == 1


def test_no_deploy_without_the_wax() -> None:
    state = setup(lambda s: (set_gold(s, 0, wax=0), give_card(s, 0, "A01")))
    legal = state.legal_actions(0)
    assert [a for a in legal if a.startswith("deploy")] == [
        "deploy A01 E",
        "deploy A01 P",
        "deploy A01 W",
    ]
    assert "maneuver C1" in legal, "a card can always be discarded to maneuver"


def test_effects_only_from_the_cards_year() -> None:
    state = setup(lambda s: give_card(s, 0, "A21"))  # A21: 3 VP from the Second Year
    state.apply(0, "deploy A21 W")
    assert me(state, 0)["vp"] == 0
    assert me(state, 0)["candles"]["warrior"]["flames"] == 4, "the candle still comes"
    assert state.to_act == (1,)


def test_deploy_draws_nothing_from_an_empty_advanced_deck() -> None:
    def change(snap: dict[str, Any]) -> None:
        snap["boxed_candles"] += snap["advanced_deck"]
        snap["advanced_deck"] = []
        snap["advanced_known_by"] = []

    state = setup(change)
    state.apply(0, "deploy C2 W")
    state.apply(0, "skip")
    assert me(state, 0)["hand"] == ["C1", "C3"]
    assert any(e["event"] == "deck-empty" for e in state.log(None))


def test_satores_deploys_in_any_territory() -> None:
    state = setup()
    to_turn(state, 2)
    state.apply(2, "deploy S3 P")  # S3: 2 VP
    assert state.view(2)["pending"] == {"decision": "deploy-at", "seats": [2], "role": "Pilgrim"}
    assert len(state.legal_actions(2)) == 30
    state.apply(2, "at 9b")
    assert me(state, 2)["candles"]["pilgrim"]["territory"] == "9b"
    assert me(state, 2)["vp"] == 2


def test_deploy_upgrades_and_powers_trigger_after_the_card() -> None:
    state = setup(lambda s: (give_upgrade(s, 0, "1-vp"), give_upgrade(s, 0, "1-ignite")))
    state.apply(0, "deploy C1 E")  # 1 VP, 1 Tactic
    state.apply(0, "take 3X")
    assert me(state, 0)["vp"] == 2, "the card's VP, then the upgrade's"
    assert state.view(0)["pending"]["decision"] == "ignite"
    state.apply(0, "ignite E")
    assert me(state, 0)["candles"]["explorer"]["flames"] == 3
    vps = [e["reason"] for e in state.log(None) if e["event"] == "vp"]
    assert vps == ["effect", "upgrade"]


def test_a_year_ii_upgrade_does_not_trigger_in_the_first_year() -> None:
    state = setup(lambda s: give_upgrade(s, 0, "3-vp"))
    state.apply(0, "deploy C2 W")
    state.apply(0, "skip")
    assert me(state, 0)["vp"] == 0


def test_a_candle_takes_the_flames_left_when_the_supply_runs_short() -> None:
    def change(snap: dict[str, Any]) -> None:
        put_candle(snap, 0, "E", "8b", 10, "A30")

    state = setup(change)
    state.apply(0, "deploy C2 W")
    state.apply(0, "skip")
    assert me(state, 0)["candles"]["warrior"]["flames"] == 2
    assert me(state, 0)["candle_flames"] == 0


def test_nova_vita_draws_three_and_keeps_one() -> None:
    state = setup(decks={"advanced": ["A05", "A06", "A07", "A08"], "tactics": TACTICS})
    to_turn(state, 3)
    state.apply(3, "deploy N1 E")  # N1: 2 Ignite
    state.apply(3, "skip")
    assert state.view(3)["pending"] == {
        "decision": "keep",
        "seats": [3],
        "cards": ["A05", "A06", "A07"],
    }
    assert "cards" not in state.view(0)["pending"], "only Nova Vita sees them"
    assert state.legal_actions(3) == ["keep A05", "keep A06", "keep A07"]
    state.apply(3, "keep A06")
    assert me(state, 3)["hand"][-1] == "A06"
    deck = state.to_json()["state"]["advanced_deck"]
    assert deck[0] == "A08" and deck[-2:] == ["A05", "A07"], "the other two under the deck"
    keep = [e for e in state.log(0) if e["event"] == "keep"]
    assert keep == [{"event": "keep", "seat": 3}]


# ----------------------------------------------------------------------------- maneuver
def test_moves_go_to_neighbouring_territories_and_over_bridges() -> None:
    state = setup()
    state.apply(0, "maneuver C1")
    assert state.legal_actions(0) == [
        "move C 8a",
        "move C 8c",
        "move C 9c",
        "move C 10b",
        "move C 10c",
        "done",
    ]


def test_one_castle_per_territory() -> None:
    state = setup(lambda s: s["castles"].__setitem__(1, "9c"))
    state.apply(0, "maneuver C1")
    assert "move C 9c" not in state.legal_actions(0)


def test_a_land_flame_only_where_the_house_has_none_and_the_action_counts_every_icon() -> None:
    state = setup()
    to_turn(state, 1)
    state.apply(1, "maneuver R1")
    state.apply(1, "done")  # Rota Aurea's Forge action
    state.apply(1, "move C 2b")  # its own Land Flame is there: nothing happens
    assert state.view(1)["pending"]["decision"] == "move"
    state.apply(1, "move C 1c")
    assert state.view(1)["pending"]["decision"] == "portal"
    assert territory(state, "1c")["land_flames"] == ["R"]


def test_influence_counts_every_curse_territory_held() -> None:
    state = setup()
    to_turn(state, 1)
    state.apply(1, "maneuver R1")
    state.apply(1, "done")
    supply = me(state, 1)["land_flames"]
    state.apply(1, "move C 1b")  # a Curse icon; Rota Aurea already holds 2a
    assert state.view(1)["pending"] == {"decision": "influence", "seats": [1], "count": 2}
    assert state.legal_actions(1) == ["curse 1", "curse 2", "curse 3"]
    play(state, (1, "curse 3"), (1, "curse 3"))
    assert state.view(None)["curses"][2]["flames"] == {"R": 2}
    assert me(state, 1)["land_flames"] == supply - 3, "one on 1b, two before the curse"


def test_no_land_flame_left_means_no_flame_and_no_action() -> None:
    def change(snap: dict[str, Any]) -> None:
        snap["curse_influence"][0][0] += snap["land_flame_supply"][0]
        snap["land_flame_supply"][0] = 0

    state = setup(change)
    state.apply(0, "maneuver C1")
    state.apply(0, "move C 9c")
    assert state.view(0)["pending"]["decision"] == "move"
    assert territory(state, "9c")["land_flames"] == []
    assert any(e["event"] == "no-land-flame" for e in state.log(None))


def test_done_ends_a_maneuver_early() -> None:
    state = setup()
    play(state, (0, "maneuver C1"), (0, "move C 8a"), (0, "done"))
    assert state.to_act == (1,)


def _with_candles(extra: Any = None, **options: Any) -> CandelabriaState:
    def change(snap: dict[str, Any]) -> None:
        put_candle(snap, 0, "E", "8b", 2, "A30")
        put_candle(snap, 0, "P", "8b", 3, "A31")
        put_candle(snap, 0, "W", "8b", 4, "A32")
        if extra:
            extra(snap)

    return setup(change, **options)


def test_the_extra_move_costs_a_flame_once_and_only_for_a_candle_that_moved() -> None:
    state = _with_candles()
    state.apply(0, "maneuver C1")
    assert not any(a.startswith("extra") for a in state.legal_actions(0))
    state.apply(0, "move C 8a")
    assert not any(a.startswith("extra") for a in state.legal_actions(0)), "a castle has no flames"
    state.apply(0, "move W 8c")
    assert state.view(0)["pending"] == {
        "decision": "move",
        "seats": [0],
        "moves_left": 0,
        "extra_used": False,
    }
    legal = state.legal_actions(0)
    assert legal[-1] == "done" and all(a.startswith("extra W ") for a in legal[:-1])
    state.apply(0, "extra W 10c")
    assert me(state, 0)["candles"]["warrior"]["flames"] == 3
    assert me(state, 0)["candle_flames"] == 12 - 9 + 1
    assert state.view(0)["pending"]["decision"] == "portal", "10c is a Portal"
    state.apply(0, "done")
    assert state.to_act == (1,)


def _explorer_burnt_out(snap: dict[str, Any]) -> None:
    snap["candle_flames"][0][0] = 0
    snap["candle_flame_supply"][0] += 2


def test_a_candle_without_flames_still_moves_but_cannot_pay() -> None:
    state = _with_candles(_explorer_burnt_out)
    state.apply(0, "maneuver C1")
    assert "move E 8a" in state.legal_actions(0)
    state.apply(0, "move E 8a")
    assert not any(a.startswith("extra E") for a in state.legal_actions(0))


def _nova_vita_candles(extra: Any = None) -> CandelabriaState:
    """Nova Vita (no movement power) with an Explorer and a Pilgrim on 8b, at the start of its turn."""

    def change(snap: dict[str, Any]) -> None:
        put_candle(snap, 3, "E", "8b", 2, "A30")
        put_candle(snap, 3, "P", "8b", 3, "A31")
        if extra:
            extra(snap)

    state = to_turn(setup(change), 3)
    state.apply(3, "maneuver N1")
    return state


def test_explorer_skips_a_territory_and_two_with_the_upgrade() -> None:
    state = _nova_vita_candles()
    explorer = {a.split()[2] for a in state.legal_actions(3) if a.startswith("move E")}
    two_steps = {"6c", "7c", "5c", "7b", "9a", "9b", "10a"}
    assert explorer == {"8a", "8c", "9c", "10b", "10c"} | two_steps
    state = _nova_vita_candles(lambda s: give_upgrade(s, 3, "1-skip"))
    explorer = {a.split()[2] for a in state.legal_actions(3) if a.startswith("move E")}
    assert {"6a", "6b", "7a"} <= explorer, "three moves away: two territories skipped"


def test_pilgrim_moves_to_any_territory_with_the_same_icon() -> None:
    state = _nova_vita_candles()
    pilgrim = {a.split()[2] for a in state.legal_actions(3) if a.startswith("move P")}
    assert pilgrim == {"8a", "8c", "9c", "10b", "10c", "2c", "5b", "6a", "7b"}


def _enemy_at_8a(snap: dict[str, Any]) -> None:
    put_candle(snap, 3, "E", "8a", 2, "A33")


def test_warrior_pushes_an_enemy_candle_where_the_active_player_chooses() -> None:
    state = _with_candles(_enemy_at_8a)
    state.apply(0, "maneuver C1")
    state.apply(0, "move W 8a")
    assert state.view(0)["pending"]["decision"] == "push"
    assert state.legal_actions(0) == ["push N-E"], "forced: no way to spare it"
    state.apply(0, "push N-E")
    assert state.legal_actions(0) == ["to 6c", "to 7c", "to 8b", "to 8c"]
    state.apply(0, "to 7c")
    assert me(state, 3)["candles"]["explorer"]["territory"] == "7c"
    assert territory(state, "7c")["land_flames"] == [], "a pushed candle places no flame"
    assert state.view(0)["pending"]["decision"] == "move"


def test_warrior_push_may_be_optional() -> None:
    state = _with_candles(_enemy_at_8a, warrior_push="optional")
    play(state, (0, "maneuver C1"), (0, "move W 8a"))
    assert state.legal_actions(0) == ["push N-E", "spare"]
    state.apply(0, "spare")
    assert me(state, 3)["candles"]["explorer"]["territory"] == "8a"


def test_the_push_upgrade_pushes_one_territory_further() -> None:
    state = _with_candles(lambda s: (_enemy_at_8a(s), give_upgrade(s, 0, "1-push")))
    play(state, (0, "maneuver C1"), (0, "move W 8a"), (0, "push N-E"))
    board = state.board
    assert [a.split()[1] for a in state.legal_actions(0)] == [
        board.names[t] for t in board.push[2][board.index["8a"]]
    ]


def test_a_castle_entering_destroys_one_enemy_flame() -> None:
    def change(snap: dict[str, Any]) -> None:
        move_land_flame(snap, 3, None, "8a")
        put_candle(snap, 3, "E", "8a", 2, "A33")
        put_candle(snap, 1, "P", "8a", 0, "A34")  # no flame: nothing to destroy on it

    state = setup(change)
    play(state, (0, "maneuver C1"), (0, "move C 8a"))
    assert state.legal_actions(0) == ["destroy N", "destroy N-E"]
    state.apply(0, "destroy N-E")
    assert me(state, 3)["candles"]["explorer"]["flames"] == 1
    assert me(state, 3)["candle_flames"] == 12 - 1
    assert state.view(0)["pending"]["decision"] == "move", "Cinis held 8a already: no action"


def test_castle_entry_may_be_optional() -> None:
    state = setup(lambda s: move_land_flame(s, 3, None, "8a"), castle_entry="optional")
    play(state, (0, "maneuver C1"), (0, "move C 8a"))
    assert state.legal_actions(0) == ["destroy N", "spare"]


def test_portal_relocation_is_not_an_entry() -> None:
    state = setup(lambda s: move_land_flame(s, 0, None, "9c"))
    to_turn(state, 3)
    play(state, (3, "maneuver N1"), (3, "move C 4b"))  # the Portal Nova Vita left empty at setup
    assert state.view(3)["pending"] == {"decision": "portal", "seats": [3], "count": 1}
    assert state.legal_actions(3) == ["relocate C", "done"]
    state.apply(3, "relocate C")
    legal = state.legal_actions(3)
    assert "to 8b" not in legal and "to 2a" not in legal, "never onto another castle"
    assert len(legal) == 30 - 4
    state.apply(3, "to 9c")
    assert me(state, 3)["castle"] == "9c"
    assert territory(state, "9c")["land_flames"] == ["C"], "no flame placed, none destroyed"
    assert state.view(3)["pending"]["decision"] == "move"


def test_cinis_candles_pass_over_territories_with_cinis_land_flames() -> None:
    state = _with_candles()
    state.apply(0, "maneuver C1")
    warrior = {a.split()[2] for a in state.legal_actions(0) if a.startswith("move W")}
    assert {"6c", "7c", "5c"} <= warrior, "over 8a or 8c, both Cinis"
    rota = setup(lambda s: put_candle(s, 1, "W", "2a", 4, "A30"))
    to_turn(rota, 1)
    play(rota, (1, "maneuver R1"), (1, "done"))
    assert {a.split()[2] for a in rota.legal_actions(1) if a.startswith("move W")} == {
        "1b",
        "1c",
        "2b",
        "2c",
        "4c",
        "6b",
    }


def test_rota_aurea_may_forge_when_it_discards_to_maneuver() -> None:
    state = setup()
    to_turn(state, 1)
    state.apply(1, "maneuver R1")
    assert state.view(1)["pending"] == {"decision": "forge", "seats": [1], "count": 1}
    assert state.legal_actions(1)[-1] == "done"


# ----------------------------------------------------------------------------- territory actions
def test_barracks_takes_from_the_board_then_refills() -> None:
    state = setup()
    play(state, (0, "maneuver C1"), (0, "move C 10b"))
    assert state.view(0)["pending"] == {"decision": "take", "seats": [0], "count": 2}
    assert state.legal_actions(0) == [
        "take 3X",
        "take 1I2S!",
        "take 2I1X",
        "take 1I1X",
        "take 2V",
        "take 1T1V",
    ]
    state.apply(0, "take 2V")
    assert len(state.view(None)["tactics_board"]) == 5, "no refill in the middle of the action"
    state.apply(0, "take 3X")
    assert state.view(None)["tactics_board"] == ["1I2S!", "2I1X", "1I1X", "1T1V", "2S", "1I1V"]
    assert me(state, 0)["tactics"][-2:] == ["2V", "3X"]


def test_barracks_refills_an_empty_board_in_the_middle() -> None:
    def change(snap: dict[str, Any]) -> None:
        snap["tactics_deck"] = snap["tactics_board"][1:] + snap["tactics_deck"]
        snap["tactics_board"] = snap["tactics_board"][:1]

    state = setup(change)
    play(state, (0, "maneuver C1"), (0, "move C 10b"), (0, "take 3X"))
    assert state.legal_actions(0)[0] == "take 1I2S!"


def test_forge_prices_by_year_six_slots_and_temples() -> None:
    def change(snap: dict[str, Any]) -> None:
        set_gold(snap, 1, gold=5, wax=0)
        move_land_flame(snap, 1, None, "5b")
        move_land_flame(snap, 1, None, "7b")

    state = setup(
        change, decks={"upgrades": ["1-vp", "2-mine", "3-vp", "3-castle"], "tactics": TACTICS}
    )
    to_turn(state, 1)
    state.apply(1, "maneuver R1")
    assert state.view(1)["pending"]["count"] == 3
    piles = state.view(None)["upgrade_piles"]
    assert piles[0]["top"] == "1-vp" and piles[1]["top"] == "3-castle"
    state.apply(1, "upgrade 2")  # a Year III tile: 3 gold
    assert me(state, 1)["gold"] == 2
    legal = state.legal_actions(1)
    regions = sorted({int(a.split()[2]) for a in legal if a.startswith("temple W")})
    assert regions == [2, 5, 7], "only where Rota Aurea has a piece"
    state.apply(1, "temple W 5")
    assert me(state, 1)["vp"] == 4, "a White Temple scores 4 for its placer"
    assert me(state, 1)["gold"] == 0
    assert state.view(1)["pending"]["decision"] == "move", "no gold left"


def test_no_upgrade_with_six_slots_full_and_temples_stack() -> None:
    def change(snap: dict[str, Any]) -> None:
        for code in ("1-vp", "1-castle", "1-skip", "1-push", "1-steal", "1-tactic"):
            give_upgrade(snap, 1, code)
        set_gold(snap, 1, gold=4)
        move_land_flame(snap, 1, None, "4b")
        move_land_flame(snap, 1, None, "5b")

    state = setup(change)
    to_turn(state, 1)
    state.apply(1, "maneuver R1")
    assert not any(a.startswith("upgrade") for a in state.legal_actions(1))
    play(state, (1, "temple G 4"), (1, "temple B 4"))
    assert next(r for r in state.view(None)["regions"] if r["region"] == 4)["temples"] == [
        "white",
        "grey",
        "black",
    ]
    assert me(state, 1)["vp"] == 0


def test_temple_upgrades_and_the_luminis_power() -> None:
    def change(snap: dict[str, Any]) -> None:
        give_upgrade(snap, 1, "1-temple")
        give_upgrade(snap, 1, "2-temple")  # Year II: not yet
        set_gold(snap, 1, gold=2)
        put_candle(snap, 3, "P", "9a", 3, "A30")  # Luminis has a candle on the map

    state = setup(change, houses=["C", "R", "S", "L"])
    to_turn(state, 1)
    play(state, (1, "maneuver R1"), (1, "temple G 2"))
    assert me(state, 1)["vp"] == 1
    assert state.to_act == (3,), "Luminis may move a candle into region 2, in Rota Aurea's turn"
    assert state.legal_actions(3) == ["shift P 2a", "shift P 2b", "shift P 2c", "stay"]
    state.apply(3, "shift P 2b")
    assert me(state, 3)["candles"]["pilgrim"]["territory"] == "2b"
    assert territory(state, "2b")["land_flames"] == ["R"], "no flame with this ability"
    assert state.to_act == (1,)


def test_mine_any_mix_up_to_the_warehouse() -> None:
    # Cinis's castle into 8a, its own flame gone from there; it holds the Mine 9b too: count 2.
    state = setup(
        lambda s: (
            set_gold(s, 0, gold=7, wax=1),
            move_land_flame(s, 0, "8a", None),
            move_land_flame(s, 0, None, "9b"),
        )
    )
    play(state, (0, "maneuver C1"), (0, "move C 8a"))
    assert state.view(0)["pending"] == {"decision": "mine", "seats": [0], "count": 2}
    assert state.legal_actions(0) == ["mine gold 0 wax 2", "mine gold 1 wax 1", "mine gold 2 wax 0"]
    state = setup(
        lambda s: (
            set_gold(s, 0, gold=8, wax=1),
            move_land_flame(s, 0, "8a", None),
            move_land_flame(s, 0, None, "9b"),
        )
    )
    play(state, (0, "maneuver C1"), (0, "move C 8a"))
    assert state.legal_actions(0) == ["mine gold 0 wax 1", "mine gold 1 wax 0"], "room for one"
    state.apply(0, "mine gold 1 wax 0")
    assert (me(state, 0)["gold"], me(state, 0)["wax"]) == (9, 1)
    mine = next(e for e in state.log(None) if e["event"] == "mine")
    assert mine["discarded"] == 1


def test_inn_returns_as_many_cards_house_cards_allowed() -> None:
    state = setup(decks={"advanced": ["A17", "A18"], "tactics": TACTICS})
    play(state, (0, "maneuver C1"), (0, "move C 9c"))
    assert state.view(0)["pending"] == {"decision": "return", "seats": [0], "count": 1}
    assert state.legal_actions(0) == ["return C2", "return C3", "return A17"]
    state.apply(0, "return C2")
    assert me(state, 0)["hand"] == ["C3", "A17"]
    assert state.to_json()["state"]["advanced_deck"][-1] == "C2"
    assert state.view(1)["seats"][0]["known_hand"] == [], "the others no longer know which it kept"
    assert [e for e in state.log(1) if e["event"] == "return"] == [{"event": "return", "seat": 0}]


# ----------------------------------------------------------------------------- candle effects
def test_ignite_a_candle_or_a_land_flame_without_an_action() -> None:
    state = setup(lambda s: give_card(s, 0, "A02"))  # 0 wax: Ignite 1
    state.apply(0, "deploy A02 E")
    legal = state.legal_actions(0)
    assert legal[0] == "ignite E" and legal[-1] == "skip"
    assert "ignite 8a" not in legal and "ignite 6a" in legal
    assert len(legal) == 1 + 27 + 1
    state.apply(0, "ignite 6a")
    assert territory(state, "6a")["land_flames"] == ["C"]
    assert state.to_act == (1,), "no Forge action: igniting is not entering"


def test_extinguish_an_enemy_flame_anywhere_in_two_steps() -> None:
    state = setup(lambda s: (give_card(s, 0, "A03"), put_candle(s, 1, "W", "6b", 4, "A30")))
    state.apply(0, "deploy A03 E")
    legal = state.legal_actions(0)
    assert legal == [
        f"extinguish {t}" for t in ("2a", "2b", "2c", "3a", "3b", "3c", "4a", "4c", "6b")
    ] + ["skip"]
    state.apply(0, "extinguish 6b")
    assert state.legal_actions(0) == ["extinguish R-W"]
    state.apply(0, "extinguish R-W")
    assert me(state, 1)["candles"]["warrior"]["flames"] == 3 and me(state, 1)["candle_flames"] == 9


def test_steal_from_an_opponent_and_a_full_warehouse_discards() -> None:
    state = setup(
        lambda s: (give_card(s, 0, "A08"), set_gold(s, 0, gold=9, wax=1))
    )  # A08: 1 wax, Steal 2
    state.apply(0, "deploy A08 E")
    assert state.legal_actions(0) == [
        "steal R gold",
        "steal R wax",
        "steal S gold",
        "steal S wax",
        "steal N gold",
        "steal N wax",
        "skip",
    ]
    state.apply(0, "steal S gold")
    assert (me(state, 0)["gold"], me(state, 2)["gold"]) == (10, 1)
    state.apply(0, "steal S gold")
    assert (me(state, 0)["gold"], me(state, 2)["gold"]) == (10, 0)
    assert state.view(None)["reserve"]["gold"] == 50 - (10 + 2 + 0 + 2), "the second one discarded"
    steals = [e["kept"] for e in state.log(None) if e["event"] == "steal"]
    assert steals == [True, False]


def test_destroy_temple_the_top_level_and_white_scores_for_the_destroyer() -> None:
    state = setup(lambda s: give_card(s, 0, "A16"))  # 1 wax: Destroy Temple 1, 1 VP
    state.apply(0, "deploy A16 E")
    assert state.legal_actions(0) == ["raze 4", "skip"]
    state.apply(0, "raze 4")
    assert me(state, 0)["vp"] == 4 + 1
    assert next(r for r in state.view(None)["regions"] if r["region"] == 4)["temples"] == []
    assert state.view(None)["temples_left"]["white"] == 6


def test_skip_declines_the_rest_of_an_effect() -> None:
    state = setup()
    state.apply(0, "deploy C2 W")  # 2 Extinguish
    state.apply(0, "skip")
    assert state.to_act == (1,)


def test_a_land_flame_extinguished_goes_where_its_owner_says() -> None:
    state = setup(lambda s: give_card(s, 0, "A03"))
    play(state, (0, "deploy A03 E"), (0, "extinguish 4a"), (0, "extinguish N"))
    assert state.to_act == (3,) and state.view(3)["pending"]["decision"] == "flame"
    assert state.legal_actions(0) == []
    supply = me(state, 3)["land_flames"]
    state.apply(3, "supply")
    assert me(state, 3)["land_flames"] == supply + 1
    assert state.to_act == (1,)


# ----------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    ("seat", "action", "message"),
    [
        (0, "fly away", "unknown action 'fly'"),
        (0, "deploy C1 Q", "'deploy' is followed by a candle card and a role"),
        (0, "deploy A17 P", "is not legal now"),
        (0, "move C 8a", "is not legal now"),
        (1, "maneuver R1", "seat 1 does not act now"),
        (7, "maneuver C1", "not a seat of this 4-player game"),
        (0, 42, "an action is text"),
        (0, "done extra", "'done' takes nothing after it"),
        (0, "", "unknown action ''"),
    ],
)
def test_bad_input_is_refused_clearly_and_changes_nothing(
    seat: int, action: Any, message: str
) -> None:
    state = setup()
    before = state.to_json()
    with pytest.raises(IllegalAction, match=message):
        state.apply(seat, action)
    assert state.to_json() == before


def test_an_action_of_another_decision_is_refused() -> None:
    state = setup()
    state.apply(0, "maneuver C1")
    before = state.to_json()
    for action in ("deploy C2 P", "curse 1", "take 3X", "supply"):
        with pytest.raises(IllegalAction, match=r"not legal now .*seat 0 \(C\) is maneuvering"):
            state.apply(0, action)
    assert state.to_json() == before


def test_luminis_moves_a_candle_when_a_temple_is_destroyed_in_anyones_turn() -> None:
    def change(snap: dict[str, Any]) -> None:
        give_card(snap, 0, "A16")  # Destroy Temple 1, 1 VP
        put_candle(snap, 3, "W", "7a", 4, "A30")

    state = setup(change, houses=["C", "R", "S", "L"])
    play(state, (0, "deploy A16 E"), (0, "raze 9"))
    assert state.to_act == (3,), "Luminis decides at once, before A16's VP"
    assert state.legal_actions(3) == ["shift W 9a", "shift W 9b", "shift W 9c", "stay"]
    state.apply(3, "stay")
    assert me(state, 3)["candles"]["warrior"]["territory"] == "7a"
    assert me(state, 0)["vp"] == 1, "A16's VP; a Black Temple scores nothing"
    assert state.to_act == (1,)


def test_nova_vita_at_an_inn_keeps_one_of_three_then_returns_one() -> None:
    state = setup(decks={"advanced": ["A05", "A06", "A07"], "tactics": TACTICS})
    to_turn(state, 3)
    play(state, (3, "maneuver N1"), (3, "move C 6b"))  # a second Inn: two draws
    assert state.view(3)["pending"]["cards"] == ["A05", "A06", "A07"]
    state.apply(3, "keep A07")
    second = state.view(3)["pending"]["cards"]
    assert state.view(3)["pending"]["decision"] == "keep" and len(second) == 3
    state.apply(3, f"keep {second[0]}")
    assert state.view(3)["pending"] == {"decision": "return", "seats": [3], "count": 2}
    play(state, (3, "return N2"), (3, "return N3"))
    assert me(state, 3)["hand"] == ["A07", second[0]]


def test_the_log_names_roles_and_curse_places() -> None:
    state = _with_candles(_enemy_at_8a)
    play(state, (0, "maneuver C1"), (0, "move W 8a"), (0, "push N-E"), (0, "to 7c"))
    push = next(e for e in state.log(None) if e["event"] == "push")
    assert push == {"event": "push", "seat": 0, "owner": 3, "role": "E", "from": "8a", "to": "7c"}
    move = next(e for e in state.log(None) if e["event"] == "move")
    assert move["model"] == "W"


def test_year_ii_powers_and_cards_work_from_the_second_year() -> None:
    def change(snap: dict[str, Any]) -> None:
        snap["year"] = 2
        give_card(snap, 2, "A21")  # 1 wax, Year II: 3 VP
        move_land_flame(snap, 0, None, "6b")  # a second Inn for Cinis

    state = setup(change)
    # Cinis, Year II: "it counts as if you control an additional Inn territory".
    play(state, (0, "maneuver C1"), (0, "move C 9c"))
    assert state.view(0)["pending"] == {"decision": "return", "seats": [0], "count": 3}
    to_turn(state, 2)
    state.apply(2, "deploy A21 W")
    state.apply(2, "at 3a")
    assert me(state, 2)["vp"] == 3, "a Year II card works in the Second Year"
    # Satores, Year II: "each time you deploy a Candle, Ignite 1".
    assert state.view(2)["pending"] == {
        "decision": "ignite",
        "seats": [2],
        "count": 1,
        "region": None,
    }
