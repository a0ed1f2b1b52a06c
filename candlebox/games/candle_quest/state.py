"""The Candle Quest state: plain data in slots, the pending decision, and dispatch to the rule modules."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from candlebox.engine import MoveKind, State
from candlebox.engine.wiring import Wiring
from candlebox.games.candle_quest.candles import Candles, candles_of
from candlebox.games.candle_quest.decision import FOR_GUARD, NAMES, Phase
from candlebox.games.candle_quest.notation import malformed
from candlebox.games.candle_quest.views import CandleQuestView

GAME_ID = "candle-quest"
_SEATS = tuple((seat,) for seat in range(8))

# Applies an action of a phase: (state, seat, verb, argument).
_Handler = Callable[["CandleQuestState", int, str, str], None]


# The rule modules, wired in by the game's ``__init__`` (this module is a leaf they import).
WIRING: Wiring[CandleQuestState, Phase, _Handler, CandleQuestView] = Wiring()
# Bound once: ``_legal_for`` and ``_do`` run at every step, and ``wire`` fills these dicts in place.
_DO = WIRING.do
_LEGAL = WIRING.legal


class CandleQuestState(State):
    # docs/notation/candle-quest.md; every candle's whereabouts is public (rulings: 'Screens'), so
    # no action is private.
    MOVES = (
        MoveKind("flip", "turn over the top candle of the draw stack"),
        MoveKind("loot", "take the top candle of a discard pile, paying for it"),
        MoveKind("force", "junior: discard an Unlit candle to make a seat give you a candle"),
        MoveKind("give", "junior: the candle you give when forced"),
        MoveKind("buy", "pay the flipped candle's face value to the bank"),
        MoveKind("sell", "the bank pays the flipped candle's sell value"),
        MoveKind("auction", "open an auction of the flipped candle"),
        MoveKind("bid", "bid in the auction"),
        MoveKind("pass", "decline to bid, or pass a turn with nothing else to do"),
        MoveKind("discard", "give a collected candle towards a payment"),
        MoveKind("pay", "pay the rest of a payment in shekels"),
    )
    __slots__ = (
        "active",  # whose turn it is
        "actor",  # who owes the pending decision
        "advanced",
        "aside",  # Unlit candles set aside this turn
        "bank",
        "bonus",  # this turn is a bonus turn (after guarding): further Unlit candles are set aside
        "completer",
        "content",  # the candles played (printed or a pack's): shared, immutable, never copied
        "due",  # still owed in the payment being made
        "end_reason",
        "final",  # final scores
        "high",  # the auction's high bid and bidder
        "high_bidder",
        "junior",
        "loot_from",
        "max_turns",
        "passes",  # consecutive turns passed for want of any action
        "paying",  # what the payment is for (FOR_LOOT, FOR_GUARD)
        "phase",
        "piles",  # each seat's discard pile, bottom to top
        "removed",  # removed from the game
        "screens",  # each seat's collected candles: type -> count
        "shekels",
        "stack",  # type numbers; the top is the end of the list
        "table",  # the candle face up on the table (flipped, being looted or guarded), -1 if none
        "turns",  # completed turns
        "winners",
        "worth",  # each seat's face value total behind the screen (derived; kept for speed)
    )

    def __init__(self, variant: str, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(GAME_ID, variant, players, seed, options)
        self.content: Candles = candles_of(options)
        self.junior = variant == "junior"
        self.advanced = variant == "advanced"
        self.max_turns = options["max_turns"]
        self.stack: list[int] = []
        self.piles: list[list[int]] = [[] for _ in range(players)]
        self.screens: list[dict[int, int]] = [{} for _ in range(players)]
        self.worth = [0] * players
        self.shekels = [0] * players
        self.bank = 0
        self.table = -1
        self.aside: list[int] = []
        self.removed: list[int] = []
        self.active = self.actor = 0
        self.phase = Phase.TURN
        self.bonus = False
        self.due = 0
        self.paying = FOR_GUARD
        self.loot_from = -1
        self.high = self.high_bidder = -1
        self.turns = 0
        self.passes = 0
        self.winners: tuple[int, ...] = ()
        self.final: tuple[float, ...] = ()
        self.end_reason = ""
        self.completer = -1

    # ------------------------------------------------------------------ contract
    @property
    def to_act(self) -> tuple[int, ...]:
        return () if self.phase is Phase.OVER else _SEATS[self.actor]

    def _legal_for(self, seat: int) -> list[str]:
        if seat != self.actor or self.phase is Phase.OVER:
            return []
        return _LEGAL[self.phase](self, seat)

    def _do(self, seat: int, action: str) -> None:
        verb, _, arg = action.partition(" ")
        _DO[self.phase](self, seat, verb, arg)

    def _malformed(self, action: str) -> str | None:
        return malformed(action, self.content.type_of)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def truncated(self) -> bool:
        return self.end_reason == "max-turns"

    @property
    def scores(self) -> tuple[float, ...]:
        return self.final if self.phase is Phase.OVER else (0.0,) * self.num_players

    def pending(self) -> dict[str, Any] | None:
        if self.phase is Phase.OVER:
            return None
        info: dict[str, Any] = {"decision": NAMES[self.phase], "seats": [self.actor]}
        if self.table >= 0:
            info["candle"] = self.content.code[self.table]
        if self.phase is Phase.TURN:
            info["bonus_turn"] = self.bonus
        elif self.phase is Phase.BID:
            info.update(auctioneer=self.active, high_bid=self.high, high_bidder=self.high_bidder)
        elif self.phase is Phase.PAY:
            info.update(paying_for="guard" if self.paying == FOR_GUARD else "loot", due=self.due)
        elif self.phase is Phase.GIVE:
            info["to"] = self.active
        return info

    def describe_pending(self) -> str:
        return WIRING.rules.describe(self)

    # ------------------------------------------------------------------ information
    def _typed_view(self, seat: int | None) -> CandleQuestView:
        return WIRING.rules.view(self, seat)

    def _event_view(self, event: tuple, seat: int | None) -> dict[str, Any] | None:
        return WIRING.rules.event_view(event, seat)

    def _resample(self, seat: int, seed: int) -> State:
        return WIRING.rules.resample(self, seat, seed)

    def content_pack(self) -> str | None:
        return self.content.pack

    def _snapshot(self) -> dict[str, Any]:
        return WIRING.rules.snapshot(self)
