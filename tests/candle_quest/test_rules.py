"""Candle Quest's rules, one by one, through the public API."""

from __future__ import annotations

import json
from collections import Counter

import pytest

import candlebox
from candlebox.games.candle_quest.candles import TYPE_OF
from candlebox.games.candle_quest.scoring import candle_value
from tests.candle_quest import position
from tests.candle_quest.helpers import craft, game, play, seat_info


# ----------------------------------------------------------------------------- setup
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_gives_twelve_shekels_from_a_bank_of_100(players: int) -> None:
    state = candlebox.new_game("candle-quest", players=players, seed=3)
    view = state.view(0)
    assert seat_info(state, 0)["shekels"] == 12
    assert view["bank"] == 100 - 12 * players
    assert view["stack"] == 60
    assert all(p["discard_pile"] == [] and p["candles_behind_screen"] == 0 for p in view["seats"])


def test_start_player_draw_highest_face_starts_and_candles_go_back() -> None:
    for seed in range(40):
        state = candlebox.new_game("candle-quest", players=4, seed=seed)
        log = state.log(None)
        draws = [e for e in log if e["event"] == "start-draw"]
        start = next(e["seat"] for e in log if e["event"] == "start-player")
        faces = candlebox.game_info("candle-quest").facts["candles"]
        last_round = draws[-len([d for d in draws if d["seat"] == start]) :]
        # The starter's last draw is the highest of the final round of drawing.
        starter_face = faces[[d for d in draws if d["seat"] == start][-1]["candle"]]["face"]
        assert all(faces[d["candle"]]["face"] <= starter_face for d in last_round)
        assert state.to_act == (start,)
        assert state.view(None)["stack"] == 60, "the drawn candles are reshuffled into the stack"


def test_start_player_tie_draws_again() -> None:
    faces = candlebox.game_info("candle-quest").facts["candles"]
    for seed in range(400):
        state = candlebox.new_game("candle-quest", players=5, seed=seed)
        draws = [e for e in state.log(None) if e["event"] == "start-draw"]
        if len(draws) > 5:
            first_round = draws[:5]
            best = max(faces[d["candle"]]["face"] for d in first_round)
            tied = {d["seat"] for d in first_round if faces[d["candle"]]["face"] == best}
            assert len(tied) > 1
            assert {d["seat"] for d in draws[5 : 5 + len(tied)]} == tied, "only the tied draw again"
            return
    pytest.fail("no tie in 400 seeds")


def test_first_player_and_deck_options_fix_chance() -> None:
    state = game(players=3, deck=["R7", "U4"], first=2)
    assert state.to_act == (2,)
    play(state, (2, "flip"))
    assert state.view(None)["table"] == "R7"


def test_bad_deck_is_refused_clearly() -> None:
    with pytest.raises(ValueError, match="'X9' is not a candle code"):
        game(deck=["X9"])
    with pytest.raises(ValueError, match="D10×1 too many"):
        game(deck=["D10"] * 4)
    with pytest.raises(ValueError, match="first_player"):
        game(players=2, first=3)


def test_junior_removes_the_three_six_value_unlit_candles() -> None:
    state = candlebox.new_game("candle-quest", players=3, variant="junior", seed=2)
    assert state.view(None)["stack"] == 57
    assert state.view(None)["removed"] == ["U6", "U6", "U6"]
    with pytest.raises(ValueError, match="U6"):
        game(variant="junior", deck=["U6"])


# ----------------------------------------------------------------------------- buy, sell, auction
def test_buy_needs_enough_shekels_and_candles_never_pay_for_it() -> None:
    state = craft(game(deck=["R8"]), screens={0: ["S8"]}, shekels={0: 7})
    play(state, (0, "flip"))
    legal = state.legal_actions(0)
    assert "buy" not in legal
    assert not any(a.startswith("discard") for a in legal), "no discarding to buy or auction"
    assert legal == ["sell", *[f"auction {k}" for k in range(1, 8)]]


def test_auction_needs_a_shekel_and_at_most_all_of_them() -> None:
    state = craft(game(deck=["R8"]), shekels={0: 0})
    play(state, (0, "flip"))
    assert state.legal_actions(0) == ["sell"], "no shekels: no buying, no auction"
    state = game(deck=["R8"])
    play(state, (0, "flip"))
    assert "auction 12" in state.legal_actions(0) and "auction 13" not in state.legal_actions(0)
    assert "auction 0" not in state.legal_actions(0)


def test_bidders_cannot_bid_more_than_they_have() -> None:
    state = craft(game(players=3, deck=["R8"]), shekels={1: 3})
    play(state, (0, "flip"), (0, "auction 3"))
    assert state.legal_actions(1) == ["pass"]
    play(state, (1, "pass"))
    assert state.legal_actions(2)[-1] == "bid 12"


def test_sale_from_a_dry_bank_pays_what_it_has() -> None:
    state = game(deck=["R8", "S8"], bank=26)  # the bank keeps 2 after 12 each
    play(state, (0, "flip"), (0, "sell"))
    assert seat_info(state, 0)["shekels"] == 14
    assert state.view(None)["bank"] == 0
    play(state, (1, "flip"), (1, "sell"))
    assert seat_info(state, 1)["shekels"] == 12, "an empty bank pays nothing; the sale stands"
    assert seat_info(state, 1)["discard_pile"] == ["S8"]


# ----------------------------------------------------------------------------- loot
def test_loot_any_pile_including_your_own_only_when_affordable() -> None:
    state = craft(game(deck=["Y2"]), piles={0: ["D10"], 1: ["G2"]}, shekels={0: 14})
    legal = state.legal_actions(0)
    assert "loot 1" in legal, "G2 costs 2 + 1"
    assert "loot 0" not in legal, "D10 costs 10 + 5 = 15 > 14"
    state = craft(game(deck=["Y2"]), piles={0: ["D10"]}, screens={0: ["Y2"]}, shekels={0: 13})
    assert "loot 0" in state.legal_actions(0), "own pile, shekels and candles together"


def test_loot_from_own_pile_then_discards_go_on_it() -> None:
    state = craft(game(deck=["B5"]), piles={0: ["G2", "R7"]}, screens={0: ["S8", "W2"]})
    play(state, (0, "loot 0"), (0, "discard W2"), (0, "discard S8"))
    assert seat_info(state, 0)["discard_pile"] == ["G2", "W2", "S8"]
    assert seat_info(state, 0)["candles"] == ["R7"]


def test_payment_ends_when_covered_and_never_takes_more() -> None:
    state = craft(game(deck=["B5"]), piles={1: ["R7"]}, screens={0: ["S8", "W2", "G6"]})
    play(state, (0, "loot 1"), (0, "discard S8"))  # R7 costs 7 + 3 = 10
    assert state.view(0)["pending"]["due"] == 2
    assert state.legal_actions(0) == ["discard G6", "discard W2", "pay 2"]
    play(state, (0, "discard G6"))  # 4 over: no change, and the payment is over
    assert state.to_act == (1,)
    assert sorted(seat_info(state, 0)["candles"]) == ["R7", "W2"]
    assert seat_info(state, 0)["shekels"] == 12


# ----------------------------------------------------------------------------- guard
def test_further_unlit_candles_in_the_bonus_turn_are_set_aside_then_mixed_back() -> None:
    state = game(deck=["U6", "U4", "U6", "B7", "Y2"])
    play(state, (0, "flip"), (0, "pay 6"), (0, "flip"))
    view = state.view(0)
    assert view["table"] == "B7"
    assert view["set_aside"] == ["U4", "U6"]
    stack_before = view["stack"]
    play(state, (0, "sell"))
    view = state.view(0)
    assert view["set_aside"] == []
    assert view["stack"] == stack_before + 2, "mixed back into the stack at the end of the turn"
    assert state.to_act == (1,)


def test_cannot_pay_discard_highest_or_all_shekels() -> None:
    """FAQ: not enough to guard -> discard the highest valued candle (ties: choose) or all shekels."""
    state = craft(game(deck=["U6"]), screens={0: ["Y2", "G2"]}, shekels={0: 1})
    play(state, (0, "flip"))
    assert state.legal_actions(0) == ["discard Y2", "discard G2", "pay 1"]
    play(state, (0, "discard G2"))
    assert state.view(None)["removed"] == ["U6"], "the Unlit candle leaves the game"
    assert seat_info(state, 0)["candles"] == ["Y2"]
    assert seat_info(state, 0)["discard_pile"] == ["G2"]
    assert state.to_act == (0,) and state.view(0)["pending"]["bonus_turn"], "bonus turn stays"


def test_cannot_pay_highest_includes_unlit_by_face_value() -> None:
    state = craft(game(deck=["U6"]), screens={0: ["U4"]}, shekels={0: 1})
    play(state, (0, "flip"))
    assert state.legal_actions(0) == ["discard U4", "pay 1"], "an Unlit 4 is a candle too"
    play(state, (0, "discard U4"))
    assert state.view(None)["removed"] == ["U4", "U6"]


def test_cannot_pay_with_only_shekels_pays_them_all() -> None:
    state = craft(game(deck=["U6"]), shekels={0: 5})
    play(state, (0, "flip"))
    assert state.legal_actions(0) == ["pay 5"]
    play(state, (0, "pay 5"))
    assert seat_info(state, 0)["shekels"] == 0


def test_junior_guards_as_the_basic_game_even_when_short() -> None:
    """Junior pays for Unlit candles as the basic game does, the FAQ's fallback included."""
    state = craft(game(deck=["U4", "Y3"], variant="junior"), screens={0: ["G2"]}, shekels={0: 1})
    play(state, (0, "flip"))
    assert state.legal_actions(0) == ["discard G2", "pay 1"]
    play(state, (0, "pay 1"))
    assert state.view(None)["removed"][-1] == "U4" and seat_info(state, 0)["shekels"] == 0
    assert state.to_act == (0,) and state.view(0)["pending"]["bonus_turn"]


def test_nothing_at_all_unlit_leaves_with_no_effect_and_bonus_turn() -> None:
    state = craft(game(deck=["U6", "Y2"]), shekels={0: 0})
    play(state, (0, "flip"))
    assert state.view(None)["removed"] == ["U6"]
    assert state.to_act == (0,) and state.view(0)["pending"]["bonus_turn"]


def test_bonus_turn_may_loot() -> None:
    state = craft(game(deck=["U4"]), piles={1: ["Y2"]})
    play(state, (0, "flip"), (0, "pay 4"))
    assert state.legal_actions(0) == ["flip", "loot 1"]


# ----------------------------------------------------------------------------- the draw stack
def test_stack_runs_out_discard_piles_but_their_tops_are_reshuffled() -> None:
    state = game(deck=["Y2"])
    data = state.to_json()
    snap = data["state"]
    rest = snap["stack"][1:]
    snap["stack"] = ["Y2"]
    snap["piles"][0] = rest[:30]
    snap["piles"][1] = rest[30:]
    state = position.restore(data, state)
    tops = (rest[29], rest[-1])
    play(state, (0, "flip"), (0, "sell"))  # Y2 goes on pile 0, the stack is empty
    assert state.view(None)["stack"] == 0
    play(state, (1, "flip"))
    view = state.view(None)
    assert view["seats"][0]["discard_pile"] == ["Y2"]
    assert view["seats"][1]["discard_pile"] == [tops[1]]
    assert view["stack"] == 58 - 1, "all but the tops, minus the candle just flipped"


def test_nothing_to_flip_and_nothing_affordable_passes_and_a_dead_round_ends_the_game() -> None:
    state = game(deck=[])
    data = state.to_json()
    snap = data["state"]
    snap["screens"][0] = sorted(snap["stack"][:30], key=list(TYPE_OF).index)
    snap["screens"][1] = sorted(snap["stack"][30:], key=list(TYPE_OF).index)
    snap["stack"] = []
    state = position.restore(data, state)
    assert state.legal_actions(0) == ["pass"]
    play(state, (0, "pass"), (1, "pass"))
    assert state.is_over and state.view(None)["end_reason"] == "stalled"
    assert not state.truncated


# ----------------------------------------------------------------------------- winning
def test_eight_colours_win_at_once_dancing_fills_duplicates_do_not() -> None:
    seven = ["Y2", "O2", "G2", "W2", "R5", "B5", "P5"]
    state = craft(game(deck=["Y3", "D9"]), screens={0: seven})
    play(state, (0, "flip"), (0, "buy"))
    assert not state.is_over, "a second Yellow is a duplicate"
    play(state, (1, "flip"), (1, "auction 1"), (0, "bid 2"))
    assert state.is_over, "the game ends at once, even in another player's auction"
    assert state.winners == (0,) and state.scores == (1.0, 0.0)
    assert state.view(None)["end_reason"] == "menorah"


def test_max_turns_truncates_and_most_colours_win() -> None:
    state = craft(game(deck=["Y2", "R5"], max_turns=2), screens={1: ["G2"]})
    play(state, (0, "flip"), (0, "sell"), (1, "flip"), (1, "buy"))
    assert state.is_over and state.truncated
    assert state.winners == (1,)
    assert state.scores == (0.0, 1.0)


# ----------------------------------------------------------------------------- advanced scoring
def _screen(*codes: str) -> dict[int, int]:
    return dict(Counter(TYPE_OF[c] for c in codes))


def test_advanced_value_excludes_duplicates_and_unlit() -> None:
    assert candle_value(_screen("Y2", "Y6", "U6", "R8")) == 6 + 8
    assert candle_value(_screen("Y6", "Y6")) == 6


def test_dancing_takes_the_place_of_a_colour() -> None:
    eight = ["Y2", "O2", "G2", "W2", "R5", "B5", "P5", "S5"]
    assert candle_value(_screen(*eight)) == 28
    assert candle_value(_screen(*eight, "D10")) == 28 - 2 + 10, "best use: in place of a 2"
    assert candle_value(_screen("D9", "D9", "D10")) == 28
    assert candle_value(_screen("R5", "D9", "D10")) == 24, "fewer than eight places: all count"


def test_the_dancing_option_is_retired_and_games_that_carry_it_still_load() -> None:
    """CQ-14: no reachable collection has a spare Dancing candle, so 'dancing' never mattered."""
    advanced = candlebox.game_info("candle-quest").variant("advanced")
    assert "dancing" not in [option.name for option in advanced.options]
    for rule in ("menorah", "all"):
        state = candlebox.new_game(
            "candle-quest", players=3, variant="advanced", seed=5, dancing=rule, max_turns=40
        )
        assert "dancing" not in state.options
        while not state.is_over:
            seat = state.to_act[0]
            state.apply(seat, state.legal_actions(seat)[-1])
        old = json.loads(json.dumps(state.to_json()))
        old["options"]["dancing"] = rule  # a game saved while the option existed
        again = candlebox.load(old)
        assert again.scores == state.scores and again.to_json() == state.to_json()
    for variant in ("basic", "junior"):  # a configuration written for every variant
        state = candlebox.new_game("candle-quest", variant=variant, seed=1, dancing="all")
        assert "dancing" not in state.options


@pytest.mark.parametrize("seed", range(8))
def test_lit_colours_and_dancing_candles_never_pass_eight(seed: int) -> None:
    """Why the option was inert: the game ends when they reach eight, so no Dancing is spare."""
    state = candlebox.new_game(
        "candle-quest", players=2 + seed % 4, variant="advanced", seed=seed, max_turns=300
    )
    facts = candlebox.game_info("candle-quest").facts["candles"]
    step = 0
    while not state.is_over:
        seat = state.to_act[0]
        actions = state.legal_actions(seat)
        state.apply(seat, actions[(seed + step) % len(actions)])
        step += 1
        for owner in range(state.num_players):
            mine = state.view(owner)["seats"][owner]["candles"]
            colours = {facts[c]["colour"] for c in mine if facts[c]["kind"] == "lit"}
            wild = sum(facts[c]["kind"] == "dancing" for c in mine)
            assert len(colours) + wild <= 8, (seed, step, mine)


def test_shekels_count_up_to_half_the_candle_value() -> None:
    state = craft(game(variant="advanced", deck=["S5"], max_turns=1), screens={0: ["R7", "B8"]})
    play(state, (0, "flip"), (0, "sell"))  # 15 candle value; 14 shekels count as 7
    assert state.scores[0] == 15 + 7


def test_advanced_tie_shared_or_by_shekels() -> None:
    for rule, winners in (("shared", (0, 1)), ("shekels", (1,))):
        state = game(variant="advanced", deck=["Y2", "O2"], max_turns=2, tiebreak=rule)
        state = craft(state, screens={0: ["R8"], 1: ["B8"]}, shekels={0: 10, 1: 11})
        play(state, (0, "flip"), (0, "sell"), (1, "flip"), (1, "sell"))
        assert state.scores[0] == state.scores[1] == 12
        assert state.winners == winners


# ----------------------------------------------------------------------------- junior
def test_junior_has_no_auction_and_no_loot() -> None:
    state = craft(game(variant="junior", deck=["R8"]), piles={1: ["Y2"]})
    assert state.legal_actions(0) == ["flip"]
    play(state, (0, "flip"))
    assert state.legal_actions(0) == ["buy", "sell"]


def test_junior_force_a_gift_with_an_unlit_candle() -> None:
    state = craft(game(variant="junior", deck=["R8"]), screens={0: ["U4"], 1: ["Y2", "B7"]})
    assert state.legal_actions(0) == ["flip", "force 1"]
    play(state, (0, "force 1"))
    assert state.to_act == (1,), "the other player decides what to give"
    assert state.legal_actions(1) == ["give Y2", "give B7"]
    play(state, (1, "give Y2"))
    assert seat_info(state, 0)["candles"] == ["Y2"]
    assert state.view(None)["removed"][-1] == "U4"
    assert state.to_act == (1,), "the force replaced seat 0's turn"


def test_junior_cannot_force_a_player_with_nothing_and_may_be_given_an_unlit() -> None:
    state = craft(game(variant="junior", players=3, deck=["R8"]), screens={0: ["U4"], 2: ["U4"]})
    assert state.legal_actions(0) == ["flip", "force 2"]
    play(state, (0, "force 2"), (2, "give U4"))
    assert seat_info(state, 0)["candles"] == ["U4"]


def test_junior_force_cannot_answer_a_flipped_unlit() -> None:
    state = craft(game(variant="junior", deck=["U4"]), screens={0: ["U4"], 1: ["Y2"]})
    play(state, (0, "flip"))
    assert state.legal_actions(0) == ["discard U4", "pay 4"]


# ----------------------------------------------------------------------------- refusals
def test_illegal_actions_say_what_is_wrong_and_change_nothing() -> None:
    state = game(deck=["R7"])
    play(state, (0, "flip"))
    before = json.dumps(state.to_json())
    cases = {
        (0, "auction 20"): "not legal now",
        (1, "buy"): "seat 1 does not act now: seat 0 is to buy, sell or auction R7",
        (0, "bye"): "unknown action 'bye'",
        (0, "auction x"): "followed by a number of shekels",
        (0, "discard Q1"): "candle code",
        (7, "buy"): "not a seat",
    }
    for (seat, action), message in cases.items():
        with pytest.raises(candlebox.IllegalAction, match=message) as refused:
            state.apply(seat, action)
        assert "auction 1–12" in str(refused.value) or seat != 0
        assert json.dumps(state.to_json()) == before


def test_malformed_saves_are_refused_clearly() -> None:
    like = game(deck=["R7"])
    data = like.to_json()
    broken = json.loads(json.dumps(data))
    broken["state"]["stack"].pop()
    with pytest.raises(ValueError, match="do not add up"):
        position.restore(broken, like)
    with pytest.raises(ValueError, match=r"differs in state\.stack"):
        candlebox.load(broken)
    broken = json.loads(json.dumps(data))
    broken["state"]["shekels"][0] = "lots"
    with pytest.raises(ValueError, match="shekels"):
        position.restore(broken, like)
    broken = json.loads(json.dumps(data))
    broken["state"]["bank"] += 1
    with pytest.raises(ValueError, match="shekels add up"):
        position.restore(broken, like)
    with pytest.raises(ValueError, match=r"differs in state\.bank"):
        candlebox.load(broken)
    with pytest.raises(ValueError, match="unknown game"):
        candlebox.load({"game": "chess"})
