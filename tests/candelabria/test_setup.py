"""3-5 Player Mode Setup, rule by rule, and the scenario options that fix chance."""

from __future__ import annotations

from collections import Counter

import pytest

from candlebox.games import candelabria
from tests.candelabria.helpers import game, me


@pytest.mark.parametrize(
    ("players", "side", "regions"), [(3, "small", 8), (4, "large", 10), (5, "large", 10)]
)
def test_the_board_side_follows_the_player_count(players: int, side: str, regions: int) -> None:
    view = game(players).view(None)
    assert view["side"] == side
    assert [r["region"] for r in view["regions"]] == list(range(1, regions + 1))
    assert len(view["territories"]) == 3 * regions


def test_tactics_board_of_six_and_the_deck() -> None:
    view = game(4).view(None)
    assert len(view["tactics_board"]) == 6
    assert view["tactics_deck"] == 75 - 6
    assert all("-" not in code for code in view["tactics_board"]), "only common cards"


@pytest.mark.parametrize(("pile", "boxed"), [(3, 9), (4, 0)])
def test_upgrade_board_of_nine_piles(pile: int, boxed: int) -> None:
    state = game(4, upgrade_pile=pile)
    assert [p["size"] for p in state.view(None)["upgrade_piles"]] == [pile] * 9
    assert len(state.to_json()["state"]["upgrade_box"]) == boxed


def test_the_curse_deck_is_built_as_printed_for_four_players() -> None:
    state = game(4)
    deck = state.to_json()["state"]["curse_deck"]  # after the Mist: the first pile is drawn
    curses = {str(r) for r in (1, 2, 3, 4, 5, 7, 8, 9, 10)}
    kinds = ["curse" if code in curses else code[1] for code in deck]
    assert kinds == ["4"] * 4 + ["curse"] * 3 + ["5"] * 4 + ["curse"] * 3
    assert {code[0] for code in deck if code not in curses} == {"C", "R", "S", "N"}
    assert len(state.view(None)["curses"]) == 3


def test_three_players_remove_the_curses_of_regions_9_and_10_and_pile_3_2_2() -> None:
    state = game(3)
    snap = state.to_json()["state"]
    assert sorted(snap["curses_out"]) == ["10", "9"]
    deck = snap["curse_deck"]
    curses = {str(r) for r in (1, 2, 3, 4, 5, 7, 8)}
    kinds = ["curse" if code in curses else code[1] for code in deck]
    assert kinds == ["4"] * 3 + ["curse"] * 2 + ["5"] * 3 + ["curse"] * 2
    assert len(state.view(None)["curses"]) == 3, "the pile of 3 is on top"


def test_the_advanced_deck_and_house_candles_of_absent_houses() -> None:
    state = game(4)
    assert state.view(None)["advanced_deck"] == 50
    boxed = state.to_json()["state"]["boxed_candles"]
    assert sorted(boxed) == ["L1", "L2", "L3", "L4", "L5"], "Luminis does not play"


def test_each_house_takes_its_pieces_and_supply() -> None:
    state = game(5)
    view = state.view(None)
    for seat, info in enumerate(view["seats"]):
        house = info["house"]
        assert (info["gold"], info["wax"]) == (2, 2)
        assert info["candle_flames"] == 12
        assert info["known_hand"] == [f"{house}1", f"{house}2", f"{house}3"]
        assert len(info["tactics"]) == 3 and all(t.startswith(f"{house}-") for t in info["tactics"])
        assert info["land_flames"] + len(info["territories"]) + 1 == 25, "one marks the turn order"
        assert info["upgrades"] == [] and info["vp"] == 0
        assert me(state, seat)["hand"] == info["known_hand"]
    assert view["reserve"] == {"gold": 40, "wax": 40}


def test_start_positions_follow_the_house_table() -> None:
    view = game(5).view(None)
    by_house = {s["house"]: s for s in view["seats"]}
    icons = {t["territory"]: t["icon"] for t in view["territories"]}
    assert by_house["C"]["castle"][0] == "8" and icons[by_house["C"]["castle"]] == "forge"
    assert by_house["R"]["castle"][0] == "2" and icons[by_house["R"]["castle"]] == "curse"
    assert by_house["S"]["castle"][0] == "3" and icons[by_house["S"]["castle"]] == "curse"
    assert by_house["N"]["castle"][0] == "4" and icons[by_house["N"]["castle"]] == "inn"
    assert by_house["L"]["castle"][0] == "9" and icons[by_house["L"]["castle"]] == "inn"
    for house, region in (("C", "8"), ("R", "2"), ("S", "3")):
        assert by_house[house]["territories"] == [f"{region}a", f"{region}b", f"{region}c"]
    assert [icons[t] for t in by_house["N"]["territories"]] == ["mine", "inn"], (
        "no flame on the Portal"
    )
    assert [icons[t] for t in by_house["L"]["territories"]] == ["mine", "inn"]
    temples = {r["region"]: r["temples"] for r in view["regions"] if r["temples"]}
    assert temples == {4: ["white"], 9: ["black"]}
    assert view["temples_left"] == {"white": 5, "grey": 6, "black": 5}


def test_temples_only_for_houses_in_play() -> None:
    view = game(4, houses=["C", "R", "S", "L"]).view(None)
    assert {r["region"]: r["temples"] for r in view["regions"] if r["temples"]} == {9: ["black"]}
    view = game(3, houses=["C", "R", "S"]).view(None)
    assert not any(r["temples"] for r in view["regions"])


def test_turn_order_is_the_house_numbers_compacted() -> None:
    state = game(4, houses=["N", "S", "L", "C"])
    assert state.view(None)["order"] == [3, 1, 0, 2]  # Cinis 2, Satores 4, Nova Vita 5, Luminis 6
    assert state.to_act == (3,)


def test_three_players_never_seat_luminis() -> None:
    for seed in range(30):
        houses = {
            s["house"] for s in candelabria.new_game(players=3, seed=seed).view(None)["seats"]
        }
        assert "L" not in houses and len(houses) == 3
    with pytest.raises(ValueError, match="region 9, which is not on the 8-region side"):
        game(3, houses=["C", "R", "L"])


def test_houses_are_dealt_at_random_without_the_option() -> None:
    seen = Counter(
        tuple(s["house"] for s in candelabria.new_game(players=4, seed=seed).view(None)["seats"])
        for seed in range(40)
    )
    assert len(seen) > 10
    assert all(len(set(k)) == 4 for k in seen)


def test_first_player_gets_the_first_house() -> None:
    for seed in range(10):
        state = candelabria.new_game(players=4, seed=seed, first_player=2)
        assert state.view(None)["order"][0] == 2 and state.to_act == (2,)
    with pytest.raises(ValueError, match="with these houses seat 0"):
        game(4, first_player=1)
    with pytest.raises(ValueError, match="seat 4 is not in a 4-player game"):
        game(4, first_player=4)


@pytest.mark.parametrize(
    ("houses", "message"),
    [
        (["C", "R"], "one house per seat"),
        (["C", "R", "S", "X"], "'X' is not a house"),
        (["C", "C", "S", "N"], "one seat only"),
    ],
)
def test_bad_houses_are_refused(houses: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        game(4, houses=houses)


def test_houses_by_name() -> None:
    state = game(4, houses=["cinis", "Rota Aurea Guild", "Satores Order", "nova"])
    assert [s["house"] for s in state.view(None)["seats"]] == ["C", "R", "S", "N"]


def test_decks_fix_every_deck_top_first() -> None:
    state = game(
        4,
        decks={
            "curse": ["5", "1", "7", "2"],
            "tactics": ["3X", "1I2S!", "2I1X", "1I1X", "1I1X", "2V", "3V!"],
            "advanced": ["A17", "A03"],
            "upgrades": ["1-vp", "2-mine", "3-vp", "1-castle"],
        },
    )
    view = state.view(None)
    assert [c["curse"] for c in view["curses"]] == ["5", "1", "7"]
    assert view["tactics_board"] == ["3X", "1I2S!", "2I1X", "1I1X", "1I1X", "2V"]
    snap = state.to_json()["state"]
    assert snap["tactics_deck"][0] == "3V!"
    assert snap["advanced_deck"][:2] == ["A17", "A03"]
    assert snap["upgrade_piles"][0] == ["1-vp", "2-mine", "3-vp"]
    assert snap["upgrade_piles"][1][0] == "1-castle"
    curse_deck = snap["curse_deck"]
    assert curse_deck[4] == "2", "the fourth curse heads the second pile"


@pytest.mark.parametrize(
    ("decks", "message"),
    [
        ({"curse": ["6"]}, "'6' is not a card of that deck"),
        ({"curse": ["5", "5"]}, "5×1 too many"),
        ({"tactics": ["C-1X1V"]}, "'C-1X1V' is not a card of that deck"),
        ({"advanced": ["C1"]}, "'C1' is not a card of that deck"),
        ({"upgrades": ["9-wings"]}, "not a card of that deck"),
        ({"hand": ["A01"]}, "no deck 'hand'"),
        ({"curse": "5 3"}, "a list of card codes"),
    ],
)
def test_bad_decks_are_refused(decks: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        game(4, decks=decks)


def test_three_player_curse_deck_option_knows_9_and_10_are_out() -> None:
    with pytest.raises(ValueError, match="'9' is not a card of that deck"):
        game(3, decks={"curse": ["9"]})


def test_the_same_seed_sets_up_the_same_game() -> None:
    one = candelabria.new_game(players=5, seed=11)
    two = candelabria.new_game(players=5, seed=11)
    assert one.to_json() == two.to_json()
    assert one.to_json() != candelabria.new_game(players=5, seed=12).to_json()


@pytest.mark.parametrize(("players", "message"), [(1, "not 1"), (6, "not 6")])
def test_player_counts(players: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        candelabria.new_game(players=players)
    with pytest.raises(ValueError, match="3–5 players, not 2"):
        candelabria.new_game(players=2, variant="standard")


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="unknown option 'colour'"):
        candelabria.new_game(players=4, colour="red")
    with pytest.raises(ValueError, match="max_turns"):
        candelabria.new_game(players=4, max_turns=0)
    with pytest.raises(ValueError, match="warrior_push"):
        candelabria.new_game(players=4, warrior_push="sometimes")
    with pytest.raises(ValueError, match="no variant"):
        candelabria.new_game(players=4, variant="solo")
    with pytest.raises(ValueError, match="2–2 players, not 4"):
        candelabria.new_game(players=4, variant="two-player")


def test_options_parse_from_the_command_line() -> None:
    option = next(o for o in candelabria.VARIANTS[0].options if o.name == "decks")
    assert option.parse("curse=5,3;advanced=A01 A02") == {
        "curse": ["5", "3"],
        "advanced": ["A01", "A02"],
    }
    assert option.parse("none") is None
    with pytest.raises(ValueError, match="NAME=CODES"):
        option.parse("curse 5")
    content = next(o for o in candelabria.VARIANTS[0].options if o.name == "content")
    assert content.parse("/some/folder") == "/some/folder"
