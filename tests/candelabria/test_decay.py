"""Decay Expansion: 16 cards (8 effects twice), the house second in the race for a curse draws one and
places it over a War Board slot, the third decay, resolution in battle, the end of the War Season."""

from __future__ import annotations

import random
from typing import Any

import pytest

import candlebox
from candlebox.games import candelabria
from candlebox.games.candelabria import decay
from candlebox.games.candelabria.conformance import invariant as invariants
from candlebox.games.candelabria.decision import Phase
from tests.candelabria.helpers import craft, me

CURSES = ["1", "2", "4", "3", "5", "7", "8", "9", "10"]
C, R, S, N = range(4)


def _race(flames: list[dict[int, int]], deck: list[str] | None = None, **options: Any) -> Any:
    """Kindling about to end (Cinis's last card), with these flames in front of curses 1-3."""
    state = candelabria.new_game(
        players=4,
        seed=1,
        houses=["C", "R", "S", "N"],
        decks={"curse": CURSES},
        decay=True,
        **options,
    )

    def change(snap: dict[str, Any]) -> None:
        for seat, hand in enumerate(snap["hands"]):
            snap["maneuvered"][seat] += hand
            snap["hands"][seat] = []
            snap["known_hands"][seat] = []
        for k, row in enumerate(flames):
            for seat, n in row.items():
                snap["curse_influence"][k][seat] = n
                snap["land_flame_supply"][seat] -= n
        if deck is not None:
            rest = [c for c in snap["decay"]["decay_deck"] if c not in deck]
            snap["decay"]["decay_deck"] = deck + rest
        snap["stack"] = [[Phase.TURN, 0]]
        snap["hands"][0] = snap["maneuvered"][0][:1]
        snap["maneuvered"][0] = snap["maneuvered"][0][1:]

    return craft(state, change)


def _end_kindling(state: Any) -> None:
    state.apply(C, f"maneuver {me(state, C)['hand'][0]}")
    state.apply(C, "done")


def test_sixteen_cards_eight_effects_twice() -> None:
    assert decay.CARDS == 16 and len(decay.EFFECTS) == 8
    names = [decay.effect_of(c)[0] for c in range(16)]
    assert all(names.count(n) == 2 for n in names)
    state = candelabria.new_game(players=3, seed=1, decay=True)
    assert state.view(0)["decay_deck"] == 16
    with pytest.raises(ValueError, match=r"'decay' can only be False.*no curse is granted"):
        candlebox.new_game("candelabria", players=2, seed=1, decay=True)
    with pytest.raises(ValueError, match="'decay_draw' can only be 'second'"):
        candlebox.new_game("candelabria", players=2, seed=1, decay_draw="every")
    # Its default, as any variant has it, is accepted (and recorded nowhere: there is no Decay).
    off = candlebox.new_game("candelabria", players=2, seed=1, decay=False, decay_draw="second")
    assert off.to_json() == candlebox.new_game("candelabria", players=2, seed=1).to_json()
    assert "decay" not in off.options


def test_the_house_second_in_the_race_draws_a_decay_and_covers_a_slot() -> None:
    # Curse 1: Satores 4, Nova Vita 2, Rota Aurea 2 -> Satores wins; Rota Aurea (earlier in turn order)
    # arrives second (the receiving-decay example: "only 2 Land Flames on the Curse Card").
    state = _race([{S: 4, N: 2, R: 2}, {}, {}], deck=["D5"])
    _end_kindling(state)
    assert state.view(S)["pending"]["decision"] == "curse-at", "the curse is placed first"
    state.apply(S, state.legal_actions(S)[0])
    assert state.to_act == (R,)
    assert state.view(None)["pending"]["decay"] == {"card": "D5", "effect": "tactic"}
    assert state.legal_actions(R) == ["decay 1", "decay 2"]
    state.apply(R, "decay 2")
    assert ("decay-place", R, "D5", 2) in state.events
    # Every house fights alone in this position: the War ends at once and the card goes back.
    assert state.year == 2 and me(state, R)["decay"] == [None, None]
    assert state.to_json()["state"]["decay"]["decay_deck"][-1] == "D5", (
        "under the deck after the War"
    )


def test_nobody_second_without_flames_and_ties_to_turn_order() -> None:
    state = _race([{S: 4}, {}, {}])
    _end_kindling(state)
    state.apply(S, state.legal_actions(S)[0])
    assert not [e for e in state.events if e[0] == "decay"]
    # A tie for first: the winner by turn order, the other tied house arrives second.
    state = _race([{S: 3, C: 3}, {}, {}])
    _end_kindling(state)
    state.apply(C, state.legal_actions(C)[0])
    assert [e[1] for e in state.events if e[0] == "decay"] == [S]


def test_option_decay_draw_every_house_that_fails() -> None:
    """Rulings CA-D1's other reading: every house with a flame before the curse but the winner draws,
    in turn order (the default gives Rota Aurea alone a card here)."""
    state = _race([{S: 4, N: 2, R: 1}, {}, {}], deck=["D5", "D9"], decay_draw="every")
    _end_kindling(state)
    state.apply(S, state.legal_actions(S)[0])
    assert [e[1:] for e in state.events if e[0] == "decay"] == [(R, "D5"), (N, "D9")]
    assert state.to_act == (R,)
    state.apply(R, "decay 1")
    assert state.to_act == (N,)
    state.apply(N, "decay 2")
    assert ("decay-place", N, "D9", 2) in state.events
    state = _race([{S: 4, N: 2, R: 1}, {}, {}], deck=["D5", "D9"])
    _end_kindling(state)
    state.apply(S, state.legal_actions(S)[0])
    assert [e[1:] for e in state.events if e[0] == "decay"] == [(N, "D5")], "second only"


def test_a_third_decay_replaces_one_which_goes_under_the_deck() -> None:
    state = _race([{S: 3, R: 1}, {S: 3, R: 1}, {S: 3, R: 1}], deck=["D1", "D5", "D9"])
    _end_kindling(state)
    for _ in range(3):
        while state.to_act == (S,):
            state.apply(S, state.legal_actions(S)[0])
        assert state.to_act == (R,)
        legal = state.legal_actions(R)
        state.apply(R, legal[0])
        if len([e for e in state.events if e[0] == "decay-place"]) == 2:
            break
    while state.to_act == (S,):
        state.apply(S, state.legal_actions(S)[0])
    assert me(state, R)["decay"][0]["card"] == "D1" and me(state, R)["decay"][1]["card"] == "D5"
    assert state.legal_actions(R) == ["decay 1", "decay 2"], "both covered: one must go"
    state.apply(R, "decay 1")
    placed = [e for e in state.events if e[0] in ("decay-discard", "decay-place")]
    assert placed[-2:] == [("decay-discard", R, "D1"), ("decay-place", R, "D9", 1)]
    assert "D1" in state.to_json()["state"]["decay"]["decay_deck"][-3:], "under the Decay deck"


def test_decay_resolves_over_its_slot_and_leaves_after_the_war() -> None:
    from candlebox.games.candelabria.war import run_tactic

    state = _race([{S: 3, R: 1}, {}, {}])
    for card in ("D9", "D3"):
        state.decay_deck.remove(decay.INDEX[card])
    state.decay_slots[R] = [decay.INDEX["D9"], -1]  # steal-vp
    state.decay_slots[C] = [decay.INDEX["D3"], -1]
    state.vp = [5, 0, 0, 0]
    state.battle = [C, R]
    state.stack.append([40 + 9, R, ~0, 0, 2])  # Auto.TACTIC over slot 1
    run_tactic(state, state.stack[-1])
    assert state.vp[:2] == [4, 1], "Steal 1 VP from the opponent in the battle"
    state.stack.append([40 + 9, R, ~1, 0, 2])
    run_tactic(state, state.stack[-1])  # slot 2: the printed War Board effect
    decay.epilogue(state)
    assert state.decay_slots == [[-1, -1]] * 4 and len(state.decay_deck) == 16


def test_either_and_nudge_decisions() -> None:
    state = _race([{S: 3, R: 1}, {}, {}])
    decay.resolve(state, C, decay.INDEX["D5"], 8)  # "tactic": no choice
    assert state.stack[-1][0] == Phase.TAKE
    state.stack.pop()
    state.stack.pop()
    decay.resolve(state, C, decay.INDEX["D4"], 8)  # vp-or-ignite
    assert state.stack[-1][:2] == [Phase.EITHER, C]
    state.stack.pop()
    decay.resolve(state, C, decay.INDEX["D1"], 8)
    assert state.stack[-1] == [Phase.NUDGE, C]


def test_random_games_with_decay_and_missions_keep_the_invariants() -> None:
    for players in (3, 4, 5):
        for seed in range(3):
            state = candelabria.new_game(players=players, seed=seed, decay=True, missions=True)
            rng = random.Random(seed)
            step = 0
            while not state.is_over:
                seat = state.to_act[0]
                state.apply(seat, rng.choice(state.legal_actions(seat)))
                step += 1
                if step % 31 == 0:
                    invariants(state)
                    assert candelabria.load(state.to_json()) == state
                    assert state.resample(seat, step).view(seat) == state.view(seat)
            invariants(state)
            assert any(e[0] == "decay-place" for e in state.events) or players == 3


def test_example_receiving_decay() -> None:
    """ "The Cinis player has only 2 Land Flames on the Curse Card, so they are second place in obtaining it
    and receive 1 Decay Card. They apply it on their War Board in the spot with the Extinguish icon." """
    state = _race([{N: 4, C: 2}, {}, {}], deck=["D7"])
    _end_kindling(state)
    while state.to_act == (N,):
        state.apply(N, state.legal_actions(N)[0])
    assert state.to_act == (C,) and state.legal_actions(C) == ["decay 1", "decay 2"]
    slots = state.content.war_boards[state.house_of[C]]
    extinguish = next(k for k in (0, 1) if slots[k][0][0] == 2)  # Cinis: Ignite / Extinguish
    state.apply(C, f"decay {extinguish + 1}")
    assert ("decay-place", C, "D7", extinguish + 1) in state.events
