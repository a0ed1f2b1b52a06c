"""The rulebook's worked examples of the Kindling season, replayed from a fixed setup.

(The corrupted-regions example is in test_mist.py; deploy a curse and the battle come with War.)
"""

from __future__ import annotations

from typing import Any

from tests.candelabria.helpers import craft, game, me, move_land_flame, play, set_gold, territory

TACTICS = ["3X", "1I2S!", "2I1X", "1I1X", "2V", "1T1V", "2S", "1I1V"]


def _pass_round(state: Any, *seats: int) -> None:
    """Each seat maneuvers its first card and stops at once (a quiet turn)."""
    for seat in seats:
        card = state.view(seat)["seats"][seat]["hand"][0]
        state.apply(seat, f"maneuver {card}")
        while state.to_act == (seat,) and "done" in state.legal_actions(seat):
            state.apply(seat, "done")  # Rota Aurea: first its Forge action, then the moves


def test_example_deploy_a_candle() -> None:
    """First Year, Cinis deploys a Pilgrim: pays 1 Wax, the card on slot 2, the Pilgrim at the castle,
    1 VP and 1 Tactic card, then an Advanced card drawn."""
    state = game(4, decks={"advanced": ["A17"], "tactics": TACTICS})
    before = me(state, 0)
    assert before["castle"] == "8b"
    state.apply(0, "deploy C1 P")
    assert state.view(0)["pending"] == {"decision": "take", "seats": [0], "count": 1}
    assert state.legal_actions(0) == [
        "take 3X",
        "take 1I2S!",
        "take 2I1X",
        "take 1I1X",
        "take 2V",
        "take 1T1V",
    ]
    state.apply(0, "take 2I1X")
    after = me(state, 0)
    assert after["wax"] == before["wax"] - 1
    assert after["deployed"] == [None, "C1", None]
    assert after["candles"] == {"pilgrim": {"territory": "8b", "flames": 3, "card": "C1"}}
    assert after["candle_flames"] == 12 - 3
    assert after["vp"] == 1
    assert after["tactics"][-1] == "2I1X"
    assert state.view(None)["tactics_board"] == ["3X", "1I2S!", "1I1X", "2V", "1T1V", "2S"], (
        "refilled"
    )
    assert after["hand"] == ["C2", "C3", "A17"]
    assert state.to_act == (1,), "the turn passes to Rota Aurea"
    draw = [e for e in state.log(1) if e["event"] == "draw"]
    assert draw == [{"event": "draw", "seat": 0}], "the others do not see the card drawn"
    assert next(e for e in state.log(0) if e["event"] == "draw")["card"] == "A17"


def _maneuver_position() -> Any:
    """Cinis has deployed its Pilgrim at 8b; a Nova Vita (green) Land Flame holds 8a, where Cinis's own
    flame has gone."""
    state = game(4, decks={"advanced": ["A17", "A05", "A09"], "tactics": TACTICS})
    play(state, (0, "deploy C1 P"), (0, "take 3X"))
    _pass_round(state, 1, 2, 3)

    def change(snap: dict[str, Any]) -> None:
        move_land_flame(snap, 0, "8a", None)
        move_land_flame(snap, 3, None, "8a")

    return craft(state, change)


def test_example_maneuver_the_game_pieces() -> None:
    state = _maneuver_position()
    assert state.to_act == (0,)
    state.apply(0, "maneuver C2")
    assert me(state, 0)["maneuvered"] == ["C2"], "discarded face up to the left of the House Board"
    # First move: the castle to the Mine territory; it destroys the green flame.
    assert "move C 8a" in state.legal_actions(0)
    state.apply(0, "move C 8a")
    assert state.legal_actions(0) == ["destroy N"]
    state.apply(0, "destroy N")
    assert state.to_act == (3,), "Nova Vita decides where its extinguished Land Flame goes"
    assert state.legal_actions(3) == ["curse 1", "curse 2", "curse 3", "supply"]
    state.apply(3, "supply")
    assert territory(state, "8a")["land_flames"] == ["C"]
    assert state.view(0)["pending"]["decision"] == "mine"
    gold = me(state, 0)["gold"]
    state.apply(0, "mine gold 1 wax 0")
    assert me(state, 0)["gold"] == gold + 1
    # Second move: the Pilgrim over the bridge, into the Inn of the green region (9).
    assert "move P 9c" in state.legal_actions(0)
    state.apply(0, "move P 9c")
    assert territory(state, "9c")["land_flames"] == ["C"]
    assert state.view(0)["pending"] == {"decision": "return", "seats": [0], "count": 1}
    assert "A05" in me(state, 0)["hand"], "the Inn drew a candle card"
    state.apply(0, "return C3")
    # The extra move: a flame off the Pilgrim, on to the Mine of region 9.
    assert "extra P 9b" in state.legal_actions(0) and "done" in state.legal_actions(0)
    state.apply(0, "extra P 9b")
    assert me(state, 0)["candles"]["pilgrim"] == {"territory": "9b", "flames": 2, "card": "C1"}
    assert state.view(0)["pending"] == {"decision": "mine", "seats": [0], "count": 2}
    state.apply(0, "mine gold 0 wax 2")
    assert state.to_act == (1,), "the maneuver is over: two moves and the one extra"
    moves = [
        (e["model"], e["from"], e["to"], e["extra"])
        for e in state.log(None)
        if e["event"] == "move"
    ]
    assert moves == [("C", "8b", "8a", False), ("P", "8b", "9c", False), ("P", "9c", "9b", True)]


def test_example_activate_a_territory() -> None:
    """Satores' Explorer enters a Forge; it holds 3 Forges: a Grey Temple in region 6 (2 gold) and a
    Year I Upgrade tile (1 gold); then no gold is left and the action ends."""
    state = game(4, decks={"upgrades": ["1-vp", "2-mine", "3-vp"], "tactics": TACTICS})
    _pass_round(state, 0, 1)
    play(state, (2, "deploy S2 E"), (2, "at 6b"), (2, "take 3X"), (2, "skip"))
    _pass_round(state, 3, 0, 1)

    def change(snap: dict[str, Any]) -> None:
        move_land_flame(snap, 2, None, "2c")  # Forge territories already held
        move_land_flame(snap, 2, None, "5b")
        set_gold(snap, 2, gold=3)

    state = craft(state, change)
    state.apply(2, "maneuver S1")
    legal = state.legal_actions(2)
    assert "move E 6a" in legal
    assert "move E 5b" in legal, "two steps away: the Explorer may skip a territory"
    state.apply(2, "move E 6a")
    assert state.view(2)["pending"] == {"decision": "forge", "seats": [2], "count": 3}
    assert "temple G 6" in state.legal_actions(2) and "upgrade 1" in state.legal_actions(2)
    state.apply(2, "temple G 6")
    assert next(r for r in state.view(None)["regions"] if r["region"] == 6)["temples"] == ["grey"]
    piles = state.view(None)["upgrade_piles"]
    affordable = [
        f"upgrade {p + 1}" for p, pile in enumerate(piles) if pile["top"].startswith("1-")
    ]
    assert state.legal_actions(2) == [*affordable, "done"], "1 gold: Year I tiles only"
    assert all(not a.startswith("temple") for a in state.legal_actions(2)), "1 gold buys no temple"
    state.apply(2, "upgrade 1")
    info = me(state, 2)
    assert info["gold"] == 0 and info["upgrades"] == ["1-vp"]
    assert state.view(2)["pending"]["decision"] == "move", "no gold left: the Forge action is over"


def test_example_use_an_extinguished_land_flame() -> None:
    """A Luminis candle extinguishes a Cinis Land Flame; Cinis puts it in front of the third curse,
    making its flames there 4."""
    state = game(4, houses=["C", "R", "S", "L"], decks={"tactics": TACTICS})

    def change(snap: dict[str, Any]) -> None:
        snap["curse_influence"][2][0] = 3
        snap["land_flame_supply"][0] -= 3

    state = craft(state, change)
    _pass_round(state, 0, 1, 2)
    state.apply(3, "deploy L1 W")  # L1: Extinguish 1, Ignite 1 (Year I)
    assert state.view(3)["pending"]["decision"] == "extinguish"
    assert "extinguish 8c" in state.legal_actions(3)
    state.apply(3, "extinguish 8c")
    assert state.legal_actions(3) == ["extinguish C"]
    state.apply(3, "extinguish C")
    assert state.to_act == (0,), "the owner decides, during Luminis's turn"
    state.apply(0, "curse 3")
    assert state.view(None)["curses"][2]["flames"] == {"C": 4}
    assert "8c" not in me(state, 0)["territories"]
    assert state.to_act == (3,) and state.view(3)["pending"]["decision"] == "ignite"
