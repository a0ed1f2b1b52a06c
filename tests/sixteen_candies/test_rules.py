"""Game Set Up and Game Play: the deal, the orientation, and every step of a turn."""

from __future__ import annotations

import pytest

import candlebox
from tests.sixteen_candies.helpers import deck_for, events, game, me, orient_all, play, turn

HANDS3 = [
    ["G6-K1", "C5-H2", "K4-G3"],
    ["G6-H1", "C6-K1", "H5-G2"],
    ["K6-C1", "H6-G1", "C4-K3"],
]


def test_setup_deals_three_each_one_at_a_time_from_the_first_player() -> None:
    """'Shuffle the Cards, deal 3 Cards face-down to each Player.' The deck option is dealt one card
    at a time from the marker clockwise, then one card is flipped, then the draw pile."""
    deck = [
        "G6-K1", "G6-H1", "K6-C1",
        "C5-H2", "C6-K1", "H6-G1",
        "K4-G3", "H5-G2", "C4-K3",
        "H4-G3",
        "K5-H2", "C5-K2",
    ]  # fmt: skip
    state = candlebox.new_game("sixteen-candies", players=3, seed=1, deck=deck, first_player=1)
    view = state.view(None)
    assert view["marker"] == 1
    hands = {s: sorted(c["card"] for c in me(state, s)["hand"]) for s in range(3)}
    assert hands[1] == sorted(["G6-K1", "C5-H2", "K4-G3"])
    assert hands[2] == sorted(["G6-H1", "C6-K1", "H5-G2"])
    assert hands[0] == sorted(["K6-C1", "H6-G1", "C4-K3"])
    assert view["discard_pile"] == ["H4-G3"], "one card flipped to start the discard pile"
    assert view["draw_pile"] == 40 - 9 - 1
    assert [p["pool"] for p in view["seats"]] == [16, 16, 16], "a Health Pool of 16 each"
    assert deck_for([hands[0], hands[1], hands[2]], "X", first=1)[:3] == [
        hands[1][0],
        hands[2][0],
        hands[0][0],
    ]
    # Every player orients their cards, from the marker clockwise; then the marker's holder begins.
    assert [state.pending()["decision"], state.to_act] == ["orient", (1,)]
    orient_all(state, "G6 C5 K4", "G6 C6 H5", "C4 K6 H6")
    assert state.to_act == (1,) and state.pending()["decision"] == "draw"
    play(state, (1, "draw pile"))
    assert me(state, 1)["hand"][-1]["card"] == "K5-H2", "the draw pile continues the deck"


def test_the_youngest_player_is_seat_0_and_the_box_is_for_2_to_4() -> None:
    state = candlebox.new_game("sixteen-candies", players=4, seed=3)
    assert state.view(None)["marker"] == 0 and state.to_act == (0,)
    for players in (1, 5):
        with pytest.raises(ValueError, match="2–4 players"):
            candlebox.new_game("sixteen-candies", players=players)


def test_cards_can_be_turned_any_way_once_per_pick_up_and_turn() -> None:
    state = game(HANDS3)
    actions = state.legal_actions(0)
    assert len(actions) == 8 and len(set(actions)) == 8, "both halves of each of three cards"
    assert actions[0] == "top G6 C5 K4" and actions[-1] == "top K1 H2 G3"
    orient_all(state, "K1 H2 G3", "G6 C6 H5", "C4 K6 H6")
    assert [c["top"] for c in me(state, 0)["hand"]] == ["K1", "H2", "G3"]
    assert [c["bottom"] for c in me(state, 0)["hand"]] == ["G6", "C5", "K4"]


def test_a_wild_has_one_orientation() -> None:
    """'The orientation of this Card in your hand does not matter.'"""
    state = game([["W", "W", "G6-K1"], ["G6-H1", "C6-K1", "H5-G2"]])
    assert state.legal_actions(0) == ["top G6 W W", "top K1 W W"]


def test_a_turn_is_draw_then_discard_then_rotate_then_call_or_end() -> None:
    state = game(HANDS3, flip="H4-G3", pile=["K5-H2"])
    orient_all(state, "G6 C5 K4", "G6 C6 H5", "C4 K6 H6")
    assert state.legal_actions(0) == ["draw pile", "draw discard"], "drawing is not optional"
    play(state, (0, "draw pile"))
    assert state.pending()["decision"] == "discard"
    assert state.legal_actions(0) == [
        "discard G6-K1",
        "discard C5-H2",
        "discard K4-G3",
        "discard K5-H2",
    ], "the hand in order, the card just drawn last"
    play(state, (0, "discard C5-H2"))
    assert state.pending()["decision"] == "rotate"
    assert len(state.legal_actions(0)) == 8
    play(state, (0, "top G6 K5 K4"))
    assert state.legal_actions(0) == ["call", "end"]
    play(state, (0, "end"))
    assert state.to_act == (1,) and state.pending()["decision"] == "draw"
    assert state.view(None)["discard_pile"] == ["H4-G3", "C5-H2"]
    assert me(state, 0)["value"] == 9


def test_drawing_from_the_discard_pile_takes_its_top_card_in_view_of_all() -> None:
    state = game(HANDS3, flip="H4-G3")
    orient_all(state, "G6 C5 K4", "G6 C6 H5", "C4 K6 H6")
    play(state, (0, "draw discard"))
    assert state.view(None)["discard_pile"] == []
    assert state.pending()["taken"] == "H4-G3"
    assert events(state, "draw", 2)[-1] == {
        "event": "draw",
        "seat": 0,
        "source": "discard",
        "card": "H4-G3",
    }
    assert "discard H4-G3" in state.legal_actions(0), "by default it may go straight back"
    play(state, (0, "discard H4-G3"))
    assert state.view(None)["discard_pile"] == ["H4-G3"]


def test_option_rediscard_false_keeps_the_card_just_taken() -> None:
    state = game(HANDS3, flip="H4-G3", rediscard=False)
    orient_all(state, "G6 C5 K4", "G6 C6 H5", "C4 K6 H6")
    play(state, (0, "draw discard"))
    assert state.legal_actions(0) == ["discard G6-K1", "discard C5-H2", "discard K4-G3"]
    assert state.pending()["may_discard_taken"] is False
    with pytest.raises(candlebox.IllegalAction):
        state.apply(0, "discard H4-G3")
    state = game(HANDS3, flip="H4-G3", rediscard=False)
    orient_all(state, "G6 C5 K4", "G6 C6 H5", "C4 K6 H6")
    play(state, (0, "draw pile"))
    assert len(state.legal_actions(0)) == 4, "a card drawn from the draw pile may go at once"


def test_option_rediscard_false_with_two_wilds_lets_the_other_wild_go() -> None:
    state = game([["W", "G6-K1", "C5-H2"], ["G6-H1", "C6-K1", "H5-G2"]], flip="W", rediscard=False)
    orient_all(state, "G6 C5 W", "G6 C6 H5")
    play(state, (0, "draw discard"))
    assert "discard W" in state.legal_actions(0)
    play(state, (0, "discard W"))
    assert state.view(1)["seats"][0]["known"] == ["W"], "the Wild just taken is still in hand"


def test_option_draw_optional_lets_a_player_skip_the_draw_and_the_discard() -> None:
    state = game(HANDS3, draw="optional")
    orient_all(state, "G6 C5 K4", "G6 C6 H5", "C4 K6 H6")
    assert state.legal_actions(0) == ["draw pile", "draw discard", "skip"]
    play(state, (0, "skip"))
    assert state.pending()["decision"] == "rotate" and me(state, 0)["cards"] == 3
    play(state, (0, "top K1 C5 K4"), (0, "call"))
    assert events(state, "skip") == [{"event": "skip", "seat": 0}]
    assert state.to_act == (1,)


def test_a_call_gives_every_other_player_exactly_one_final_turn() -> None:
    """'Opponents then get one final turn before everyone reveals their Cards.'"""
    hands = [
        ["G6-K1", "C5-H2", "K4-G3"],
        ["G6-H1", "C6-K1", "H5-G2"],
        ["K6-C1", "H6-G1", "C4-K3"],
        ["G5-K2", "C6-G1", "H4-C3"],
    ]
    state = game(hands, pile=["K5-H2", "C5-K2", "H6-K1", "K6-H1", "G4-C3", "G5-C2"], first=2)
    orient_all(state, "C4 K6 H6", "G5 C6 H4", "G6 C5 K4", "G6 C6 H5")
    turn(state, 2, "draw pile", "K5-H2", "C4 K6 H6")
    turn(state, 3, "draw pile", "C5-K2", "G5 C6 H4", call=True)
    order = []
    while state.view(None)["round"] == 1:
        seat = state.to_act[0]
        order.append(seat)
        assert state.pending()["final_turn"] is True
        legal = state.legal_actions(seat)
        state.apply(seat, legal[0])
        state.apply(seat, state.legal_actions(seat)[-1])
        assert state.legal_actions(seat) != ["call", "end"]
        state.apply(seat, state.legal_actions(seat)[0])
    assert order == [0, 1, 2], "clockwise from the caller, each once, and not the caller"
    assert len(events(state, "reveal")) == 4


def test_the_round_goes_on_until_someone_calls() -> None:
    """'A round will not end until someone calls, "I've Got Candy!"'"""
    state = game([["G6-K1", "C5-H2", "K4-G3"], ["G6-H1", "C6-K1", "H5-G2"]])
    orient_all(state, "G6 C5 K4", "G6 C6 H5")
    for _ in range(60):
        seat = state.to_act[0]
        play(state, (seat, "draw pile"))
        play(state, (seat, state.legal_actions(seat)[-1]))
        play(state, (seat, state.legal_actions(seat)[0]), (seat, "end"))
    assert state.view(None)["round"] == 1 and not events(state, "reveal")
    assert state.view(None)["turn"] == 60


def test_the_draw_pile_running_out_is_rebuilt_from_the_discard_pile_but_its_top() -> None:
    state = game([["G6-K1", "C5-H2", "K4-G3"], ["G6-H1", "C6-K1", "H5-G2"]])
    orient_all(state, "G6 C5 K4", "G6 C6 H5")
    pile = state.view(None)["draw_pile"]
    for _ in range(pile):  # draw the whole pile, discarding what is drawn
        seat = state.to_act[0]
        play(state, (seat, "draw pile"))
        play(state, (seat, state.legal_actions(seat)[-1]))
        play(state, (seat, state.legal_actions(seat)[0]), (seat, "end"))
    view = state.view(None)
    assert view["draw_pile"] == 0 and len(view["discard_pile"]) == pile + 1
    top = view["discard_pile"][-1]
    seat = state.to_act[0]
    assert "draw pile" in state.legal_actions(seat)
    play(state, (seat, "draw pile"))
    view = state.view(None)
    assert view["discard_pile"] == [top], "the top card stays to keep the discard pile going"
    assert view["draw_pile"] == pile - 1
    assert events(state, "reshuffle") == [{"event": "reshuffle", "count": pile}]
