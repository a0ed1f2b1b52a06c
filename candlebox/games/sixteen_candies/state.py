"""The 16 Candies state: plain data in slots, the pending decision, and dispatch to the rule modules."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from candlebox.engine import MoveKind, State
from candlebox.engine.wiring import Wiring
from candlebox.games.sixteen_candies.cards import Tables, tables_of
from candlebox.games.sixteen_candies.decision import NAMES, Phase
from candlebox.games.sixteen_candies.notation import Notation, notation_of
from candlebox.games.sixteen_candies.scoring import INSTANT_WINNER
from candlebox.games.sixteen_candies.views import SixteenCandiesView

GAME_ID = "sixteen-candies"

_Handler = Callable[["SixteenCandiesState", int, str], None]


# The rule modules, wired in by the game's ``__init__`` (this module is a leaf they import).
WIRING: Wiring[SixteenCandiesState, Phase, _Handler, SixteenCandiesView] = Wiring()
# Bound once: ``_legal_for`` and ``_do`` run at every step, and ``wire`` fills these dicts in place.
_DO = WIRING.do
_LEGAL = WIRING.legal


class SixteenCandiesState(State):
    __slots__ = (
        "active",  # whose turn it is (during SETUP: who is orienting)
        "actor",  # who owes the pending decision (-1 when over)
        "all_tied",  # option: how a call is scored when every hand is equal
        "caller",  # who called "I've got candy!" this round, -1 if nobody yet
        "cap",  # option pool_cap: the most a gain can take a pool to, or None
        "content",  # the deck played (printed or a pack's): shared, immutable, never copied
        "discard",  # the discard pile, bottom to top (the top is the end of the list)
        "draw",  # the draw pile; the top is the end of the list
        "end_reason",
        "epoch",  # reshuffles of the discard pile into the draw pile this round
        "final",  # final scores
        "hands",  # each seat's cards (types), sorted, the card just drawn last; [] when out
        "held_mode",  # option instant_win == "held"
        "instant_gain",  # option: candies an Instant Round Win adds (2, or 0 with 'none')
        "marker",  # who holds the First Player Marker
        "max_turns",
        "next_seat",  # the next seat clockwise still in the round (derived at each deal)
        "notation",  # the content's action texts (notation.Notation): shared, never copied
        "optional_draw",  # option draw == "optional"
        "phase",
        "pools",  # each seat's Health Pool
        "queue",  # SETUP: seats still to orient; after a call: seats still owed a final turn
        "rediscard",  # option: the card just taken from the discard pile may go straight back
        "round",  # rounds dealt so far (the current one's number)
        "round_start",  # index in events of the current round's "round" event
        "rounds_limit",  # option rounds, or None
        "rounds_played",  # rounds scored
        "srcs",  # each hand card's source: the index of the event that put it in the hand
        "start_pool",  # option pool
        "taken",  # the type taken from the discard pile this turn, -1 if none
        "turns",  # completed turns
        "ups",  # each hand card's orientation: 0 = its first half on top, 1 = its second
        "winners",
    )
    # docs/notation/sixteen-candies.md
    MOVES = (
        # how a hand is turned names its halves, which only its holder sees (rulings SC-21)
        MoveKind("top", "turn the cards of a new hand: the top half of each", redact=True),
        MoveKind("draw", "take the top card of the draw pile or of the discard pile"),
        MoveKind("skip", "draw nothing (draw=optional)"),
        MoveKind("discard", "put a card on the discard pile"),
        MoveKind("call", 'say "I\'ve got candy!"'),
        MoveKind("end", "end the turn without calling"),
    )

    def __init__(self, variant: str, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(GAME_ID, variant, players, seed, options)
        self.content: Tables = tables_of(options)
        self.notation: Notation = notation_of(self.content)
        self.notation.build_hands()  # once per process: a fresh one then plays at its warm speed
        self.max_turns: int = options["max_turns"]
        self.rounds_limit: int | None = options["rounds"]
        self.start_pool: int = options["pool"]
        self.cap: int | None = self.start_pool if options["pool_cap"] else None
        self.rediscard: bool = options["rediscard"]
        self.optional_draw: bool = options["draw"] == "optional"
        self.held_mode: bool = options["instant_win"] == "held"
        self.all_tied: str = options["all_tied"]
        self.instant_gain: int = INSTANT_WINNER if options["instant_gain"] == "two" else 0
        self.draw: list[int] = []
        self.discard: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.ups: list[list[int]] = [[] for _ in range(players)]
        self.srcs: list[list[int]] = [[] for _ in range(players)]
        self.pools = [self.start_pool] * players
        self.next_seat = [(seat + 1) % players for seat in range(players)]
        self.marker = self.active = self.actor = 0
        self.phase = Phase.SETUP
        self.queue: list[int] = []
        self.caller = -1
        self.taken = -1
        self.epoch = 0
        self.round = 0
        self.round_start = 0
        self.turns = 0
        self.rounds_played = 0
        self.winners: tuple[int, ...] = ()
        self.final: tuple[float, ...] = ()
        self.end_reason = ""

    # ------------------------------------------------------------------ contract
    @property
    def to_act(self) -> tuple[int, ...]:
        return () if self.phase is Phase.OVER else (self.actor,)

    def _legal_for(self, seat: int) -> list[str]:
        if seat != self.actor or self.phase is Phase.OVER:
            return []
        return _LEGAL[self.phase](self, seat)

    def _do(self, seat: int, action: str) -> None:
        _DO[self.phase](self, seat, action)

    def _malformed(self, action: str) -> str | None:
        return self.notation.malformed(action)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def truncated(self) -> bool:
        return self.end_reason == "max-turns"

    @property
    def scores(self) -> tuple[float, ...]:
        """The remaining Health Pools (final once the game is over)."""
        if self.phase is Phase.OVER:
            return self.final
        return tuple(float(pool) for pool in self.pools)

    def pending(self) -> dict[str, Any] | None:
        if self.phase is Phase.OVER:
            return None
        info: dict[str, Any] = {"decision": NAMES[self.phase], "seats": [self.actor]}
        if self.phase is not Phase.SETUP:
            info["final_turn"] = self.caller >= 0
        if self.phase is Phase.DISCARD and self.taken >= 0:
            info["taken"] = self.content.code[self.taken]
            info["may_discard_taken"] = self.rediscard
        return info

    def describe_pending(self) -> str:
        return WIRING.rules.describe(self)

    # ------------------------------------------------------------------ information
    def _typed_view(self, seat: int | None) -> SixteenCandiesView:
        return WIRING.rules.view(self, seat)

    def _event_view(self, event: tuple, seat: int | None) -> dict[str, Any] | None:
        return WIRING.rules.event_view(event, seat)

    def _resample(self, seat: int, seed: int) -> State:
        return WIRING.rules.resample(self, seat, seed)

    def _snapshot(self) -> dict[str, Any]:
        return WIRING.rules.snapshot(self)

    def content_pack(self) -> str | None:
        return self.content.pack
