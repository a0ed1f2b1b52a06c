"""New rounds, the First Player Marker, players who are out, and every end of the game."""

from __future__ import annotations

import candlebox
from tests.sixteen_candies.helpers import events, game, me, orient_all, play, pools

STRONG = ["G6-K1", "G5-K2", "C6-H1"]  # G6 G5 C6: 11 Gummy Bears
WEAK = ["K6-C1", "H6-G1", "C4-K3"]  # C4 K6 H6: 6, penalty 4
MIDDLE = ["C6-G1", "K4-C3", "H5-K2"]  # C6 C3 H5: 9 Chocolate
WEAK2 = ["H6-K1", "K5-H2", "C5-K2"]  # C5 K5 H6: 6, penalty 3


def quick_turn(state: candlebox.State, seat: int, top: str, call: bool = False) -> None:
    """Draw from the pile, discard what was drawn, show ``top``; then call or end if asked."""
    play(state, (seat, "draw pile"))
    play(state, (seat, state.legal_actions(seat)[-1]), (seat, f"top {top}"))
    if state.legal_actions(seat) == ["call", "end"]:
        state.apply(seat, "call" if call else "end")


def test_a_new_round_shuffles_everything_deals_three_and_moves_the_marker() -> None:
    state = game([STRONG, WEAK, MIDDLE])
    orient_all(state, "G6 G5 C6", "C4 K6 H6", "C6 C3 H5")
    quick_turn(state, 0, "G6 G5 C6", call=True)
    quick_turn(state, 1, "C4 K6 H6")
    quick_turn(state, 2, "C6 C3 H5")
    assert pools(state) == [18, 12, 16]
    view = state.view(None)
    assert view["round"] == 2 and view["marker"] == 1, "the marker moves clockwise"
    assert [p["cards"] for p in view["seats"]] == [3, 3, 3]
    assert view["draw_pile"] == 40 - 9 - 1 and len(view["discard_pile"]) == 1
    assert state.to_act == (1,) and state.pending()["decision"] == "orient"
    assert view["caller"] is None and view["final_turns"] == []
    assert events(state, "round")[-1] == {"event": "round", "round": 2, "marker": 1,
                                          "seats": [1, 2, 0]}  # fmt: skip


def test_an_emptied_player_is_out_and_the_marker_skips_them() -> None:
    state = game([STRONG, WEAK, MIDDLE], pool=4)
    orient_all(state, "G6 G5 C6", "C4 K6 H6", "C6 C3 H5")
    quick_turn(state, 0, "G6 G5 C6", call=True)
    quick_turn(state, 1, "C4 K6 H6")
    quick_turn(state, 2, "C6 C3 H5")
    assert pools(state) == [6, 0, 4]
    assert events(state, "out") == [{"event": "out", "seat": 1}]
    view = state.view(None)
    assert view["seats"][1]["out"] and view["seats"][1]["cards"] == 0
    assert view["marker"] == 2, "the marker skips the player who is out"
    assert state.to_act == (2,)
    play(state, (2, state.legal_actions(2)[0]))
    play(state, (0, state.legal_actions(0)[0]))
    order = []
    for _ in range(4):
        seat = state.to_act[0]
        order.append(seat)
        _any_turn(state, seat)
    assert order == [2, 0, 2, 0], "turns skip the player who is out"


def _any_turn(state: candlebox.State, seat: int) -> None:
    play(state, (seat, "draw pile"))
    play(state, (seat, state.legal_actions(seat)[-1]))
    play(state, (seat, state.legal_actions(seat)[0]))
    play(state, (seat, "end"))


def test_two_players_emptied_at_once_leave_the_last_one_the_winner() -> None:
    state = game([STRONG, WEAK, WEAK2], pool=3)
    orient_all(state, "G6 G5 C6", "C4 K6 H6", "C5 K5 H6")
    quick_turn(state, 0, "G6 G5 C6", call=True)
    quick_turn(state, 1, "C4 K6 H6")
    quick_turn(state, 2, "C5 K5 H6")
    assert [e["seat"] for e in events(state, "out")] == [1, 2]
    assert state.is_over and not state.truncated
    assert state.winners == (0,) and state.scores == (5.0, 0.0, 0.0)
    assert state.view(None)["end_reason"] == "last-candy"


def test_two_of_four_emptied_at_once_and_the_game_goes_on() -> None:
    state = game([STRONG, WEAK, MIDDLE, WEAK2], pool=3)
    orient_all(state, "G6 G5 C6", "C4 K6 H6", "C6 C3 H5", "C5 K5 H6")
    quick_turn(state, 0, "G6 G5 C6", call=True)
    for seat, top in ((1, "C4 K6 H6"), (2, "C6 C3 H5"), (3, "C5 K5 H6")):
        quick_turn(state, seat, top)
    assert pools(state) == [5, 0, 3, 0] and not state.is_over
    assert state.view(None)["marker"] == 2 and state.view(None)["round"] == 2


def test_max_turns_ends_the_game_early_and_the_most_candy_wins() -> None:
    state = game([STRONG, WEAK, MIDDLE], max_turns=3)
    orient_all(state, "G6 G5 C6", "C4 K6 H6", "C6 C3 H5")
    for seat in (0, 1, 2):
        assert not state.is_over
        _any_turn(state, seat)
    assert state.is_over and state.truncated
    assert state.winners == (0, 1, 2), "ties share"
    assert state.view(None)["end_reason"] == "max-turns"
    assert all("hand" in p for p in state.view(None)["seats"]), "the hands are shown at the end"
    assert len(events(state, "reveal")) == 3 and not events(state, "score")


def test_option_rounds_ends_the_game_after_that_many_rounds() -> None:
    state = game([STRONG, WEAK, MIDDLE], rounds=1)
    orient_all(state, "G6 G5 C6", "C4 K6 H6", "C6 C3 H5")
    quick_turn(state, 0, "G6 G5 C6", call=True)
    quick_turn(state, 1, "C4 K6 H6")
    quick_turn(state, 2, "C6 C3 H5")
    assert state.is_over and not state.truncated
    assert state.winners == (0,) and state.scores == (18.0, 12.0, 16.0)
    assert state.view(None)["end_reason"] == "rounds"


def test_every_game_ends() -> None:
    for seed in range(30):
        state = candlebox.new_game("sixteen-candies", players=2 + seed % 3, seed=seed)
        steps = 0
        while not state.is_over:
            seat = state.to_act[0]
            actions = state.legal_actions(seat)
            state.apply(seat, actions[(seed + steps) % len(actions)])
            steps += 1
        assert state.winners and state.view(None)["turn"] <= 2000
    assert me(state, state.winners[0])["pool"] == max(pools(state))
