"""Property tests (hypothesis): whatever the players choose, the rules' invariants hold."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

import candlebox
from candlebox.games.candle_quest.candles import CODE, FACE, KIND, Kind
from candlebox.games.candle_quest.conformance import invariant as check_invariants
from candlebox.games.candle_quest.scoring import candle_value

CANDLE_TYPES = st.sampled_from(range(len(CODE)))


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 5),
    variant=st.sampled_from(["basic", "advanced", "junior"]),
    bank=st.integers(60, 200),
    choices=st.lists(st.integers(0, 10_000), min_size=1, max_size=250),
)
def test_any_line_of_play_keeps_the_invariants(
    seed: int, players: int, variant: str, bank: int, choices: list[int]
) -> None:
    state = candlebox.new_game(
        "candle-quest", players=players, variant=variant, seed=seed, bank=bank
    )
    for pick in choices:
        if state.is_over:
            break
        seat = state.to_act[0]
        actions = state.legal_actions(seat)
        state.apply(seat, actions[pick % len(actions)])
        check_invariants(state)


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32), picks=st.lists(st.integers(0, 50), min_size=1, max_size=40))
def test_payments_cover_the_cost_and_stop_there(seed: int, picks: list[int]) -> None:
    """Loot the top of seat 0's pile with candles and shekels chosen at random."""
    state = candlebox.new_game(
        "candle-quest", players=2, seed=seed, deck=["D10", "R8", "S8", "B7", "U6", "Y2"]
    )
    state.apply(0, "flip")
    state.apply(0, "sell")  # D10 on seat 0's pile
    for _ in range(4):  # seat 1 then seat 0 buy two candles each
        seat = state.to_act[0]
        state.apply(seat, "flip")
        if "buy" in state.legal_actions(seat):
            state.apply(seat, "buy")
        else:
            state.apply(seat, state.legal_actions(seat)[0])
    seat = state.to_act[0]
    if "loot 0" not in state.legal_actions(seat):
        return
    before = state.view(seat)["seats"][seat]
    state.apply(seat, "loot 0")
    cost = state.view(seat)["pending"]["due"]
    paid_candles: list[str] = []
    shekels_paid = 0
    for pick in picks:
        if state.to_act != (seat,) or state.view(seat)["pending"]["decision"] != "pay":
            break
        due = state.view(seat)["pending"]["due"]
        actions = state.legal_actions(seat)
        action = actions[pick % len(actions)]
        state.apply(seat, action)
        verb, arg = action.split()
        if verb == "pay":
            shekels_paid += int(arg)
            assert int(arg) == due, "shekels settle exactly what is owed"
        else:
            paid_candles.append(arg)
            assert due > 0, "no candle is given once the payment is covered"
    else:
        return
    faces = candlebox.game_info("candle-quest").facts["candles"]
    total = shekels_paid + sum(faces[c]["face"] for c in paid_candles)
    assert total >= cost
    if paid_candles and not shekels_paid:
        assert total - faces[paid_candles[-1]]["face"] < cost, "only the last candle overshoots"
    after = state.view(seat)["seats"][seat] if not state.is_over else before
    assert after["shekels"] == before["shekels"] - shekels_paid


@given(st.lists(CANDLE_TYPES, max_size=20), CANDLE_TYPES)
def test_collecting_a_candle_never_lowers_the_collection_value(
    types: list[int], extra: int
) -> None:
    screen = Counter(types)
    more = Counter([*types, extra])
    assert candle_value(dict(more)) >= candle_value(dict(screen))


@given(st.lists(CANDLE_TYPES, max_size=20))
def test_collection_value_counts_one_candle_per_colour_and_no_unlit(types: list[int]) -> None:
    screen = dict(Counter(types))
    value = candle_value(screen)
    counted = sorted((FACE[t] for t in types if KIND[t] is not Kind.UNLIT), reverse=True)
    assert value <= sum(counted[:8])
    unlit_free = {t: n for t, n in screen.items() if KIND[t] is not Kind.UNLIT}
    assert candle_value(unlit_free) == value


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 120), other=st.integers(0, 2**32))
def test_resample_depends_only_on_what_the_seat_knows(seed: int, steps: int, other: int) -> None:
    """Two states a seat cannot tell apart resample to the same state for the same seed."""
    state = candlebox.new_game("candle-quest", players=3, seed=seed)
    for _ in range(steps):
        if state.is_over:
            break
        seat = state.to_act[0]
        state.apply(seat, state.legal_actions(seat)[0])
    for seat in range(3):
        twin = state.resample(seat, other)
        assert (
            twin.resample(seat, 5).to_json()["state"] == state.resample(seat, 5).to_json()["state"]
        )
