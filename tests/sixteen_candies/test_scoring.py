"""The scoring tables (every row), the hand's value, the Wild, and the Instant Round Win."""

from __future__ import annotations

import pytest

from candlebox.games.sixteen_candies.cards import PRINTED, TYPE_OF
from candlebox.games.sixteen_candies.instant_win import shows_four_five_six
from candlebox.games.sixteen_candies.scoring import apply_change, round_changes
from candlebox.games.sixteen_candies.wild import hand_penalty, hand_value
from tests.sixteen_candies.helpers import events, game, me, orient_all, play, pools, turn


def changes(
    values: list[int], pens: list[int], caller: int = -1, instant: tuple[int, ...] = (), **kw
) -> dict[int, tuple[str, str, int]]:
    seats = range(len(values))
    return round_changes(
        seats, dict(enumerate(values)), dict(enumerate(pens)), caller, instant, **kw
    )


def dues(result: dict[int, tuple[str, str, int]]) -> list[int]:
    return [result[seat][2] for seat in sorted(result)]


# ----------------------------------------------------------------------------- "When a Player Calls"
def test_caller_highest_adds_two() -> None:
    assert changes([13, 9, 8], [5, 4, 4], caller=0) == {
        0: ("caller", "highest", 2),
        1: ("other", "middle", 0),
        2: ("other", "lowest", -4),
    }


def test_caller_highest_including_ties() -> None:
    result = changes([12, 12, 7], [5, 5, 6], caller=1)
    assert result[1] == ("caller", "highest", 2)
    assert result[0] == ("other", "highest", 0), "a non-caller at the top: nothing"
    assert result[2] == ("other", "lowest", -6)


def test_caller_middle_loses_one_including_ties() -> None:
    assert dues(changes([10, 14, 7], [4, 4, 6], caller=0)) == [-1, 0, -6]
    result = changes([10, 14, 10, 7], [4, 4, 5, 6], caller=2)
    assert result[2] == ("caller", "middle", -1)
    assert result[0] == ("other", "middle", 0)
    assert result[3] == ("other", "lowest", -6)


def test_caller_lowest_pays_penalty_plus_one() -> None:
    assert changes([6, 9, 12], [7, 4, 3], caller=0) == {
        0: ("caller", "lowest", -8),
        1: ("other", "middle", 0),
        2: ("other", "highest", 0),
    }


def test_caller_tied_for_lowest_pays_alone() -> None:
    assert dues(changes([9, 13, 9], [4, 5, 6], caller=0)) == [-5, 0, 0]
    assert dues(changes([9, 9, 9, 13], [4, 5, 6, 3], caller=2)) == [0, 0, -7, 0]


# ----------------------------------------------------------------------------- "Didn't Call"
def test_non_callers_highest_or_middle_nothing_lowest_pays_ties_included() -> None:
    assert dues(changes([14, 10, 7, 7], [3, 4, 6, 5], caller=0)) == [2, 0, -6, -5]
    assert dues(changes([7, 14, 10, 7], [6, 3, 4, 5], caller=2)) == [-6, 0, -1, -5]


def test_all_hands_equal_the_caller_pays_by_default_or_wins_by_option() -> None:
    assert dues(changes([9, 9, 9], [4, 5, 6], caller=1)) == [0, -6, 0]
    assert changes([9, 9], [4, 5], caller=0)[0] == ("caller", "all-tied", -5)
    wins = changes([9, 9, 9], [4, 5, 6], caller=1, all_tied="caller-wins")
    assert dues(wins) == [0, 2, 0]


def test_two_players() -> None:
    assert dues(changes([12, 8], [4, 6], caller=0)) == [2, -6]
    assert dues(changes([8, 12], [6, 4], caller=0)) == [-7, 0]


# ----------------------------------------------------------------------------- Instant Round Win
def test_instant_winner_adds_two_and_the_lowest_of_the_rest_pay() -> None:
    assert changes([15, 9, 6], [4, 4, 7], instant=(0,)) == {
        0: ("instant", "highest", 2),
        1: ("other", "middle", 0),
        2: ("other", "lowest", -7),
    }
    assert dues(changes([15, 16], [4, 3], instant=(0,))) == [2, -3], "ranked highest regardless"
    assert dues(changes([15, 8, 8], [4, 6, 5], instant=(0,))) == [2, -6, -5]


def test_instant_win_in_a_final_turn_keeps_the_call() -> None:
    assert dues(changes([12, 15, 8], [4, 4, 6], caller=0, instant=(1,))) == [-1, 2, -6]
    assert dues(changes([8, 15, 12], [6, 4, 4], caller=0, instant=(1,))) == [-7, 2, 0]


def test_several_instant_winners() -> None:
    assert dues(changes([15, 15, 7], [4, 4, 6], instant=(0, 1))) == [2, 2, -6]
    assert dues(changes([15, 15], [4, 4], instant=(0, 1))) == [2, 2]


def test_pools_never_go_below_zero_and_the_cap_holds_gains() -> None:
    assert apply_change(3, -8, None) == 0, "a penalty larger than the pool empties it"
    assert apply_change(16, 2, None) == 18, "no cap by default"
    assert apply_change(16, 2, 16) == 16 and apply_change(15, 2, 16) == 16
    assert apply_change(10, -1, 16) == 9


# ----------------------------------------------------------------------------- hand value, Wild
def halves(*tops: str) -> list[int]:
    """Half numbers from 'card:top' pairs, e.g. 'G6-K1:K1'."""
    out = []
    for top in tops:
        card, _, face = top.partition(":")
        t = TYPE_OF[card]
        out.append(2 * t + (0 if card.split("-")[0] == face or card == "W" else 1))
    return out


def test_only_the_top_half_counts() -> None:
    assert hand_value(PRINTED, halves("G6-K1:G6", "G5-K2:G5", "C4-K3:K3")) == (11, 0)
    assert hand_value(PRINTED, halves("G6-K1:K1", "G5-K2:K2", "C4-K3:K3")) == (6, 2)
    assert hand_penalty(PRINTED, halves("G6-K1:K1", "G5-K2:K2", "C4-K3:K3")) == 3 + 3 + 2


def test_the_wild_adds_three_of_the_best_candy_and_costs_two() -> None:
    assert hand_value(PRINTED, halves("W", "G6-K1:G6", "H5-G2:H5")) == (9, 0)
    assert hand_value(PRINTED, halves("W", "C6-K1:C6", "C5-H2:C5")) == (14, 1)
    assert hand_value(PRINTED, halves("W", "W", "W")) == (9, 0)
    assert hand_penalty(PRINTED, halves("W", "C6-K1:C6", "C5-H2:C5")) == 2 + 1 + 1


def test_instant_win_is_4_5_6_of_one_candy_on_top_and_no_wild() -> None:
    assert shows_four_five_six(PRINTED, halves("G6-K1:G6", "G5-K2:G5", "G4-H3:G4"))
    assert shows_four_five_six(PRINTED, halves("H6-C1:H6", "K4-H3:H3", "C5-H2:C5")) is False
    assert not shows_four_five_six(PRINTED, halves("G6-K1:G6", "G5-K2:G5", "W"))
    assert not shows_four_five_six(PRINTED, halves("G6-K1:G6", "G6-H1:G6", "G5-K2:G5"))


# ----------------------------------------------------------------------------- through the game
WIN = ["G6-K1", "G5-K2", "C6-H1"]


def test_a_hand_holding_4_5_6_but_not_showing_it_does_not_win_by_default() -> None:
    state = game([WIN, ["K6-C1", "H6-G1", "C4-K3"]], pile=["G4-H3"])
    orient_all(state, "G6 G5 C6", "C4 K6 H6")
    play(state, (0, "draw pile"), (0, "discard C6-H1"), (0, "top G6 G5 H3"))
    assert not events(state, "instant-win") and state.legal_actions(0) == ["call", "end"]
    assert me(state, 0)["value"] == 11


def test_option_instant_win_held_turns_the_cards_up_after_the_discard() -> None:
    state = game([WIN, ["K6-C1", "H6-G1", "C4-K3"]], pile=["G4-H3"], instant_win="held")
    orient_all(state, "K1 K2 C6", "C4 K6 H6")
    play(state, (0, "draw pile"), (0, "discard C6-H1"))
    assert [e["seat"] for e in events(state, "instant-win")] == [0]
    reveal = next(e for e in events(state, "reveal") if e["seat"] == 0)
    assert reveal["tops"] == ["G6", "G5", "G4"] and reveal["value"] == 15


def test_instant_win_at_the_pick_up_and_two_players_at_once() -> None:
    state = game(
        [[*WIN[:2], "G4-H3"], ["C6-K1", "C5-K2", "C4-K3"], ["K6-C1", "H6-G1", "H4-C3"]],
        pile=["G4-C3"],
    )
    orient_all(state, "G6 G5 G4", "C6 C5 C4", "C1 H6 H4")
    assert [e["seat"] for e in events(state, "instant-win")] == [0, 1]
    assert pools(state) == [18, 18, 16 - (3 + 1 + 2)]
    assert state.view(None)["turn"] == 1, "counts as a turn for max_turns"
    assert state.view(None)["round"] == 2


def test_instant_win_during_a_final_turn() -> None:
    state = game(
        [["K6-C1", "H6-G1", "C4-K3"], WIN, ["H5-K2", "C5-G2", "K5-G2"]],
        pile=["H4-C3", "G4-H3"],
    )
    orient_all(state, "C4 K6 H6", "G6 G5 C6", "C5 K5 H5")
    turn(state, 0, "draw pile", "H4-C3", "C4 K6 H6", call=True)  # 6 Heart Candies
    turn(state, 1, "draw pile", "C6-H1", "G6 G5 G4")
    assert [e["seat"] for e in events(state, "instant-win")] == [1]
    assert state.view(None)["round"] == 2, "seat 2's final turn is not played"
    scores = {e["seat"]: (e["role"], e["rank"], e["due"]) for e in events(state, "score")}
    assert scores[1] == ("instant", "highest", 2)
    assert scores[0] == ("caller", "middle", -1), "the call still stands"
    assert scores[2] == ("other", "lowest", -(1 + 1 + 1))


def test_a_penalty_larger_than_the_pool_empties_it() -> None:
    state = game([["K6-C1", "H6-G1", "C4-K3"], ["G6-K1", "G5-K2", "C6-H1"]], pool=3)
    orient_all(state, "C4 K6 H6", "G6 G5 C6")
    play(state, (0, "draw pile"))
    play(state, (0, state.legal_actions(0)[-1]), (0, "top C4 K6 H6"), (0, "call"))
    play(state, (1, "draw pile"))
    play(state, (1, state.legal_actions(1)[-1]), (1, "top G6 G5 C6"))
    score = next(e for e in events(state, "score") if e["seat"] == 0)
    assert score["due"] == -(2 + 1 + 1 + 1) and score["pool"] == 0
    assert state.is_over and state.winners == (1,) and state.scores == (0.0, 3.0)
    assert me(state, 0)["out"] is True


@pytest.mark.parametrize("cap", [False, True])
def test_option_pool_cap(cap: bool) -> None:
    state = game([["G6-K1", "G5-K2", "C6-H1"], ["K6-C1", "H6-G1", "C4-K3"]], pool_cap=cap)
    orient_all(state, "G6 G5 C6", "C4 K6 H6")
    play(state, (0, "draw pile"))
    play(state, (0, state.legal_actions(0)[-1]), (0, "top G6 G5 C6"), (0, "call"))
    play(state, (1, "draw pile"))
    play(state, (1, state.legal_actions(1)[-1]), (1, "top C4 K6 H6"))
    assert pools(state)[0] == (16 if cap else 18)
