"""Every worked example of the rulebook, replayed from a fixed deck through the public API."""

from __future__ import annotations

import pytest

from tests.sixteen_candies.helpers import events, game, me, orient_all, play, pools, turn


def test_example_1_the_caller_has_the_highest_hand() -> None:
    """'Player 1 has 13 Gummy Bears. Player 2 has 9 Pieces of Chocolate. Player 3 has 8 Candy Corn.'
    Player 1 adds two candies; Player 2, in the middle, nothing; Player 3, lowest, pays the penalty
    shown on their cards: 4."""
    state = game(
        [
            ["G6-H1", "G4-C3", "K6-G1"],  # Player 1 (seat 0)
            ["C6-G1", "H5-K2", "G5-C2"],  # Player 2
            ["K5-G2", "H6-C1", "C5-H2"],  # Player 3
        ],
        flip="C5-K2",
        pile=["C4-G3", "K4-C3", "G4-K3"],
    )
    orient_all(state, "G6 G4 K6", "G5 C6 H5", "C5 K5 H6")
    turn(state, 0, "draw pile", "K6-G1", "G6 G4 G3", call=True)
    assert events(state, "call") == [{"event": "call", "seat": 0}]
    assert state.to_act == (1,), "Player 2 and Player 3 had 1 more turn"
    turn(state, 1, "draw pile", "G5-C2", "C6 C3 H5")
    assert state.legal_actions(1) == [], "no call step in a final turn"
    turn(state, 2, "draw pile", "C5-H2", "K3 K5 H6")
    reveals = {e["seat"]: e for e in events(state, "reveal")}
    assert (reveals[0]["value"], reveals[0]["candy"]) == (13, "G")
    assert (reveals[1]["value"], reveals[1]["candy"]) == (9, "C")
    assert (reveals[2]["value"], reveals[2]["candy"]) == (8, "K")
    assert reveals[2]["penalty"] == 4
    scores = {e["seat"]: (e["role"], e["rank"], e["due"]) for e in events(state, "score")}
    assert scores == {
        0: ("caller", "highest", 2),
        1: ("other", "middle", 0),
        2: ("other", "lowest", -4),
    }
    assert pools(state) == [18, 16, 12]
    assert state.view(None)["round"] == 2, "a new round is dealt"


def test_example_2_the_caller_is_tied_for_lowest() -> None:
    """'Player 1 has 9 Pieces of Chocolate. Player 2 has 13 Gummy Bears. Player 3 has 9 Heart
    Candies.' Player 1, who called and is tied for lowest, alone pays 4 + 1 = 5; Player 2 did not
    call, so nothing; Player 3 is tied with the caller, so nothing."""
    state = game(
        [
            ["C5-G2", "G6-H1", "H5-K2"],
            ["G6-K1", "G4-H3", "C6-K1"],
            ["H6-C1", "K5-C2", "G5-H2"],
        ],
        flip="H4-G3",
        pile=["K6-H1", "K4-G3", "K4-H3", "C4-K3", "G5-C2"],
    )
    orient_all(state, "G6 C5 H5", "G6 G4 C6", "G5 K5 H6")
    turn(state, 0, "draw pile", "K6-H1", "G6 C5 H5")
    turn(state, 1, "draw pile", "C6-K1", "G6 G4 G3")  # 13 Gummy Bears, but no call
    turn(state, 2, "draw pile", "G5-H2", "K5 K4 H6")
    turn(state, 0, "draw pile", "H5-K2", "G6 C5 C4", call=True)
    assert me(state, 0)["value"] == 9 and me(state, 0)["penalty"] == 4
    # Player 2 takes Player 1's discard and puts it straight back; Player 3 draws and discards.
    play(state, (1, "draw discard"))
    assert state.view(2)["seats"][1]["known"] == ["H5-K2"], "a card taken from the pile is public"
    play(state, (1, "discard H5-K2"), (1, "top G6 G4 G3"))
    turn(state, 2, "draw pile", "G5-C2", "K5 H3 H6")
    reveals = {e["seat"]: (e["value"], e["candy"]) for e in events(state, "reveal")}
    assert reveals == {0: (9, "C"), 1: (13, "G"), 2: (9, "H")}
    scores = {e["seat"]: (e["role"], e["rank"], e["due"]) for e in events(state, "score")}
    assert scores == {
        0: ("caller", "lowest", -5),
        1: ("other", "highest", 0),
        2: ("other", "lowest", 0),
    }
    assert pools(state) == [11, 16, 16]


def test_the_pictured_penalty_of_six() -> None:
    """'In this example, if the Player loses they would have to discard or eat 6 Candies.'"""
    state = game(
        [["K4-G3", "H4-C3", "C4-H3"], ["G6-K1", "G5-K2", "C6-G1"]],
        flip="C5-K2",
        pile=["H5-G2", "H6-G1"],
    )
    orient_all(state, "C4 K4 H4", "G6 G5 C6")
    assert me(state, 0)["penalty"] == 6 and me(state, 0)["value"] == 4
    turn(state, 0, "draw pile", "H5-G2", "C4 K4 H4", call=True)
    turn(state, 1, "draw pile", "H6-G1", "G6 G5 C6")
    scores = {e["seat"]: e["due"] for e in events(state, "score")}
    assert scores == {0: -(6 + 1), 1: 0}, "the caller with the lowest hand pays 6 + 1"


def test_the_instant_round_win_example() -> None:
    """'three Cards of the same Candy type, with 4, 5, and 6 Candies on the Cards': revealed at once,
    the round is won, and the opponents reveal without rotating."""
    state = game(
        [["G6-C1", "G5-K2", "C4-K3"], ["K6-H1", "H6-K1", "C5-H2"]],
        flip="C5-K2",
        pile=["G4-H3"],
    )
    orient_all(state, "G6 G5 C4", "H2 K6 K1")  # seat 1 leaves its hand badly turned
    turn(state, 0, "draw pile", "C4-K3", "G6 G5 G4")
    assert [e["seat"] for e in events(state, "instant-win")] == [0]
    reveals = {e["seat"]: e["tops"] for e in events(state, "reveal")}
    assert reveals[1] == ["H2", "K6", "K1"], "the opponent may not rotate before revealing"
    scores = {e["seat"]: (e["role"], e["due"]) for e in events(state, "score")}
    assert scores == {0: ("instant", 2), 1: ("other", -(1 + 3 + 3))}


@pytest.mark.parametrize(("gain", "due"), [("two", 2), ("none", 0)])
def test_the_instant_round_win_gains_two_or_only_wins_the_round(gain: str, due: int) -> None:
    """SC-11, option instant_gain: 'they win the round' read as +2 (default) or as nothing gained."""
    state = game(
        [["G6-C1", "G5-K2", "C4-K3"], ["K6-H1", "H6-K1", "C5-H2"]],
        flip="C5-K2",
        pile=["G4-H3"],
        instant_gain=gain,
    )
    orient_all(state, "G6 G5 C4", "H2 K6 K1")
    turn(state, 0, "draw pile", "C4-K3", "G6 G5 G4")
    scores = {e["seat"]: (e["role"], e["due"], e["pool"]) for e in events(state, "score")}
    assert scores == {0: ("instant", due, 16 + due), 1: ("other", -7, 16 - 7)}
