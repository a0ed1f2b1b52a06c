"""Hidden information: what views and logs show each seat, and resample."""

from __future__ import annotations

import json
import random

import candlebox
from tests.sixteen_candies import position
from tests.sixteen_candies.helpers import events, game, me, orient_all, play

HANDS = [
    ["G6-K1", "C5-H2", "K4-G3"],
    ["G6-H1", "C6-K1", "H5-G2"],
    ["K6-C1", "H6-G1", "C4-K3"],
]


def test_views_show_only_the_seats_own_hand_and_orientation() -> None:
    state = game(HANDS)
    orient_all(state, "K1 C5 K4", "G6 C6 H5", "C4 K6 H6")
    for seat in range(3):
        view = state.view(seat)
        for player in view["seats"]:
            if player["seat"] == seat:
                assert {"hand", "value", "candy", "penalty"} <= set(player)
            else:
                assert set(player) == {"seat", "pool", "out", "cards", "known"}
        assert isinstance(view["draw_pile"], int)
        shown = json.dumps(view)
        assert ('"top": "K1"' in shown) == (seat == 0), "seat 0 turned its G6-K1 to K1: hidden"
    assert all("hand" not in p for p in state.view(None)["seats"])


def test_logs_hide_dealt_cards_and_draws_from_the_draw_pile() -> None:
    state = game(HANDS, pile=["K5-H2"])
    orient_all(state, "K1 C5 K4", "G6 C6 H5", "C4 K6 H6")
    play(state, (0, "draw pile"), (0, "discard C5-H2"), (0, "top G6 K5 K4"), (0, "end"))
    play(state, (1, "draw discard"))
    for seat in (None, 0, 1, 2):
        log = state.log(seat)
        deals = [e for e in log if e["event"] == "deal"]
        assert all(("card" in e) == (e["seat"] == seat) for e in deals)
        draws = [e for e in log if e["event"] == "draw"]
        assert ("card" in draws[0]) == (seat == 0), "a draw from the draw pile is private"
        assert draws[1]["card"] == "C5-H2", "a draw from the discard pile is public"
        assert [e["card"] for e in log if e["event"] == "discard"] == ["C5-H2"]
    assert state.view(2)["seats"][1]["known"] == ["C5-H2"]
    assert "orient" not in {e["event"] for e in state.log(None)}


def test_the_hands_are_shown_at_the_reveal_and_at_the_end() -> None:
    state = game(HANDS, max_turns=1)
    orient_all(state, "K1 C5 K4", "G6 C6 H5", "C4 K6 H6")
    play(state, (0, "draw pile"))
    play(state, (0, state.legal_actions(0)[-1]))
    play(state, (0, "top K1 C5 K4"), (0, "end"))
    assert state.is_over
    view = state.view(2)
    assert [c["top"] for c in view["seats"][0]["hand"]] == ["K1", "C5", "K4"]
    assert {e["seat"] for e in events(state, "reveal", 1)} == {0, 1, 2}


def _never_call(state: candlebox.State, rng: random.Random) -> None:
    seat = state.to_act[0]
    actions = [a for a in state.legal_actions(seat) if a != "call"]
    state.apply(seat, rng.choice(actions))


def test_resample_keeps_what_the_seat_knows_through_reshuffles() -> None:
    rng = random.Random(5)
    reshuffled = 0
    for seed in range(4):
        state = candlebox.new_game("sixteen-candies", players=2 + seed % 3, seed=seed)
        for step in range(400):
            if state.is_over:
                break
            if step % 7 == 0:
                for seat in range(state.num_players):
                    twin = state.resample(seat, rng.randrange(2**32))
                    assert twin.view(seat) == state.view(seat)
                    assert twin.log(seat) == state.log(seat)
                    assert twin.legal_actions(seat) == state.legal_actions(seat)
                    assert twin.to_act == state.to_act
                    again = position.restore(json.loads(json.dumps(twin.to_json())), twin)
                    assert again.to_json() == twin.to_json(), "a resampled state is a valid one"
            _never_call(state, rng)
        reshuffled += bool(events(state, "reshuffle"))
    assert reshuffled >= 2, (
        "the lines of play reached reshuffles (an instant win may cut one short)"
    )


def test_resample_deals_anew_what_the_seat_cannot_know() -> None:
    state = game(HANDS, pile=["K5-H2"])
    orient_all(state, "K1 C5 K4", "G6 C6 H5", "C4 K6 H6")
    play(state, (0, "draw pile"), (0, "discard C5-H2"), (0, "top G6 K5 K4"), (0, "end"))
    play(state, (1, "draw discard"), (1, "discard G6-H1"), (1, "top C6 C5 H5"), (1, "end"))
    hands, tops = set(), set()
    for seed in range(40):
        twin = state.resample(0, seed)
        assert me(twin, 0) == me(state, 0)
        theirs = me(twin, 1)["hand"]
        assert "C5-H2" in [c["card"] for c in theirs], "a card taken in view of all stays"
        hands.add(tuple(sorted(c["card"] for c in theirs)))
        tops.add(tuple(c["top"] for c in theirs))
        unseen = [c["card"] for c in theirs + me(twin, 2)["hand"]]
        assert "G6-H1" not in unseen and "C5-H2" not in [c["card"] for c in me(twin, 2)["hand"]]
    assert len(hands) > 10 and len(tops) > 10


def test_resample_keeps_cards_drawn_after_a_reshuffle_in_the_reshuffled_pile() -> None:
    """Cards reshuffled from the discard pile were seen by all: a card drawn from that new pile can
    only be one of them, and a card dealt earlier can never be."""
    state = game(HANDS[:2])
    orient_all(state, "K1 C5 K4", "G6 C6 H5")
    rng = random.Random(2)
    while not events(state, "reshuffle"):
        before = state.view(None)["discard_pile"][:-1]
        seat = state.to_act[0]
        play(state, (seat, "draw pile"))
        play(state, (seat, state.legal_actions(seat)[-1]))
        play(state, (seat, state.legal_actions(seat)[rng.randrange(8)]), (seat, "end"))
    reshuffled = set(before)
    drawer = events(state, "reshuffle")  # the draw that triggered it is the opponent's
    assert drawer
    seat = state.to_act[0]
    opponent = 1 - seat
    drawn_after = [
        i for i, e in enumerate(state.log(None)) if e["event"] == "draw" and e["seat"] == opponent
    ]
    assert drawn_after
    for s in range(30):
        twin = state.resample(seat, s)
        snap = twin.to_json()["state"]
        sources = snap["sources"][opponent]
        cards = snap["hands"][opponent]
        reshuffle_at = next(i for i, e in enumerate(twin.events) if e[0] == "reshuffle")
        for card, src in zip(cards, sources, strict=True):
            if src > reshuffle_at:
                assert card in reshuffled
            else:
                assert card not in reshuffled


def test_resample_hides_how_the_others_turned_their_cards_in_the_history() -> None:
    """'top K1 C5 K4' names seat 0's halves: only seat 0's own resample keeps it in the history."""
    state = game(HANDS)
    orient_all(state, "K1 C5 K4", "G6 C6 H5", "C4 K6 H6")
    assert state.history[:3] == [(0, "top K1 C5 K4"), (1, "top G6 C6 H5"), (2, "top C4 K6 H6")]
    twin = state.resample(1, 7)
    assert twin.history[:3] == [(0, "?"), (1, "top G6 C6 H5"), (2, "?")]
    assert state.history[0] == (0, "top K1 C5 K4"), "the real state keeps its record"
    play(twin, (0, "draw pile"))
    play(twin, (0, twin.legal_actions(0)[0]))
    assert twin.history[3] == (0, "draw pile"), "a resampled state plays on"


def test_resample_depends_only_on_what_the_seat_knows() -> None:
    """States the seat cannot tell apart resample alike for one seed (what a search needs)."""
    rng = random.Random(9)
    for seed in range(3):
        state = candlebox.new_game("sixteen-candies", players=3, seed=seed)
        for step in range(240):
            if state.is_over:
                break
            if step % 5 == 0:
                seat = rng.randrange(3)
                twin = state.resample(seat, 99)
                assert state.resample(seat, 5).to_json() == twin.resample(seat, 5).to_json()
            _never_call(state, rng)
