"""The candle cards a determinization deals (redeal.py): a consistent deal is always found, late in
the game too, and never by handing over the real cards (rulings CA-39)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from candlebox.engine import Rng
from candlebox.games import candelabria
from candlebox.games.candelabria import CandelabriaState
from candlebox.games.candelabria import redeal as R
from candlebox.games.candelabria.heuristic import policy
from candlebox.games.candelabria.sight import glance


def _game(players: int, seed: int, missions: bool, heuristic: bool) -> Iterator[CandelabriaState]:
    """The states of a whole game, after each move (one state object, changed in place)."""
    state = candelabria.new_game(players=players, seed=seed, missions=missions)
    rng, prng = random.Random(seed), Rng(seed)
    while not state.is_over and state.to_act:
        seat = state.to_act[0]
        actions = state.legal_actions(seat)
        state.apply(
            seat, policy(glance(state, seat), actions, prng) if heuristic else rng.choice(actions)
        )
        yield state


def _hidden(state: CandelabriaState, deal: R.Redeal, seat: int) -> bool:
    """Whether the deal differs from the real cards somewhere ``seat`` cannot see."""
    others = [hand for s, hand in enumerate(state.hands) if s != seat]
    dealt = [hand for s, hand in enumerate(deal.hands) if s != seat]
    return dealt != others or deal.advanced_deck != state.advanced_deck


def test_late_in_the_reported_game_every_seat_gets_a_deal_of_its_own() -> None:
    """Seed 11: a house candle one seat returned is drawn, kept and maneuvered by another; every
    replay used to dead-end from move 401, and redeal silently kept the real cards."""
    moves = 0
    for state in _game(3, 11, missions=True, heuristic=False):
        moves += 1
        if moves < 390:
            continue
        for seat in range(3):
            deal = R.redeal(state, seat, Rng(moves * 3 + seat))
            assert _hidden(state, deal, seat), f"move {moves}: seat {seat} was dealt the real cards"
    assert moves > 450


class _Truth(R._Replay):
    """The replay that makes every secret choice as the real game did: the look-ahead must let each
    one pass (then the search, which tries every choice that passes, always finds a deal)."""

    def __init__(self, state: CandelabriaState, seat: int, initial: list[int]) -> None:
        super().__init__(state, seat, Rng(0), R._Facts(state, seat))
        self.real = {-1 - k: card for k, card in enumerate(initial)}  # the tokens' real cards
        self.pruned: list[int] = []
        self.want, self.pool = -1, list[int]()

    def truth(self, item: int) -> int:
        return item if item >= 0 else self.real[item]

    def take(self, owner: int, card: int) -> None:
        hand = self.hands[owner]  # the token that really is the card first (tokens are alike)
        hand.sort(key=lambda item: item >= 0 or item in self.value or self.real[item] != card)
        super().take(owner, card)

    def keep(self, k: int, event: tuple) -> None:
        self.want, self.pool = self.index[event[2]], list(self.set_aside)
        super().keep(k, event)

    def put_back(self, k: int, event: tuple) -> None:
        self.want, self.pool = self.index[event[2]], list(self.hands[event[1]])
        super().put_back(k, event)

    def choose(self, choices: list[int]) -> int:
        real = next(j for j, item in enumerate(self.pool) if self.truth(item) == self.want)
        if real not in choices:
            self.pruned.append(self.at)
        return real


def _check(state: CandelabriaState, initial: list[int], moves: int, seed: int) -> None:
    for seat in range(state.num_players):
        truth = _Truth(state, seat, initial)
        truth.run()
        assert not truth.pruned, f"move {moves}: seat {seat}: real choice refused at {truth.pruned}"
        deal = R.redeal(state, seat, Rng(seed + seat))
        unknown = sum(1 for mark in state.advanced_known_by if mark not in (seat, -2))
        assert _hidden(state, deal, seat) or unknown < 10  # (few unknown cards may well fall alike)


def _property(games: range, every: int) -> int:
    checked = 0
    for g in games:
        players, missions, heuristic = 3 + g % 3, bool(g // 3 % 2), bool(g // 6 % 2)
        initial = list(
            candelabria.new_game(players=players, seed=g, missions=missions).advanced_deck
        )
        moves = 0
        state = None
        for state in _game(players, g, missions, heuristic):
            moves += 1
            if moves % every == 0:
                _check(state, initial, moves, g * 1000 + moves)
                checked += 1
        assert state is not None
        _check(state, initial, moves, g)
        seat = g % players
        twin = state.resample(seat, g)
        assert twin.view(seat) == state.view(seat) and twin.log(seat) == state.log(seat)
    return checked


def test_any_game_redeals_without_refusing_the_real_history() -> None:
    """3-5 players, with and without missions, random and heuristic players: at points through the
    game and at its end, the real history passes every look-ahead, redeal finds a deal of its own,
    and the twin shows the seat what it saw."""
    assert _property(range(100, 112), every=150) > 20


@pytest.mark.slow
def test_many_games_redeal_without_refusing_the_real_history() -> None:
    assert _property(range(200, 236), every=15) > 1000


def test_a_search_that_finds_nothing_raises_naming_the_seat_and_the_event(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Were the look-ahead to refuse every choice (a bug), redeal says so instead of dealing the real
    cards, and leaves the state as it was."""
    state = next(s for m, s in enumerate(_game(3, 11, missions=True, heuristic=False)) if m == 200)
    first = next(
        k
        for k, event in enumerate(state.events)
        if event[0] in ("keep", "return") and event[1] != 0
    )
    saved = state.to_json()
    monkeypatch.setattr(R._Replay, "sound", lambda *args: False)
    with pytest.raises(R.RedealFailed, match=f"seat 0 saw .*event {first}") as failed:
        R.redeal(state, 0, Rng(1))
    assert (failed.value.seat, failed.value.event) == (0, first)
    assert state.to_json() == saved


def test_a_position_made_by_hand_deals_the_cards_nobody_placed_anew() -> None:
    """Events that do not bring the cards where they are (a position set by hand) leave no history
    to follow: the cards the seat cannot place are shuffled among those places."""
    state = candelabria.new_game(players=3, seed=4)
    held = state.content.candles[state.hands[1][0]].code
    state.events.append(("maneuver", 2, held))  # seat 2 shows a card seat 1 still holds
    deals = [R.redeal(state, 0, Rng(seed)) for seed in range(4)]
    for deal in deals:
        assert deal.hands[0] == state.hands[0] and deal.events == {}
        assert sorted(deal.advanced_deck) == sorted(state.advanced_deck)
        assert deal.hands[1:] == state.hands[1:]  # every card of their Year I hands is known
    assert any(_hidden(state, deal, 0) for deal in deals)
