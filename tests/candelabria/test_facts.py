"""``candelabria.INFO.facts``: plain public data about the shipped components, agreeing with the rules
tables the engine builds from the same content (the RL adapters number actions from it)."""

from __future__ import annotations

import json

import candlebox
from candlebox.games.candelabria.board import board_for
from candlebox.games.candelabria.components import load_content
from candlebox.games.candelabria.notation import MAX_WAREHOUSE
from candlebox.games.candelabria.setup import UPGRADE_PILES

FACTS = candlebox.game_info("candelabria").facts


def test_the_facts_are_plain_data() -> None:
    assert json.loads(json.dumps(FACTS)) == FACTS


def test_the_sides_are_the_boards_the_engine_builds() -> None:
    content = load_content()
    for key, side in FACTS["sides"].items():
        board = board_for(content, key)
        assert side["territories"] == list(board.names)
        assert side["regions"] == list(board.regions)
        assert list(side["icons"]) == side["territories"]
    assert FACTS["sides"]["small"]["players"] == [2, 3]
    assert FACTS["sides"]["large"]["players"] == [4, 5]
    assert len(FACTS["sides"]["small"]["territories"]) == 24
    assert len(FACTS["sides"]["large"]["territories"]) == 30


def test_the_tactic_cards_have_their_houses_and_copies() -> None:
    cards = FACTS["tactic_cards"]
    assert list(cards) == FACTS["tactics"]
    common = [info for info in cards.values() if info["house"] is None]
    assert sum(info["copies"] for info in common) == 75  # the rulebook's count
    for house in FACTS["houses"]:
        assert sum(1 for info in cards.values() if info["house"] == house) == 3
    assert cards["1I1X"] == {
        "house": None,
        "copies": 6,
        "no_cancel": False,
        "effects": {"ignite": 1, "extinguish": 1},
    }
    assert cards["N-3I1X"]["house"] == "N" and cards["1I2S!"]["no_cancel"] is True


def test_the_houses_powers_and_the_other_tables() -> None:
    assert [p["effect"] for p in FACTS["houses"]["N"]["powers"]] == [
        "draw-three",
        "extra-territory",
        "curse-power",
    ]
    assert FACTS["houses"]["C"]["powers"][1] == {
        "year": 2,
        "effect": "extra-territory",
        "icon": "inn",
    }
    assert FACTS["upgrades"]["2-mine"] == {"year": 2, "effect": "extra-territory", "icon": "mine"}
    assert FACTS["upgrades"]["1-vp"]["icon"] is None
    assert FACTS["curses"]["5"] == {"region": 5, "effect": "first-in-order"}
    assert FACTS["warehouse"] == MAX_WAREHOUSE and FACTS["upgrade_piles"] == UPGRADE_PILES
    assert FACTS["missions"][0] == "Y1" and len(FACTS["missions"]) == 24
    assert FACTS["decay_cards"] == [f"D{k}" for k in range(1, 17)]
