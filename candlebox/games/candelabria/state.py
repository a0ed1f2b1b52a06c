"""The Candelabria state: plain data in slots (lists indexed by seat, territory, region or curse place),
the stack of pending decisions, and the contract's methods.

Two slots are shared references, not data: ``content`` (the content pack's tables) and ``board`` (the
side in play); both are immutable, so ``clone`` shares them and ``to_json`` records only the content
folder (in the options) from which they are rebuilt.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from candlebox.engine import MoveKind, State
from candlebox.engine.packs import pack_hash
from candlebox.engine.wiring import StackRules, StackWiring
from candlebox.games.candelabria.board import Board, board_for
from candlebox.games.candelabria.components import Content, content_of
from candlebox.games.candelabria.decision import IDLE, Phase
from candlebox.games.candelabria.marks import new_marks
from candlebox.games.candelabria.notation import Notation, malformed, notation_for
from candlebox.games.candelabria.views import CandelabriaView

GAME_ID = "candelabria"
_SEATS = tuple((seat,) for seat in range(8))


# The rule modules (flow, war, view, save, setup), wired in by the package's ``__init__``: the rule
# modules import this module (a leaf: data and the contract), so it cannot import them.
WIRING: StackWiring[StackRules[CandelabriaState, CandelabriaView]] = StackWiring()


class CandelabriaState(State):
    __slots__ = (
        "active",  # the seat whose Kindling turn it is
        "advanced_deck",  # the Advanced Candle deck, top last
        "advanced_known_by",  # for each card of adeck: -1 nobody knows it, a seat that alone knows it, -2 everyone
        "battle",  # the participants of the battle being fought, in turn order
        "battles_left",  # regions still to fight this War, in order
        "board",  # shared tables of the board side in play (immutable)
        "boxed_candles",  # candle cards out of the game (houses not in play)
        "candle_flame_supply",  # seat -> Candle Flames in the supply
        "candle_flames",  # seat -> role -> flames on the candle
        "candle_territories",  # seat -> role -> territory of the candle, -1 when not on the map
        "castle_entry_optional",
        "castles",  # seat -> territory of its Wandering Castle
        "content",  # shared tables of the content pack (immutable)
        "corrupted",  # bitmask of corrupted region numbers
        "curse_deck",  # the Curse deck, top last: curse ids, or ~card for a house candle card
        "curse_influence",  # curse place -> seat -> flames in front of it
        "curse_models",  # curse place -> territory of its model, -1 not on the map (War)
        "curse_owners",  # curse place -> the seat controlling its model, -1 none (War)
        "curses",  # curse cards on the Curse Board, left to right
        "curses_granted",  # curses granted so far in this War Preparation
        "curses_out",  # curse cards out of the game
        "decay_deck",  # Decay: the Decay deck, top last ([] option off)
        "decay_slots",  # Decay: seat -> the decay card over War Board slot 1 and 2, -1 none
        "end_reason",
        "final_scores",
        "gold",
        "hands",  # seat -> candle cards in hand
        "house_of",  # seat -> house index
        "known_hands",  # seat -> the cards in its hand everyone knows are there (rulings CA-39)
        "land_flame_supply",  # seat -> Land Flames in the supply
        "land_flames",  # territory -> bitmask of seats with a Land Flame there
        "land_flames_by_icon",  # seat -> icon -> territories with that icon holding the seat's Land Flame
        "maneuvered",  # seat -> candle cards discarded to maneuver (face up)
        "marks",  # a change mark per part the observation reads, moved where the rules write it (marks.py)
        "max_turns",
        "mission_box",  # missions: the cards in the box (not dealt)
        "mission_cancels",  # missions: seat -> cancels against each seat in the battle under way
        "mission_places",  # missions: mission -> places (a seat, -1 free, -2 blocked); [] missions off
        "mission_tally",  # missions: seat -> [resources, purchases, tactic cards] in the action under way
        "notation",  # shared action strings (immutable)
        "order",  # seats, first to last on the turn order track
        "played_tactics",  # seat -> [slot 1, slot 2]: revealed tactic card, -1 none/cancelled, -2 resolved
        "private_missions",  # missions: seat -> its private mission
        "public_missions",  # missions: the public missions
        "reserve_gold",  # the reserve
        "reserve_wax",
        "seal_cards",  # seat -> role -> candle card on that seal slot, -1 when free
        "seat_of",  # house index -> seat, -1 when the house is not in play
        "secret_tactics",  # seat -> its secret choice [slot 1, slot 2] (-1 empty), [] not chosen yet
        "set_aside",  # cards drawn by Nova Vita's power, waiting for the choice
        "side",  # "large" or "small"
        "stack",  # the pending decisions (decision.py)
        "tactics",  # seat -> tactic card types owned (on the War Board)
        "tactics_board",  # the face-up Tactics board (tactic types)
        "tactics_deck",  # the Tactics deck, top last
        "tactics_used",  # seat -> tactic cards played or cancelled this War (back on the War Board after)
        "temple_supply",  # temple levels left by colour
        "temples",  # region number -> temple colours, bottom to top
        "turns",  # Kindling turns taken so far (max_turns bounds them)
        "two_player",  # the 2-player mode: curses on the map from Mist, no curse control (variant two-player)
        "upgrade_box",  # upgrade tiles left in the box (rulings CA-13)
        "upgrade_piles",  # the Upgrade Board: 9 piles of tile types, top last
        "upgrades",  # seat -> upgrade tile types on the House Board
        "vp",
        "warrior_push_optional",
        "wax",
        "winning_seats",
        "year",
    )
    # 2: the K12 tally restarts at each curse granted, and each tactic card resolves (is logged and
    # spent) in its turn (rulings CA-M4, CA-W3): histories saved before replay to other positions.
    RULES_VERSION = 2
    # docs/notation/candelabria.md. Private: the secret tactic choice, the card Nova Vita keeps, the
    # card put under the Advanced deck (rulings CA-39).
    MOVES = (
        MoveKind("deploy", "deploy a candle card in a role"),
        MoveKind("maneuver", "discard a candle card to maneuver"),
        MoveKind("at", "the territory where a candle or a curse goes"),
        MoveKind("move", "move a model in a maneuver"),
        MoveKind("extra", "burn a flame to move a candle again"),
        MoveKind("done", "stop moving, buying or relocating"),
        MoveKind("destroy", "what the entering castle destroys"),
        MoveKind("push", "the enemy candle the Warrior pushes"),
        MoveKind("to", "where a pushed, relocated or lifted piece goes"),
        MoveKind("spare", "destroy or push nothing (optional rules)"),
        MoveKind("curse", "a Land Flame in front of a curse"),
        MoveKind("supply", "the extinguished Land Flame goes back to the supply"),
        MoveKind("take", "a Tactic card from the Tactics board"),
        MoveKind("upgrade", "the top tile of an Upgrade pile"),
        MoveKind("temple", "a Temple level for a region"),
        MoveKind("mine", "the resources a Mine gives"),
        MoveKind("relocate", "a miniature to move through the Portal"),
        MoveKind("keep", "the card Nova Vita keeps of the three drawn", redact=True),
        MoveKind("return", "a card from the hand under the Advanced deck", redact=True),
        MoveKind("ignite", "a flame onto a candle or a Land Flame onto a territory"),
        MoveKind("extinguish", "the territory, then the enemy flame extinguished"),
        MoveKind("steal", "a resource from a house"),
        MoveKind("raze", "the top Temple level of a region"),
        MoveKind("shift", "move a candle to a neighbouring territory"),
        MoveKind("stay", "do not move"),
        MoveKind("skip", "forgo the rest of an effect"),
        MoveKind("recast", "perform again a candle's card effects"),
        MoveKind("lift", "take a candle of the region to place elsewhere"),
        MoveKind("play", "the secret choice of tactic cards for the War Board", redact=True),
        MoveKind("cancel", "cancel another house's tactic card"),
        MoveKind("pass", "cancel nothing more"),
        MoveKind("house", "two-player: the start region's house"),
        MoveKind("decay", "the War Board slot a Decay card covers"),
        MoveKind("either", "which effect of an either-or Decay card"),
        MoveKind("haunt", "move a curse to a neighbouring territory"),
    )

    def __init__(self, variant: str, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(GAME_ID, variant, players, seed, options)
        n = players
        self.content: Content = content_of(options)
        self.side = "small" if n <= 3 else "large"
        self.two_player = variant == "two-player"
        self.board: Board = board_for(self.content, self.side)
        self.notation: Notation = notation_for(self.content, self.board)
        self.max_turns = options["max_turns"]
        self.warrior_push_optional = options.get("warrior_push") == "optional"
        self.castle_entry_optional = options.get("castle_entry") == "optional"
        self.marks = new_marks(n)
        self.house_of = [-1] * n
        self.seat_of = [-1] * len(self.content.houses)
        self.order = list(range(n))
        self.year = 1
        self.turns = 0
        self.active = 0
        self.land_flames = [0] * self.board.size
        self.land_flames_by_icon = [[0] * 6 for _ in range(n)]
        self.castles = [-1] * n
        self.candle_territories = [[-1, -1, -1] for _ in range(n)]
        self.candle_flames = [[0, 0, 0] for _ in range(n)]
        self.seal_cards = [[-1, -1, -1] for _ in range(n)]
        self.land_flame_supply = [0] * n
        self.candle_flame_supply = [0] * n
        self.gold = [0] * n
        self.wax = [0] * n
        self.vp = [0] * n
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.known_hands: list[list[int]] = [[] for _ in range(n)]
        self.maneuvered: list[list[int]] = [[] for _ in range(n)]
        self.upgrades: list[list[int]] = [[] for _ in range(n)]
        self.tactics: list[list[int]] = [[] for _ in range(n)]
        self.tactics_board: list[int] = []
        self.tactics_deck: list[int] = []
        self.upgrade_piles: list[list[int]] = [[] for _ in range(9)]
        self.upgrade_box: list[int] = []
        self.temples: list[list[int]] = [[] for _ in range(self.board.max_region + 1)]
        self.temple_supply = list(self.content.temples)
        self.reserve_gold, self.reserve_wax = self.content.reserve
        self.curses: list[int] = []
        self.curse_influence: list[list[int]] = []
        self.corrupted = 0
        self.curse_deck: list[int] = []
        self.curses_out: list[int] = []
        self.advanced_deck: list[int] = []
        self.advanced_known_by: list[int] = []
        self.set_aside: list[int] = []
        self.boxed_candles: list[int] = []
        self.stack: list[list[int]] = []
        self.curses_granted = 0
        self.curse_models: list[int] = []
        self.curse_owners: list[int] = []
        self.battles_left: list[int] = []
        self.battle: list[int] = []
        self.secret_tactics: list[list[int]] = [[] for _ in range(n)]
        self.played_tactics: list[list[int]] = [[-1, -1] for _ in range(n)]
        self.tactics_used: list[list[int]] = [[] for _ in range(n)]
        self.decay_deck: list[int] = []
        self.decay_slots: list[list[int]] = []
        self.mission_places: list[list[int]] = []
        self.mission_box: list[int] = []
        self.public_missions: list[int] = []
        self.private_missions: list[int] = []
        self.mission_tally: list[list[int]] = []
        self.mission_cancels: list[list[int]] = []
        self.end_reason = ""
        self.final_scores: tuple[float, ...] = ()
        self.winning_seats: tuple[int, ...] = ()

    # ------------------------------------------------------------------ contract
    @property
    def phase(self) -> int:
        return self.stack[-1][0] if self.stack else Phase.OVER

    @property
    def to_act(self) -> tuple[int, ...]:
        frame = self.stack[-1]
        if frame[0] in IDLE:
            return ()
        if frame[0] == Phase.SECRET:
            return WIRING.rules.waiting(self)
        return _SEATS[frame[1]]

    def _legal_for(self, seat: int) -> list[str]:
        frame = self.stack[-1]
        rules = WIRING.rules
        if frame[0] == Phase.SECRET:
            return rules.secret_actions(self, seat) if seat in rules.waiting(self) else []
        if frame[0] in IDLE or seat != frame[1]:
            return []
        return rules.legal(self, frame)

    def _do(self, seat: int, action: str) -> None:
        WIRING.rules.do(self, seat, action)

    def _malformed(self, action: str) -> str | None:
        return malformed(self.notation, action)

    @property
    def is_over(self) -> bool:
        return self.stack[-1][0] == Phase.OVER

    @property
    def truncated(self) -> bool:
        return self.end_reason == "max-turns"

    @property
    def winners(self) -> tuple[int, ...]:
        return self.winning_seats

    @property
    def scores(self) -> tuple[float, ...]:
        return self.final_scores if self.is_over else (0.0,) * self.num_players

    def pending(self) -> dict[str, Any] | None:
        return WIRING.rules.pending(self, None)

    def describe_pending(self) -> str:
        return WIRING.rules.describe(self)

    # ------------------------------------------------------------------ information
    def _typed_view(self, seat: int | None) -> CandelabriaView:
        return WIRING.rules.view(self, seat)

    def _event_view(self, event: tuple, seat: int | None) -> dict[str, Any] | None:
        return WIRING.rules.event_view(event, seat)

    def _resample(self, seat: int, seed: int) -> State:
        return WIRING.rules.resample(self, seat, seed)

    def content_pack(self) -> str | None:
        folder = self.options.get("content")
        return None if folder is None else pack_hash(str(Path(folder).expanduser().resolve()))

    def _snapshot(self) -> dict[str, Any]:
        return WIRING.rules.snapshot(self)

    def _saved_snapshot(self, saved: dict[str, Any]) -> dict[str, Any]:
        return WIRING.rules.saved_snapshot(saved)

    # ------------------------------------------------------------------ helpers for the rules
    def house_code(self, seat: int) -> str:
        return self.content.houses[self.house_of[seat]].code
