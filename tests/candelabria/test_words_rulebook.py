"""The words of each configuration say what the rulebook and the engine do (issue 33: texts read beside
the rulebook that said something else). Where the engine decides, the test asks the engine."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

import candlebox
from candlebox.games.candelabria import missions
from candlebox.games.candelabria.missions import MISSIONS
from candlebox.games.candelabria.schema import CONTENT
from tests.candelabria.helpers import craft, game, move_land_flame, put_candle, to_turn
from tests.candelabria.test_missions import vp_events, with_missions

WAR_BOARD = re.compile(r"war-board:")
# The missions about controlling a curse: nobody controls one with two players (CA-2P3, CA-M3).
NO_CURSE = {"Y3", "Y4", "Y5", "K7", "K8"}


def _words(players: int, **options: Any) -> dict[str, dict[str, str]]:
    return candlebox.components("candelabria", players=players, **options)


@pytest.mark.parametrize("players", [2, 4])
def test_a_war_board_slot_also_acts_under_a_card_spent_cancelling(players: int) -> None:
    """CA-W1: "countered" is both the cancelled card and the card spent cancelling; the battle example
    needs the second (CA-W2). The slot's effect cannot be cancelled either ("cannot be negated")."""
    table = _words(players)
    slots = [code for code in table if WAR_BOARD.match(code)]
    assert slots
    for code in slots:
        text = table[code]["text"]
        assert "you spent it cancelling" in text, (code, text)
        assert "was cancelled" in text and "none was played" in text, (code, text)
        assert "cannot be cancelled" in text, (code, text)


def test_the_grey_temple_counts_only_houses_with_an_active_model() -> None:
    """ "the lowest combat strength (but with at least an active model in it)" — CA-W9: a power of at
    least 1; a house whose pieces are all out (a candle at 0 flames) does not win there."""
    text = _words(4)["temple:G"]["text"]
    assert "still has a model" not in text
    assert "power of at least 1" in text
    assert "first in turn order" in text  # nobody active: the first in turn order (CA-W9)


@pytest.mark.parametrize("colour", ["W", "G", "B"])
def test_a_temple_acts_only_while_it_is_on_top(colour: str) -> None:
    """ "Only the upmost temple provides its effects." """
    assert "Only the top Temple" in _words(4)[f"temple:{colour}"]["text"]


@pytest.mark.parametrize("players", [2, 4])
def test_a_portal_move_is_neither_deployment_nor_movement(players: int) -> None:
    """ "This movement is not considered deployment or movement, and therefore does not allow you to
    place a Land Flame or perform the Actions relating to the territory" (CA-34)."""
    text = _words(players)["icon:portal"]["text"]
    assert "neither a deployment nor a move" in text
    assert "no Land Flame" in text and "no territory action" in text


def _rewards(text: str) -> list[int]:
    """The VP amounts a mission's reward sentence (its last) names, in order."""
    reward = text.rstrip(".").rsplit(". ", 1)[-1]
    amounts = re.findall(r"((?:\d+(?:, | or | and ))*\d+) VP", reward)
    return [int(n) for group in amounts for n in re.findall(r"\d+", group)]


def _paid(players: int, code: str) -> list[int]:
    """What the engine pays for a mission card in a game of ``players``: a Yearly card each year (its
    Mist run first), a Ranking card each completion until full."""
    state = with_missions(players, [code])
    event = MISSIONS[missions.CODES[code]][2]
    if code.startswith("Y"):
        for year in (1, 2, 3):
            state.year = year
            missions.mist(state)
            missions.note(state, 0, event)
    else:
        for _ in range(3):
            missions.note(state, 0, event)
    return [e[4] for e in vp_events(state)]


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("code", [m[0] for m in MISSIONS])
def test_a_mission_promises_the_vp_the_table_pays(players: int, code: str) -> None:
    """With two players each Ranking card's second place and every Yearly card in Year 1 are blocked:
    the two-player words promise no 8 VP second place and no Year 1 mission."""
    text = _words(players, missions=True)[code]["text"]
    if players == 2 and code in NO_CURSE:
        assert _rewards(text) == [], text
        return
    assert _rewards(text) == _paid(players, code), text
    if players == 2 and code.startswith("Y"):
        assert "Year 1" in text
    if players == 2 and code.startswith("K"):
        assert "second place is blocked" in text


@pytest.mark.parametrize("code", sorted(NO_CURSE))
def test_two_player_words_say_a_curse_mission_cannot_be_done(code: str) -> None:
    """No curse is controlled with two players (CA-2P3, CA-M3): these cards can never be completed."""
    assert "cannot be completed" in _words(2, missions=True)[code]["text"]
    assert "cannot be completed" not in _words(4, missions=True)[code]["text"]


def test_burning_your_own_candle_out_is_no_snuffed_candle() -> None:
    """ "Extinguish all the flames of a Candle": an Extinguish or a castle's entry, which only take
    enemy flames (CA-M3); burning your own candle's last flame for the extra move (CA-24) is not it."""
    state = with_missions(4, ["Y6", "K5", "K6"])
    state = craft(state, lambda snap: put_candle(snap, 0, "P", "8a", 1, "A05"))
    hand = state.view(0)["seats"][0]["hand"]
    state.apply(0, f"maneuver {hand[0]}")
    state.apply(0, "move P 8c")
    state.apply(0, "extra P 1a")
    assert state.view(0)["seats"][0]["candles"]["pilgrim"]["flames"] == 0
    assert not vp_events(state)
    for code in ("Y6", "K5", "K6"):
        assert "an enemy candle" in _words(4, missions=True)[code]["text"], code


@pytest.mark.parametrize(("forges", "count"), [(2, 2), (0, 0)])
def test_rota_aurea_buys_once_per_forge_it_holds_when_it_maneuvers(forges: int, count: int) -> None:
    """CA-28: the Year I power is a Forge action, its count the Forge territories held (possibly 0)."""
    state = game(4)

    def change(snap: dict[str, Any]) -> None:
        if forges == 2:
            move_land_flame(snap, 1, None, "5b")
        else:
            move_land_flame(snap, 1, "2c", None)

    state = to_turn(craft(state, change), 1)
    state.apply(1, "maneuver R1")
    pending = state.view(1)["pending"]
    assert (pending.get("count", 0) if pending["decision"] == "forge" else 0) == count
    text = _words(4)["power:R1"]["text"]
    assert "for each Forge territory you hold" in text
    assert "none" in text


def test_the_double_vp_curse_acts_at_the_battle_not_on_arrival() -> None:
    text = _words(4)["curse:9"]["text"]
    assert "on arrival" not in text
    assert "wins the battle" in text and "double" in text


def test_the_houses_given_set_the_player_count_and_the_board_side() -> None:
    """Three houses make a 3-player game: the small side, whose curses are those of regions 1-8."""
    table = candlebox.components("candelabria", houses=["C", "R", "S"])
    assert table == candlebox.components("candelabria", players=3, houses=["C", "R", "S"])
    assert "curse:9" not in table and "curse:10" not in table and "9a" not in table
    four = candlebox.components("candelabria", houses=["C", "R", "S", "L"])
    assert "curse:10" in four and "house:L" in four


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"houses": ["C", "R", "Q"]}, "option 'houses': 'Q' is not a house"),
        ({"houses": ["C", "R", "L"]}, "Luminis Knights starts in region 9"),
        ({"houses": ["C", "R", "S"], "players": 4}, r"one house per seat \(4\), got 3"),
        ({"houses": ["C", "C", "S"]}, "each house can be played by one seat only"),
        ({"houses": ["C", "R"]}, "2"),
    ],
)
def test_houses_that_no_table_seats_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        candlebox.components("candelabria", **options)


def test_how_to_play_says_what_temples_missions_and_slots_do() -> None:
    """The how-to-play page beside the rulebook: the Grey Temple lets the lowest power win (it added
    power), Ranking missions pay at once as completed (not "at the end"), and a card spent cancelling
    uncovers its War Board slot."""
    text = " ".join((CONTENT / "how_to_play.md").read_text().split())
    assert "Grey Temple adds combat power" not in text
    assert "under a Grey Temple the lowest combat power wins" in text
    assert "reward the best players at the end" not in text
    assert "pay 12, 8 and 4 VP at once to the first three completions" in text
    assert "second place is blocked" in text
    assert "cancelled or spent cancelling" in text


@pytest.mark.parametrize("code", ["D9", "D10"])
def test_a_stolen_vp_comes_from_the_richest_opponent_in_the_battle(code: str) -> None:
    """CA-D3: not "an opponent" of the stealer's choosing (the engine chooses none)."""
    assert "the opponent in this battle with the most VP" in _words(4, decay=True)[code]["text"]


def test_the_mine_says_the_warehouse_caps_it() -> None:
    """ "Any resources that you cannot place are discarded" (CA-31: the warehouse holds 10)."""
    assert "warehouse of 10" in _words(4)["icon:mine"]["text"]


def test_the_learn_words_on_a_decay_card_say_what_it_does_and_how_the_bot_picks() -> None:
    """A Decay card swaps a slot's effect for an enhanced one (the rulebook's word); the learn text
    said the bot puts it "where it hurts least", as if it harmed, while the heuristic has no rule
    for the slot and picks one by chance."""
    why = json.loads((CONTENT / "learn.json").read_text())
    found = [v["decay-place"] for v in why.values() if isinstance(v, dict) and "decay-place" in v]
    assert found
    for said in found:
        assert "hurt" not in said and "stronger" in said and "chance" in said, said
