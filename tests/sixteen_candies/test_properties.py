"""Property tests (hypothesis): whatever the players choose, the rules' invariants hold."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import candlebox
from candlebox.games.sixteen_candies.cards import (
    FULL_SET,
    HALF_CANDY,
    HALF_COUNT,
    N_CANDIES,
    PRINTED,
)
from candlebox.games.sixteen_candies.conformance import invariant as check_invariants
from candlebox.games.sixteen_candies.scoring import round_changes
from candlebox.games.sixteen_candies.wild import hand_value
from tests.sixteen_candies import position

OPTIONS = st.fixed_dictionaries(
    {
        "draw": st.sampled_from(["required", "optional"]),
        "rediscard": st.booleans(),
        "instant_win": st.sampled_from(["top", "held"]),
        "all_tied": st.sampled_from(["caller-loses", "caller-wins"]),
        "instant_gain": st.sampled_from(["two", "none"]),
        "pool_cap": st.booleans(),
        "pool": st.integers(1, 20),
    }
)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 4),
    options=OPTIONS,
    calls=st.booleans(),
    line=st.integers(0, 2**32),
    length=st.integers(1, 300),
)
def test_any_line_of_play_keeps_the_invariants(
    seed: int, players: int, options: dict, calls: bool, line: int, length: int
) -> None:
    state = candlebox.new_game("sixteen-candies", players=players, seed=seed, **options)
    rng = random.Random(line)
    for _ in range(length):
        if state.is_over:
            break
        seat = state.to_act[0]
        actions = state.legal_actions(seat)
        if not calls and len(actions) > 1:
            actions = [a for a in actions if a != "call"]
        state.apply(seat, rng.choice(actions))
        check_invariants(state)
    saved = json.loads(json.dumps(state.to_json()))
    assert candlebox.load(saved).to_json() == saved
    assert state.clone().to_json() == saved


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 4),
    line=st.integers(0, 2**32),
    length=st.integers(0, 400),
    resample_seed=st.integers(0, 2**32),
)
def test_resample_is_indistinguishable_to_the_seat(
    seed: int, players: int, line: int, length: int, resample_seed: int
) -> None:
    state = candlebox.new_game("sixteen-candies", players=players, seed=seed)
    rng = random.Random(line)
    for _ in range(length):
        if state.is_over:
            break
        seat = state.to_act[0]
        actions = [a for a in state.legal_actions(seat) if a != "call"] or ["call"]
        state.apply(seat, rng.choice(actions))
    for seat in range(players):
        twin = state.resample(seat, resample_seed)
        assert twin.view(seat) == state.view(seat)
        assert twin.log(seat) == state.log(seat)
        assert twin.legal_actions(seat) == state.legal_actions(seat)
        check_invariants(twin)
        position.restore(json.loads(json.dumps(twin.to_json())), twin)  # every count adds up


SCORES = st.integers(2, 4).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 18), min_size=n, max_size=n),
        st.lists(st.integers(3, 9), min_size=n, max_size=n),
        st.integers(-1, n - 1),
    )
)


@settings(max_examples=300, deadline=None)
@given(SCORES)
def test_the_tables_row_by_row(case: tuple[list[int], list[int], int]) -> None:
    values, pens, caller = case
    result = round_changes(
        range(len(values)), dict(enumerate(values)), dict(enumerate(pens)), caller
    )
    low, high = min(values), max(values)
    for seat, (role, _rank, due) in result.items():
        value = values[seat]
        if seat == caller:
            if low == high:
                assert due == -(pens[seat] + 1)
            elif value == high:
                assert due == 2
            elif value == low:
                assert due == -(pens[seat] + 1)
            else:
                assert due == -1
        elif caller >= 0:
            pays = value == low and values[caller] != low
            assert due == (-pens[seat] if pays else 0)
        assert role == ("caller" if seat == caller else "other")
    if caller >= 0:
        payers = [s for s, (_, _, due) in result.items() if due < 0]
        if values[caller] == low:
            assert payers == [caller], "a caller at the lowest pays alone"


HALVES = st.lists(st.sampled_from(range(2 * len(set(FULL_SET)))), min_size=3, max_size=3)


@settings(max_examples=200, deadline=None)
@given(HALVES)
def test_hand_value_is_the_best_declaration(halves: list[int]) -> None:
    value, candy = hand_value(PRINTED, halves)
    options = []
    for declared in range(N_CANDIES):
        total = 0
        for half in halves:
            if HALF_CANDY[half] < 0:
                total += 3
            elif HALF_CANDY[half] == declared:
                total += HALF_COUNT[half]
        options.append(total)
    assert value == max(options) and options[candy] == value
    assert hand_value(PRINTED, halves[::-1]) == (value, candy)
