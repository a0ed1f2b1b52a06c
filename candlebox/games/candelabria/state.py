"""The Candelabria state: plain data in slots (lists indexed by seat, territory, region or curse place),
the stack of pending decisions, and the contract's methods.

Two slots are shared references, not data: ``content`` (the content pack's tables) and ``board`` (the
side in play); both are immutable, so ``clone`` shares them and ``to_json`` records only the content
folder (in the options) from which they are rebuilt.
"""

from __future__ import annotations

from typing import Any

from candlebox.engine import MoveKind, State
from candlebox.games.candelabria import flow
from candlebox.games.candelabria.board import Board, board_for
from candlebox.games.candelabria.components import Content, load_content
from candlebox.games.candelabria.decision import IDLE, NAMES, Phase
from candlebox.games.candelabria.notation import Notation, malformed, notation_for
from candlebox.games.candelabria.war import secret_actions, waiting

GAME_ID = "candelabria"
_SEATS = tuple((seat,) for seat in range(8))


class CandelabriaState(State):
    __slots__ = (
        "active",  # the seat whose Kindling turn it is
        "adeck",  # the Advanced Candle deck, top last
        "amark",  # for each card of adeck: -1 nobody knows it, a seat that alone knows it, -2 everyone
        "aside",  # cards drawn by Nova Vita's power, waiting for the choice
        "board",  # shared tables of the board side in play (immutable)
        "boxed",  # candle cards out of the game (houses not in play)
        "castle",  # seat -> territory of its Wandering Castle
        "cdeck",  # the Curse deck, top last: curse ids, or ~card for a house candle card
        "cf_sup",  # seat -> Candle Flames in the supply
        "cfl",  # seat -> role -> flames on the candle
        "cinf",  # curse place -> seat -> flames in front of it
        "content",  # shared tables of the content pack (immutable)
        "corrupt",  # bitmask of corrupted region numbers
        "cout",  # curse cards out of the game
        "cown",  # curse place -> the seat controlling its model, -1 none (War)
        "cplace",  # curse place -> territory of its model, -1 not on the map (War)
        "cpos",  # seat -> role -> territory of the candle, -1 when not on the map
        "ctrl",  # seat -> icon -> territories with that icon holding the seat's Land Flame
        "curses",  # curse cards on the Curse Board, left to right
        "ddeck",  # Decay: the Decay deck, top last ([] option off)
        "dslot",  # Decay: seat -> the decay card over War Board slot 1 and 2, -1 none
        "duo",  # the 2-player mode: curses on the map from Mist, no curse control (variant two-player)
        "end_reason",
        "entry_optional",
        "fight",  # the participants of the battle being fought, in turn order
        "final",
        "gold",
        "granted",  # curses granted so far in this War Preparation
        "hand",  # seat -> candle cards in hand
        "house",  # seat -> house index
        "known",  # seat -> the cards in its hand everyone knows are there (rulings CA-39)
        "lf",  # territory -> bitmask of seats with a Land Flame there
        "lf_sup",  # seat -> Land Flames in the supply
        "max_turns",
        "mcount",  # missions: seat -> cancels against each seat in the battle under way
        "mdeck",  # missions: the cards in the box (not dealt)
        "mlock",  # missions: mission -> places (a seat, -1 free, -2 blocked); [] missions off
        "mpile",  # seat -> candle cards discarded to maneuver (face up)
        "mpriv",  # missions: seat -> its private mission
        "mpub",  # missions: the public missions
        "mtally",  # missions: seat -> [resources, purchases, tactic cards] in the action under way
        "notation",  # shared action strings (immutable)
        "order",  # seats, first to last on the turn order track
        "piles",  # the Upgrade Board: 9 piles of tile types, top last
        "played",  # seat -> [slot 1, slot 2]: revealed tactic card, -1 none/cancelled, -2 resolved
        "push_optional",
        "rcard",  # seat -> role -> candle card on that seal slot, -1 when free
        "rgold",  # the reserve
        "rwax",
        "seat_of",  # house index -> seat, -1 when the house is not in play
        "secret",  # seat -> its secret choice [slot 1, slot 2] (-1 empty), [] not chosen yet
        "side",  # "large" or "small"
        "stack",  # the pending decisions (decision.py)
        "tac",  # seat -> tactic card types owned (on the War Board)
        "tboard",  # the face-up Tactics board (tactic types)
        "tbox",  # upgrade tiles left in the box (rulings CA-13)
        "tdeck",  # the Tactics deck, top last
        "temples",  # region number -> temple colours, bottom to top
        "tsup",  # temple levels left by colour
        "turns",  # Kindling turns taken so far (max_turns bounds them)
        "tused",  # seat -> tactic cards played or cancelled this War (back on the War Board after)
        "upg",  # seat -> upgrade tile types on the House Board
        "vp",
        "wax",
        "win",
        "wlist",  # regions still to fight this War, in order
        "year",
    )
    # 2: the K12 tally restarts at each curse granted, and each tactic card resolves (is logged and
    # spent) in its turn (rulings CA-M4, CA-W3): histories saved before replay to other positions.
    RULES = 2
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
        self.content: Content = load_content(options.get("content"))
        self.side = "small" if n <= 3 else "large"
        self.duo = variant == "two-player"
        self.board: Board = board_for(self.content, self.side)
        self.notation: Notation = notation_for(self.content, self.board)
        self.max_turns = options["max_turns"]
        self.push_optional = options.get("warrior_push") == "optional"
        self.entry_optional = options.get("castle_entry") == "optional"
        self.house = [-1] * n
        self.seat_of = [-1] * len(self.content.houses)
        self.order = list(range(n))
        self.year = 1
        self.turns = 0
        self.active = 0
        self.lf = [0] * self.board.size
        self.ctrl = [[0] * 6 for _ in range(n)]
        self.castle = [-1] * n
        self.cpos = [[-1, -1, -1] for _ in range(n)]
        self.cfl = [[0, 0, 0] for _ in range(n)]
        self.rcard = [[-1, -1, -1] for _ in range(n)]
        self.lf_sup = [0] * n
        self.cf_sup = [0] * n
        self.gold = [0] * n
        self.wax = [0] * n
        self.vp = [0] * n
        self.hand: list[list[int]] = [[] for _ in range(n)]
        self.known: list[list[int]] = [[] for _ in range(n)]
        self.mpile: list[list[int]] = [[] for _ in range(n)]
        self.upg: list[list[int]] = [[] for _ in range(n)]
        self.tac: list[list[int]] = [[] for _ in range(n)]
        self.tboard: list[int] = []
        self.tdeck: list[int] = []
        self.piles: list[list[int]] = [[] for _ in range(9)]
        self.tbox: list[int] = []
        self.temples: list[list[int]] = [[] for _ in range(self.board.max_region + 1)]
        self.tsup = list(self.content.temples)
        self.rgold, self.rwax = self.content.reserve
        self.curses: list[int] = []
        self.cinf: list[list[int]] = []
        self.corrupt = 0
        self.cdeck: list[int] = []
        self.cout: list[int] = []
        self.adeck: list[int] = []
        self.amark: list[int] = []
        self.aside: list[int] = []
        self.boxed: list[int] = []
        self.stack: list[list[int]] = []
        self.granted = 0
        self.cplace: list[int] = []
        self.cown: list[int] = []
        self.wlist: list[int] = []
        self.fight: list[int] = []
        self.secret: list[list[int]] = [[] for _ in range(n)]
        self.played: list[list[int]] = [[-1, -1] for _ in range(n)]
        self.tused: list[list[int]] = [[] for _ in range(n)]
        self.ddeck: list[int] = []
        self.dslot: list[list[int]] = []
        self.mlock: list[list[int]] = []
        self.mdeck: list[int] = []
        self.mpub: list[int] = []
        self.mpriv: list[int] = []
        self.mtally: list[list[int]] = []
        self.mcount: list[list[int]] = []
        self.end_reason = ""
        self.final: tuple[float, ...] = ()
        self.win: tuple[int, ...] = ()

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
            return waiting(self)
        return _SEATS[frame[1]]

    def _legal_for(self, seat: int) -> list[str]:
        frame = self.stack[-1]
        if frame[0] == Phase.SECRET:
            return secret_actions(self, seat) if seat in waiting(self) else []
        if frame[0] in IDLE or seat != frame[1]:
            return []
        return flow.legal(self, frame)

    def _do(self, seat: int, action: str) -> None:
        flow.do(self, seat, action)

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
        return self.win

    @property
    def scores(self) -> tuple[float, ...]:
        return self.final if self.is_over else (0.0,) * self.num_players

    def pending(self) -> dict[str, Any] | None:
        from candlebox.games.candelabria.view import pending

        return pending(self, None)

    def describe_pending(self) -> str:
        from candlebox.games.candelabria.view import describe

        return describe(self)

    # ------------------------------------------------------------------ information
    def _view(self, seat: int | None) -> dict[str, Any]:
        from candlebox.games.candelabria.view import view

        return view(self, seat)

    def _event_view(self, event: tuple, seat: int | None) -> dict[str, Any] | None:
        from candlebox.games.candelabria.view import event_view

        return event_view(event, seat)

    def _resample(self, seat: int, seed: int) -> State:
        from candlebox.games.candelabria.save import resample

        return resample(self, seat, seed)

    def _snapshot(self) -> dict[str, Any]:
        from candlebox.games.candelabria.save import snapshot

        return snapshot(self)

    # ------------------------------------------------------------------ helpers for the rules
    def house_code(self, seat: int) -> str:
        return self.content.houses[self.house[seat]].code

    def phase_name(self) -> str:
        return NAMES[self.phase]
