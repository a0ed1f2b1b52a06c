"""Action notation (docs/notation/candelabria.md): short text, built once per content pack and board side.

Every legal action is one of the strings in these tables, so listing legal actions allocates no new text,
and :data:`Notation.parse` turns a string back into ``(verb, a, b)`` integers in one dictionary look-up.

Letters: models ``E`` Explorer, ``P`` Pilgrim, ``W`` Warrior, ``C`` Wandering Castle; houses by their
code (``C`` Cinis, ``R`` Rota Aurea, ``S`` Satores, ``N`` Nova Vita, ``L`` Luminis in the shipped pack);
an enemy candle is ``house-role`` (``N-W``: Nova Vita's Warrior); territories by name (``8b``); temples
``W`` White, ``G`` Grey, ``B`` Black; curses by their place on the Curse Board, 1 to 3 from the left.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

from candlebox.games.candelabria.board import Board
from candlebox.games.candelabria.components import Content
from candlebox.games.candelabria.decision import MODEL_LETTER, ROLE_LETTER
from candlebox.games.candelabria.schema import TEMPLES

MAX_WAREHOUSE = 10
TEMPLE_LETTER = "WGB"
RESOURCES = ("gold", "wax")


class Verb(IntEnum):
    DEPLOY = 0  # card, role
    MANEUVER = 1  # card
    AT = 2  # territory
    MOVE = 3  # model, territory
    EXTRA = 4  # candle, territory
    DONE = 5
    DESTROY_LAND = 6  # house
    DESTROY_CANDLE = 7  # house, role
    PUSH = 8  # house, role
    TO = 9  # territory
    CURSE = 10  # curse slot
    SUPPLY = 11
    TAKE = 12  # tactic type
    UPGRADE = 13  # pile
    TEMPLE = 14  # colour, region
    MINE = 15  # gold, wax
    RELOCATE = 16  # model
    KEEP = 17  # card
    RETURN = 18  # card
    IGNITE_CANDLE = 19  # role
    IGNITE_LAND = 20  # territory
    EXTINGUISH_AT = 21  # territory
    EXTINGUISH_LAND = 22  # house
    EXTINGUISH_CANDLE = 23  # house, role
    STEAL = 24  # house, resource
    RAZE = 25  # region
    SHIFT = 26  # role, territory
    STAY = 27
    SKIP = 28
    SPARE = 29
    PLAY = 30  # slot-1 tactic type + 1, slot-2 tactic type + 1 (0: no card)
    CANCEL = 31  # my slot, 2 * house + their slot
    PASS = 32
    RECAST = 33  # house, role
    LIFT = 34  # house, role
    HOUSE = 35  # house (2-player house choice)
    HAUNT = 36  # curse slot, territory (2-player: move a curse one territory)
    DECAY = 37  # War Board slot
    EITHER = 38  # alternative


VERBS = (
    "deploy",
    "maneuver",
    "at",
    "move",
    "extra",
    "done",
    "destroy",
    "push",
    "to",
    "curse",
    "supply",
    "take",
    "upgrade",
    "temple",
    "mine",
    "relocate",
    "keep",
    "return",
    "ignite",
    "extinguish",
    "steal",
    "raze",
    "shift",
    "stay",
    "skip",
    "spare",
    "play",
    "cancel",
    "pass",
    "recast",
    "lift",
    "house",
    "haunt",
    "decay",
    "either",
)


@dataclass
class Notation:
    deploy: list[list[str]] = field(default_factory=list)  # [card][role]
    maneuver: list[str] = field(default_factory=list)  # [card]
    at: list[str] = field(default_factory=list)  # [territory]
    move: list[list[str]] = field(default_factory=list)  # [model][territory]
    extra: list[list[str]] = field(default_factory=list)  # [role][territory]
    destroy_land: list[str] = field(default_factory=list)  # [house]
    destroy_candle: list[list[str]] = field(default_factory=list)  # [house][role]
    push: list[list[str]] = field(default_factory=list)  # [house][role]
    to: list[str] = field(default_factory=list)  # [territory]
    curse: list[str] = field(default_factory=list)  # [slot]
    take: list[str] = field(default_factory=list)  # [tactic type]
    upgrade: list[str] = field(default_factory=list)  # [pile]
    temple: list[list[str]] = field(default_factory=list)  # [colour][region]
    mine: list[list[str]] = field(default_factory=list)  # [gold][wax]
    relocate: list[str] = field(default_factory=list)  # [model]
    keep: list[str] = field(default_factory=list)  # [card]
    ret: list[str] = field(default_factory=list)  # [card]
    ignite_candle: list[str] = field(default_factory=list)  # [role]
    ignite_land: list[str] = field(default_factory=list)  # [territory]
    extinguish_at: list[str] = field(default_factory=list)  # [territory]
    extinguish_land: list[str] = field(default_factory=list)  # [house]
    extinguish_candle: list[list[str]] = field(default_factory=list)  # [house][role]
    steal: list[list[str]] = field(default_factory=list)  # [house][resource]
    raze: list[str] = field(default_factory=list)  # [region]
    shift: list[list[str]] = field(default_factory=list)  # [role][territory]
    play: list[list[str]] = field(default_factory=list)  # [slot-1 type + 1][slot-2 type + 1]
    cancel: list[list[list[str]]] = field(default_factory=list)  # [my slot][house][their slot]
    recast: list[list[str]] = field(default_factory=list)  # [house][role]
    lift: list[list[str]] = field(default_factory=list)  # [house][role]
    house: list[str] = field(default_factory=list)  # [house]
    haunt: list[list[str]] = field(default_factory=list)  # [curse slot][territory]
    decay: list[str] = field(default_factory=list)  # [War Board slot]
    either: list[str] = field(default_factory=list)  # [alternative]
    parse: dict[str, tuple[int, int, int]] = field(default_factory=dict)


DONE = "done"
SUPPLY = "supply"
STAY = "stay"
SKIP = "skip"
SPARE = "spare"
PASS = "pass"
NO_CARD = "-"

_NOTATIONS: dict[tuple[int, int], Notation] = {}


def notation_for(content: Content, board: Board) -> Notation:
    key = (id(content), id(board))
    found = _NOTATIONS.get(key)
    if found is None:
        found = _NOTATIONS[key] = _build(content, board)
    return found


def _build(content: Content, board: Board) -> Notation:
    words = _Words(content, board)
    _kindling(words)
    _entering(words)
    _territory_actions(words)
    _candle_effects(words)
    _war(words)
    _variants(words)
    return words.n


class _Words:
    """The notation being built, and what its words are made of: the territories' names, the houses'
    and the candle cards' codes."""

    def __init__(self, content: Content, board: Board) -> None:
        self.n = Notation()
        self.content = content
        self.board = board
        self.terr = board.names
        self.houses = [h.code for h in content.houses]
        self.cards = [c.code for c in content.candles]

    def add(self, text: str, verb: Verb, a: int = 0, b: int = 0) -> str:
        parse = self.n.parse
        assert text not in parse or parse[text] == (verb, a, b), text
        parse[text] = (verb, a, b)
        return text

    def by_house_role(self, verb_word: str, verb: Verb) -> list[list[str]]:
        """``verb house-role`` for every house and role ('push N-W')."""
        return [
            [self.add(f"{verb_word} {h}-{ROLE_LETTER[r]}", verb, i, r) for r in range(3)]
            for i, h in enumerate(self.houses)
        ]


def _kindling(w: _Words) -> None:
    """A Kindling turn: deploy or maneuver, place the candle, move the models."""
    add, n, terr = w.add, w.n, w.terr
    n.deploy = [
        [add(f"deploy {code} {ROLE_LETTER[r]}", Verb.DEPLOY, c, r) for r in range(3)]
        for c, code in enumerate(w.cards)
    ]
    n.maneuver = [add(f"maneuver {code}", Verb.MANEUVER, c) for c, code in enumerate(w.cards)]
    n.at = [add(f"at {name}", Verb.AT, t) for t, name in enumerate(terr)]
    n.move = [
        [add(f"move {MODEL_LETTER[m]} {name}", Verb.MOVE, m, t) for t, name in enumerate(terr)]
        for m in range(4)
    ]
    n.extra = [
        [add(f"extra {ROLE_LETTER[r]} {name}", Verb.EXTRA, r, t) for t, name in enumerate(terr)]
        for r in range(3)
    ]
    add(DONE, Verb.DONE)


def _entering(w: _Words) -> None:
    """A castle or a warrior entering a territory: destroy, push back, and where to."""
    add, n = w.add, w.n
    n.destroy_land = [add(f"destroy {h}", Verb.DESTROY_LAND, i) for i, h in enumerate(w.houses)]
    n.destroy_candle = w.by_house_role("destroy", Verb.DESTROY_CANDLE)
    n.push = w.by_house_role("push", Verb.PUSH)
    n.to = [add(f"to {name}", Verb.TO, t) for t, name in enumerate(w.terr)]


def _territory_actions(w: _Words) -> None:
    """Curse Influence, Barracks, Forge, Mine and Portal, and the candle cards kept or returned."""
    add, n, board, cards = w.add, w.n, w.board, w.cards
    n.curse = [add(f"curse {k + 1}", Verb.CURSE, k) for k in range(3)]
    add(SUPPLY, Verb.SUPPLY)
    n.take = [add(f"take {t.code}", Verb.TAKE, i) for i, t in enumerate(w.content.tactics)]
    n.upgrade = [add(f"upgrade {p + 1}", Verb.UPGRADE, p) for p in range(9)]
    n.temple = [
        [
            add(f"temple {TEMPLE_LETTER[c]} {r}", Verb.TEMPLE, c, r) if r in board.regions else ""
            for r in range(board.max_region + 1)
        ]
        for c in range(len(TEMPLES))
    ]
    n.mine = [
        [
            add(f"mine gold {gold} wax {wax}", Verb.MINE, gold, wax)
            for wax in range(MAX_WAREHOUSE + 1)
        ]
        for gold in range(MAX_WAREHOUSE + 1)
    ]
    n.relocate = [add(f"relocate {MODEL_LETTER[m]}", Verb.RELOCATE, m) for m in range(4)]
    n.keep = [add(f"keep {code}", Verb.KEEP, c) for c, code in enumerate(cards)]
    n.ret = [add(f"return {code}", Verb.RETURN, c) for c, code in enumerate(cards)]


def _candle_effects(w: _Words) -> None:
    """Ignite, Extinguish, Steal, destroying a Temple level, shifting a candle, and declining."""
    add, n, terr, houses = w.add, w.n, w.terr, w.houses
    n.ignite_candle = [add(f"ignite {ROLE_LETTER[r]}", Verb.IGNITE_CANDLE, r) for r in range(3)]
    n.ignite_land = [add(f"ignite {name}", Verb.IGNITE_LAND, t) for t, name in enumerate(terr)]
    n.extinguish_at = [
        add(f"extinguish {name}", Verb.EXTINGUISH_AT, t) for t, name in enumerate(terr)
    ]
    n.extinguish_land = [
        add(f"extinguish {h}", Verb.EXTINGUISH_LAND, i) for i, h in enumerate(houses)
    ]
    n.extinguish_candle = w.by_house_role("extinguish", Verb.EXTINGUISH_CANDLE)
    n.steal = [
        [add(f"steal {h} {res}", Verb.STEAL, i, k) for k, res in enumerate(RESOURCES)]
        for i, h in enumerate(houses)
    ]
    n.raze = [
        add(f"raze {r}", Verb.RAZE, r) if r in w.board.regions else ""
        for r in range(w.board.max_region + 1)
    ]
    n.shift = [
        [add(f"shift {ROLE_LETTER[r]} {name}", Verb.SHIFT, r, t) for t, name in enumerate(terr)]
        for r in range(3)
    ]
    for word, verb in (
        (STAY, Verb.STAY),
        (SKIP, Verb.SKIP),
        (SPARE, Verb.SPARE),
        (PASS, Verb.PASS),
    ):
        add(word, verb)


def _war(w: _Words) -> None:
    """A battle: the secret choice of tactic cards, cancelling, and the powers that recast or lift."""
    add, n, houses = w.add, w.n, w.houses
    tcodes = [NO_CARD] + [t.code for t in w.content.tactics]
    n.play = [
        [add(f"play {c1} {c2}", Verb.PLAY, i, j) for j, c2 in enumerate(tcodes)]
        for i, c1 in enumerate(tcodes)
    ]
    n.cancel = [
        [
            [
                add(f"cancel {mine + 1} {h} {theirs + 1}", Verb.CANCEL, mine, 2 * i + theirs)
                for theirs in (0, 1)
            ]
            for i, h in enumerate(houses)
        ]
        for mine in (0, 1)
    ]
    n.recast = w.by_house_role("recast", Verb.RECAST)
    n.lift = w.by_house_role("lift", Verb.LIFT)


def _variants(w: _Words) -> None:
    """The house choice and the curses moved (two players), and the Decay cards."""
    add, n = w.add, w.n
    n.house = [add(f"house {h}", Verb.HOUSE, i) for i, h in enumerate(w.houses)]
    n.haunt = [
        [add(f"haunt {k + 1} {name}", Verb.HAUNT, k, t) for t, name in enumerate(w.terr)]
        for k in range(3)
    ]
    n.decay = [add(f"decay {k + 1}", Verb.DECAY, k) for k in range(2)]
    n.either = [add(f"either {k + 1}", Verb.EITHER, k) for k in range(2)]


_SHAPES = {
    "deploy": "a candle card and a role, e.g. 'deploy C1 P'",
    "maneuver": "a candle card, e.g. 'maneuver A17'",
    "at": "a territory, e.g. 'at 6b'",
    "move": "a model (E, P, W or C) and a territory, e.g. 'move C 8a'",
    "extra": "a candle (E, P or W) and a territory, e.g. 'extra P 9b'",
    "destroy": "a house letter, or house-role for a candle's flame, e.g. 'destroy N' or 'destroy N-W'",
    "push": "an enemy candle as house-role, e.g. 'push N-P'",
    "to": "a territory, e.g. 'to 3c'",
    "curse": "a Curse Board place, 1 to 3 from the left, e.g. 'curse 2'",
    "take": "a Tactic card code from the Tactics board, e.g. 'take 1I1X'",
    "upgrade": "a pile of the Upgrade Board, 1 to 9, e.g. 'upgrade 4'",
    "temple": "a colour (W, G or B) and a region, e.g. 'temple G 6'",
    "mine": "the gold and wax taken, e.g. 'mine gold 2 wax 1'",
    "relocate": "a model (E, P, W or C), e.g. 'relocate W'",
    "keep": "a candle card, e.g. 'keep A17'",
    "return": "a candle card, e.g. 'return A17'",
    "ignite": "your candle (E, P or W) or a territory, e.g. 'ignite W' or 'ignite 3b'",
    "extinguish": "a territory, then a house or house-role, e.g. 'extinguish 3b', 'extinguish C'",
    "steal": "a house and gold or wax, e.g. 'steal C gold'",
    "raze": "a region holding a temple, e.g. 'raze 6'",
    "shift": "your candle and a territory of the region, e.g. 'shift W 9b'",
    "play": "two War Board slots, each a tactic card you own or '-', e.g. 'play 1I1X -'",
    "cancel": "your slot (1 or 2), a house and its slot, e.g. 'cancel 1 N 1'",
    "recast": "a candle as house-role, e.g. 'recast N-P'",
    "lift": "a candle as house-role, e.g. 'lift S-W'",
    "house": "a house letter (2-player house choice), e.g. 'house C'",
    "haunt": "a curse's place (1 to 3) and a neighbouring territory, e.g. 'haunt 2 5b'",
    "decay": "a War Board slot, 1 or 2, e.g. 'decay 1'",
    "either": "which effect of a Decay card, 1 or 2, e.g. 'either 2'",
}


def malformed(n: Notation, action: str) -> str | None:
    """Why ``action`` is not Candelabria notation at all, or None if it is well formed."""
    if action in n.parse:
        return None
    verb, _, arg = action.partition(" ")
    if verb not in VERBS:
        return f"unknown action {verb!r}; Candelabria actions are: {', '.join(VERBS)}"
    if verb in _SHAPES:
        return f"{verb!r} is followed by {_SHAPES[verb]}; {arg!r} is not one"
    return f"{verb!r} takes nothing after it"
