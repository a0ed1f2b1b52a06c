"""Blind Bids: the rules (the state and the engine's contract).

Every player is dealt a hand of bid cards face down from a shuffled deck of cards numbered 1 to
``players × hand + 3`` (three stay unseen). A row of prize cards 1 to ``hand`` is shuffled face down.
Each round the top prize is turned up and every player at once chooses a card of their hand in
secret (a simultaneous choice); when the last has chosen, the bids are revealed and the highest
takes the prize's value in points. After ``hand`` rounds the most points win (ties share the win).

What a player cannot know: the others' hands and their bids until revealed, the prizes' order and
the unseen cards. ``_resample`` deals exactly that anew.
"""

from __future__ import annotations

from typing import Any

from candlebox.engine import MoveKind, Rng, State

from .views import BidsView, Pending, SeatView

GAME_ID = "blind-bids"
TITLE = "Blind Bids"
MAX_PLAYERS = 4
UNSEEN = 3  # bid cards left out of the deal, so a hand cannot be worked out from the others


def deck_size(players: int, hand: int) -> int:
    """The bid deck: cards 1 to this number."""
    return players * hand + UNSEEN


class BidsState(State):
    __slots__ = ("bids", "hands", "last", "points", "prize", "prizes", "round", "rounds", "unseen")
    MOVES = (MoveKind("bid", "play a card of your hand face down as your bid", redact=True),)

    def __init__(self, variant: str, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(GAME_ID, variant, players, seed, options)
        self.rounds: int = options["hand"]
        deck = list(range(1, deck_size(players, self.rounds) + 1))
        self.rng.shuffle(deck)
        self.hands = [sorted(deck[s * self.rounds : (s + 1) * self.rounds]) for s in range(players)]
        self.unseen = deck[players * self.rounds :]
        self.prizes = list(range(1, self.rounds + 1))
        self.rng.shuffle(self.prizes)
        self.bids = [0] * players  # this round's secret bids (0: not chosen yet)
        self.last: list[int] = []  # the bids revealed last round, by seat
        self.points = [0] * players
        self.round = 0
        self.prize = 0
        self._next_prize()

    # ----------------------------------------------------------------- the rounds
    def _next_prize(self) -> None:
        if self.round == self.rounds:
            self.prize = 0  # the game is over: no prize left to bid for
            self.events.append(("game-over", self.winners))
            return
        self.round += 1
        self.prize = self.prizes.pop()
        self.events.append(("prize", self.round, self.prize))

    def _reveal(self) -> None:
        best = max(range(self.num_players), key=lambda s: self.bids[s])
        self.points[best] += self.prize
        self.events.append(("reveal", tuple(self.bids), best, self.prize))
        self.last = self.bids
        self.bids = [0] * self.num_players
        self._next_prize()

    # ----------------------------------------------------------------- the contract
    @property
    def to_act(self) -> tuple[int, ...]:
        if self.is_over:
            return ()
        return tuple(s for s in range(self.num_players) if not self.bids[s])

    def pending(self) -> dict[str, Any] | None:
        return None if self.is_over else {"decision": "bid", "seats": list(self.to_act)}

    def describe_pending(self) -> str:
        return "over" if self.is_over else f"seats {list(self.to_act)} bid for a {self.prize}"

    def _legal_for(self, seat: int) -> list[str]:
        # Any value may be asked about, even one that is no seat (-1 would read the last seat's).
        if self.is_over or seat not in range(self.num_players) or self.bids[seat]:
            return []
        return [f"bid {card}" for card in self.hands[seat]]

    def _do(self, seat: int, action: str) -> None:
        card = int(action.split()[1])
        self.hands[seat].remove(card)
        self.bids[seat] = card
        self.events.append(("bid", seat, card))
        if all(self.bids):
            self._reveal()

    @property
    def is_over(self) -> bool:
        return self.prize == 0

    @property
    def truncated(self) -> bool:
        return False  # every game ends after its rounds

    @property
    def winners(self) -> tuple[int, ...]:
        if not self.is_over:
            return ()
        top = max(self.points)
        return tuple(s for s, p in enumerate(self.points) if p == top)

    @property
    def scores(self) -> tuple[float, ...]:
        return tuple(float(p) for p in self.points)

    def _typed_view(self, seat: int | None) -> BidsView:
        return typed_view(self, seat)

    def _event_view(self, event: tuple[Any, ...], seat: int | None) -> dict[str, Any] | None:
        kind = event[0]
        if kind == "prize":
            return {"event": "prize", "round": event[1], "prize": event[2]}
        if kind == "bid":
            entry: dict[str, Any] = {"event": "bid", "seat": event[1]}
            if seat == event[1]:
                entry["card"] = event[2]  # only the bidder sees the card before the reveal
            return entry
        if kind == "reveal":
            return {
                "event": "reveal",
                "bids": list(event[1]),
                "winner": event[2],
                "prize": event[3],
            }
        return {"event": "game-over", "reason": "rounds", "winners": list(event[1])}

    def _resample(self, seat: int, seed: int) -> State:
        twin = self.clone()
        assert isinstance(twin, BidsState)
        twin.rng = Rng(seed)
        others = [s for s in range(self.num_players) if s != seat]
        # Everything seat has not seen: the others' hands and secret bids, and the unseen cards.
        pool = list(twin.unseen)
        for other in others:
            pool += twin.hands[other]
            if twin.bids[other]:
                pool.append(twin.bids[other])
        # Sorted first, so the deal depends only on what seat knows and the seed (canonical): two
        # states seat cannot tell apart resample alike.
        pool.sort()
        twin.rng.shuffle(pool)
        for other in others:
            size = len(twin.hands[other])
            twin.hands[other] = sorted(pool[:size])
            del pool[:size]
            if twin.bids[other]:
                twin.bids[other] = pool.pop()
        twin.unseen = pool
        twin.prizes.sort()
        twin.rng.shuffle(twin.prizes)
        return twin

    def _snapshot(self) -> dict[str, Any]:
        return {
            "hands": [list(hand) for hand in self.hands],
            "bids": list(self.bids),
            "points": list(self.points),
            "prizes": list(self.prizes),
            "prize": self.prize,
            "round": self.round,
        }


def typed_view(state: BidsState, seat: int | None) -> BidsView:
    """What ``seat`` (None: a spectator) may know, as the typed view: the game's view function
    (``GameInfo.typed_view``; ``State.typed_view`` checks the seat, then builds it here)."""
    over = state.is_over
    return BidsView(
        seat=seat,
        round=state.round,
        rounds=state.rounds,
        prize=state.prize,
        prizes_left=len(state.prizes),
        hand=[] if seat is None else list(state.hands[seat]),
        my_bid=0 if seat is None else state.bids[seat],
        seats=[
            SeatView(
                seat=s,
                points=state.points[s],
                has_bid=bool(state.bids[s]),
                last_bid=state.last[s] if state.last else 0,
            )
            for s in range(state.num_players)
        ],
        pending=None if over else Pending(decision="bid", seats=list(state.to_act)),
        winners=list(state.winners),
    )
