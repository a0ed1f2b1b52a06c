"""Every worked example of the rulebook, replayed from a fixed deck through the public API."""

from __future__ import annotations

from candlebox.games.candle_quest.scoring import advanced_score
from tests.candle_quest.helpers import craft, game, play, seat_info


def test_buy_example() -> None:
    """'For a candle with a face value of 5, pay the bank 5 Shekels and take the candle.'"""
    state = game(deck=["B5"])
    bank = state.view(None)["bank"]
    play(state, (0, "flip"), (0, "buy"))
    assert seat_info(state, 0)["shekels"] == 12 - 5
    assert seat_info(state, 0)["candles"] == ["B5"]
    assert state.view(None)["bank"] == bank + 5


def test_sell_example() -> None:
    """'For a candle with a sell value of 3, take 3 Shekels from the bank, and place the candle on
    your discard pile.'"""
    state = game(deck=["R7"])  # face 7, sell 3
    bank = state.view(None)["bank"]
    play(state, (0, "flip"), (0, "sell"))
    assert seat_info(state, 0)["shekels"] == 12 + 3
    assert seat_info(state, 0)["discard_pile"] == ["R7"]
    assert seat_info(state, 0)["candles"] == []
    assert state.view(None)["bank"] == bank - 3


def test_auction_example() -> None:
    """Face value 4; you bid 2, left passes, across bids 4, right bids 5; right pays you 5."""
    state = game(players=4, deck=["Y4"])
    play(state, (0, "flip"), (0, "auction 2"))
    assert state.to_act == (1,), "the player on the left speaks first"
    play(state, (1, "pass"))
    assert "bid 2" not in state.legal_actions(2), "each bid must be higher than the last"
    assert "bid 3" in state.legal_actions(2)
    play(state, (2, "bid 4"))
    play(state, (3, "bid 5"))
    assert state.to_act == (1,), "the auctioneer does not bid again; play passes to the left"
    assert seat_info(state, 3)["candles"] == ["Y4"]
    assert seat_info(state, 3)["shekels"] == 12 - 5
    assert seat_info(state, 0)["shekels"] == 12 + 5
    assert seat_info(state, 2)["shekels"] == 12


def test_auction_won_by_the_auctioneer_pays_the_bank() -> None:
    state = game(players=3, deck=["Y4"])
    bank = state.view(None)["bank"]
    play(state, (0, "flip"), (0, "auction 3"), (1, "pass"), (2, "pass"))
    assert seat_info(state, 0)["candles"] == ["Y4"]
    assert seat_info(state, 0)["shekels"] == 9
    assert state.view(None)["bank"] == bank + 3


def _loot_position() -> tuple:
    """Seat 0 sells a Y5 (face 5, sell 2) onto its discard pile; seat 1 is to move."""
    state = game(deck=["Y5", "B6", "B5"])
    play(state, (0, "flip"), (0, "sell"))
    return state


def test_loot_example_in_shekels() -> None:
    """'This candle costs 5 plus 2, or 7. Pay 7 Shekels to the bank.'"""
    state = _loot_position()
    assert "loot 0" in state.legal_actions(1)
    bank = state.view(None)["bank"]
    play(state, (1, "loot 0"))
    assert state.view(1)["pending"]["due"] == 7
    play(state, (1, "pay 7"))
    assert seat_info(state, 1)["candles"] == ["Y5"]
    assert seat_info(state, 1)["shekels"] == 5
    assert state.view(None)["bank"] == bank + 7
    assert seat_info(state, 0)["discard_pile"] == []


def test_loot_example_in_candles_without_change() -> None:
    """'Discard candles adding up their face values (you do not receive change).'"""
    state = _loot_position()
    state = craft(state, screens={1: ["R8"]})
    play(state, (1, "loot 0"), (1, "discard R8"))
    assert seat_info(state, 1)["candles"] == ["Y5"]
    assert seat_info(state, 1)["shekels"] == 12, "8 for a 7 debt: no change"
    assert seat_info(state, 1)["discard_pile"] == ["R8"]


def test_loot_example_combined_and_in_chosen_order() -> None:
    """'Discard and pay any combination of candles and Shekels'; discards land in the chosen order."""
    state = _loot_position()
    state = craft(state, screens={1: ["G2", "W3", "U4"]})
    play(state, (1, "loot 0"), (1, "discard W3"), (1, "discard G2"))
    assert state.view(1)["pending"]["due"] == 2
    assert "discard U4" in state.legal_actions(1)
    play(state, (1, "pay 2"))
    assert seat_info(state, 1)["discard_pile"] == ["W3", "G2"]
    assert sorted(seat_info(state, 1)["candles"]) == ["U4", "Y5"]


def test_loot_with_an_unlit_candle_removes_it() -> None:
    state = _loot_position()
    state = craft(state, screens={1: ["U4", "U6"]})
    play(state, (1, "loot 0"), (1, "discard U4"), (1, "discard U6"))
    view = state.view(None)
    assert view["removed"] == ["U4", "U6"], "'Can I discard two Unlit Candles in one turn?' Yes."
    assert seat_info(state, 1)["discard_pile"] == []
    assert seat_info(state, 1)["candles"] == ["Y5"]


def test_guard_example_pay_six_then_bonus_turn() -> None:
    """'If you draw an unlit candle with a face value of 6 ... Pay 6 Shekels ... Take your bonus turn.'"""
    state = game(deck=["U6", "R7"])
    play(state, (0, "flip"))
    assert state.legal_actions(0) == ["pay 6"], "Unlit candles cannot be bought, sold or auctioned"
    play(state, (0, "pay 6"))
    assert seat_info(state, 0)["candles"] == ["U6"], "the Unlit candle goes behind the screen"
    assert state.to_act == (0,) and state.view(0)["pending"]["bonus_turn"]
    play(state, (0, "flip"), (0, "sell"))
    assert state.to_act == (1,), "the bonus turn is over, play passes left"


def test_guard_example_with_candles_no_change() -> None:
    state = craft(game(deck=["U6"]), screens={0: ["G2", "R8"]})
    play(state, (0, "flip"), (0, "discard R8"))
    assert sorted(seat_info(state, 0)["candles"]) == ["G2", "U6"]
    assert seat_info(state, 0)["shekels"] == 12
    assert seat_info(state, 0)["discard_pile"] == ["R8"]


def test_guard_example_combined() -> None:
    state = craft(game(deck=["U6"]), screens={0: ["G2"]})
    play(state, (0, "flip"), (0, "discard G2"), (0, "pay 4"))
    assert seat_info(state, 0)["candles"] == ["U6"]
    assert seat_info(state, 0)["shekels"] == 8


def test_advanced_scoring_example() -> None:
    """'Cards = 44, Coins = 9, Bonus = 3': the completer scores 56 in the printed example."""
    assert advanced_score(44, 9, completed=True) == 56
    # The same example played: seven colours behind seat 0's screen (39), 14 shekels, and an S5 to buy.
    state = game(variant="advanced", deck=["S5"])
    state = craft(state, screens={0: ["Y6", "O5", "G4", "W4", "R8", "B7", "P5"]}, shekels={0: 14})
    play(state, (0, "flip"), (0, "buy"))
    assert state.is_over and state.view(None)["end_reason"] == "menorah"
    assert seat_info(state, 0)["candle_value"] == 44
    assert seat_info(state, 0)["shekels"] == 9
    assert state.scores[0] == 56.0
    assert state.scores[1] == 0.0, "nothing collected: shekels count only up to half of 0"
    assert state.winners == (0,)
