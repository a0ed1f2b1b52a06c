"""The Curse of Candelabria for the RL adapters: action numbering and view encoding.

The board side follows the player count (2–3 players: the small side, 24 territories in 8 regions;
4–5 players: the large side, 30 territories in 10 regions), and only the houses whose start region is on
that side can be seated (the small side has no Luminis). ``T`` below is a territory of the side, ``R`` a
region of the side, ``H`` a seatable house, ``CARD`` a house candle card of a seatable house or an
Advanced card (the candles in play), ``M`` a model (``E P W C``), a role ``E P W``.

Actions (docs/notation/candelabria.md), in id order:

1. the declining and one-word actions: ``done``, ``skip``, ``pass``; ``stay`` (only when a seatable
   house has the Luminis Year I power, or with ``decay``); ``spare`` (only with
   ``castle_entry="optional"`` or ``warrior_push="optional"``); ``supply`` (standard only);
2. ``deploy CARD R`` (3 per card), ``maneuver CARD``, ``return CARD``; ``keep CARD`` (only when a
   seatable house has the Nova Vita Year I power; house cards returned or deployed go under the
   Advanced deck, so any card can be drawn);
3. territory actions: ``at T``, ``to T``, ``ignite T``, ``extinguish T``, ``move M T``, ``extra R T``;
   ``shift R T`` (as ``stay``); ``haunt K T`` (two-player, K = 1–3);
4. ``ignite R``, ``relocate M``;
5. per house: ``destroy H``, ``destroy H-R``, ``push H-R``, ``extinguish H``, ``extinguish H-R``,
   ``steal H gold``, ``steal H wax``; standard: ``recast H-R``, ``lift H-R``; two-player: ``house H``;
   then ``cancel M H N`` (M, N = 1, 2);
6. ``curse K`` (standard, K = 1–3), ``upgrade P`` (P = 1–9), ``temple C R`` (C = W, G, B), ``raze R``;
7. ``mine gold G wax W`` for 1 ≤ G + W ≤ the most a Mine gives (the side's Mine territories plus
   the "additional Mine territory" tile, at most a warehouse of 10: 8 on the small side, 6 on the
   large);
8. ``take CODE`` for every common tactic code (house tactic cards never reach the Tactics board);
9. ``play A B``: every ordered pair a seat can own, A and B each ``-`` or a tactic code, with the
   common codes and the house codes of one seatable house, the same code twice only for a card with
   two copies or more; sorted by (A, B) in the order ``-``, then the tactic codes of the facts;
10. with ``decay``: ``decay 1``, ``decay 2``, ``either 1``, ``either 2``.

Counts: standard 3 players 2,462 (``play`` 1,559, the candle-card texts 420, the territory texts 264,
the house texts 92, ``mine`` 44); standard 4–5 players 2,843 (``play`` 1,739, cards 450, territories
420 with ``shift``, houses 115, ``mine`` 27); two-player 2,510 (``play`` 1,559, cards 420, territories
336 with ``haunt``, houses 72, ``mine`` 44). ``missions`` adds no action; ``decay`` adds its 4 and,
where they were absent, ``stay`` and the ``shift`` texts (standard 3 players 2,539, 4–5 players
2,847); an optional ``castle_entry`` or ``warrior_push`` adds ``spare``.

The observation encodes the seat's view only (rulings CA-39): the map (each territory's Land Flames,
castles, candles with their flames, curse standees), the regions (corruption, temples), the Curse Board
and the flames before each curse, the battles, the Tactics board, the Upgrade piles' tops and sizes, the
decks' sizes and the reserve, every seat's resources, supplies, candles, deployed and maneuvered cards,
upgrades, tactic cards, hand size and the cards it is known to hold (its own hand for the seat), the
tactic cards played in a battle once revealed (the seat's own secret choice to itself only; of the
others only that they have chosen), Decay cards and Mission cards when the options are on, and the
pending decision with its details.

``fill`` encodes the typed view; ``fill_state`` (the adapters' path) writes the same numbers read from
the state, without building a view or any text. Each state keeps its last observation (a canvas) with a
copy of the data every field was written from, and a field is written again only when its data differ:
between two decisions most of the board is unchanged. tests/rl/test_state_encoders.py holds the two to
the bit on every seat of random games of every configuration, and tests/rl/test_candelabria_reader.py
reads states, clones and older states in any order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import numpy as np
from msgspec import UNSET

from candlebox.engine import State, game_info
from candlebox.engine.encoding import Config, Layout, ViewEncoder
from candlebox.engine.plugin import Encoding
from candlebox.games.candelabria.decay import CODES as DECAY_CODES
from candlebox.games.candelabria.decision import NAMES, Auto, Phase
from candlebox.games.candelabria.missions import MISSIONS as MISSION_CARDS
from candlebox.games.candelabria.missions import revealed
from candlebox.games.candelabria.schema import TEMPLES
from candlebox.games.candelabria.state import CandelabriaState
from candlebox.games.candelabria.views import (
    CandelabriaView,
    FinishedView,
    Mission,
    Missions,
    Pending,
    Seat,
)

GAME_ID = "candelabria"

_FACTS = game_info(GAME_ID).facts
HOUSES: tuple[str, ...] = tuple(_FACTS["houses"])
CARDS: tuple[str, ...] = tuple(_FACTS["candles"])
CARD_INDEX = {code: i for i, code in enumerate(CARDS)}
ADVANCED: tuple[str, ...] = tuple(c for c, info in _FACTS["candles"].items() if info["house"] < 0)
HOUSE_CARDS = max(
    sum(1 for info in _FACTS["candles"].values() if info["house"] == h) for h in range(len(HOUSES))
)
TACTICS: tuple[str, ...] = tuple(_FACTS["tactics"])
TACTIC_INDEX = {code: i for i, code in enumerate(TACTICS)}
TACTIC_CARDS: dict[str, dict[str, Any]] = _FACTS["tactic_cards"]
COMMON: tuple[str, ...] = tuple(c for c in TACTICS if TACTIC_CARDS[c]["house"] is None)
TILES: tuple[str, ...] = tuple(_FACTS["upgrades"])
TILE_INDEX = {code: i for i, code in enumerate(TILES)}
PILES = int(_FACTS["upgrade_piles"])
CURSE_CARDS: tuple[str, ...] = tuple(_FACTS["curses"])
CURSE_INDEX = {code: i for i, code in enumerate(CURSE_CARDS)}
WAREHOUSE = int(_FACTS["warehouse"])
MISSIONS: tuple[str, ...] = tuple(_FACTS["missions"])
MISSION_INDEX = {code: i for i, code in enumerate(MISSIONS)}
DECAY: tuple[str, ...] = tuple(_FACTS["decay_cards"])
DECAY_INDEX = {code: i for i, code in enumerate(DECAY)}

ROLES = "EPW"
MODELS = "EPWC"
ROLE_NAMES = ("explorer", "pilgrim", "warrior")
TEMPLE_LETTERS = "WGB"
TEMPLE_NAMES = ("white", "grey", "black")
CURSE_PLACES = 3  # the Curse Board
SLOTS = 2  # War Board slots
YEARS = 3
# The pending decisions a view can show (pending()["decision"]).
DECISIONS = (
    "turn",
    "deploy-at",
    "move",
    "destroy",
    "push",
    "push-to",
    "flame",
    "influence",
    "take",
    "forge",
    "mine",
    "portal",
    "portal-to",
    "keep",
    "return",
    "ignite",
    "extinguish",
    "extinguish-at",
    "steal",
    "raze",
    "shift",
    "curse-at",
    "recast",
    "lift",
    "lift-to",
    "gift",
    "secret",
    "cancel",
    "haunt",
    "pick",
    "decay-at",
    "either",
    "nudge",
)
DECISION_INDEX = {name: i for i, name in enumerate(DECISIONS)}
SEASONS = ("kindling", "war", "over")

VP_SCALE = 200.0  # random games end below 130 VP
LAND_FLAMES = 25.0  # a house's Land Flames
CANDLE_FLAMES = 12.0  # a house's candle flames
ROLE_FLAMES = 4.0  # the most flames on one candle (a Warrior)
RESERVE = 50.0  # gold and wax in the reserve, each
TEMPLES_EACH = 6.0  # Temple levels of each colour
COUNT_SCALE = 10.0  # a pending decision's count
HAND_SCALE = 20.0
TACTIC_COPIES = float(max(info["copies"] for info in TACTIC_CARDS.values()))
TACTICS_DECK = float(sum(TACTIC_CARDS[c]["copies"] for c in COMMON))
CURSE_DECK = 30.0  # curse cards and the house candles shuffled in with them
# max_game_length: see there.
TURN_DECISIONS = 250
BATTLE_DECISIONS = 60
WAR_EXTRA = 150
PICKS = 2


def side_of(config: Config) -> dict[str, Any]:
    """The board side a configuration plays on (facts ``sides``: by the player count)."""
    for side in _FACTS["sides"].values():
        if config.players in side["players"]:
            return side
    raise ValueError(f"no board side for {config.players} players")


def seatable(config: Config) -> list[str]:
    """The houses that can be seated: those whose start region is on the side (rulings CA-9)."""
    regions = set(side_of(config)["regions"])
    return [h for h in HOUSES if _FACTS["houses"][h]["region"] in regions]


def cards_in_play(config: Config) -> list[str]:
    houses = set(seatable(config))
    return [
        c
        for c, info in _FACTS["candles"].items()
        if info["house"] < 0 or HOUSES[info["house"]] in houses
    ]


def _has_power(config: Config, power: str) -> bool:
    return any(
        p["effect"] == power for h in seatable(config) for p in _FACTS["houses"][h]["powers"]
    )


def mine_bound(config: Config) -> int:
    """The most a Mine gives at once: one per Mine territory of the side holding the house's Land
    Flame, plus every "counts as an additional Mine territory" effect (upgrade tiles, house powers),
    and never more than a warehouse holds (rulings CA-31)."""
    mines = sum(1 for icon in side_of(config)["icons"].values() if icon == "mine")
    tiles = sum(
        1
        for tile in _FACTS["upgrades"].values()
        if tile["effect"] == "extra-territory" and tile["icon"] == "mine"
    )
    powers = max(
        sum(
            1
            for p in _FACTS["houses"][h]["powers"]
            if p["effect"] == "extra-territory" and p["icon"] == "mine"
        )
        for h in seatable(config)
    )
    return min(WAREHOUSE, mines + tiles + powers)


def play_texts(config: Config) -> list[str]:
    """Every ``play A B`` a seat can own, sorted by (A, B) in the order '-', then the facts' codes."""
    order = ("-", *TACTICS)
    pairs: set[tuple[str, str]] = set()
    for house in seatable(config):
        owned = ["-"] + [c for c in TACTICS if TACTIC_CARDS[c]["house"] in (None, house)]
        for a in owned:
            for b in owned:
                if a != b or a == "-" or TACTIC_CARDS[a]["copies"] > 1:
                    pairs.add((a, b))
    place = {code: i for i, code in enumerate(order)}
    return [f"play {a} {b}" for a, b in sorted(pairs, key=lambda p: (place[p[0]], place[p[1]]))]


def action_texts(config: Config) -> list[str]:
    if config.options.get("content") is not None:
        raise ValueError(
            "the RL adapters number the shipped content only: the 'content' option is not supported"
        )
    two = config.variant == "two-player"
    decay = bool(config.options.get("decay"))
    shifting = decay or _has_power(config, "temple-shift")
    side = side_of(config)
    terr: list[str] = side["territories"]
    regions: list[int] = side["regions"]
    houses = seatable(config)
    cards = cards_in_play(config)
    texts = ["done", "skip", "pass"]
    if shifting:
        texts.append("stay")
    if "optional" in (config.options.get("castle_entry"), config.options.get("warrior_push")):
        texts.append("spare")
    if not two:
        texts.append("supply")
    texts += [f"deploy {c} {r}" for c in cards for r in ROLES]
    texts += [f"maneuver {c}" for c in cards]
    texts += [f"return {c}" for c in cards]
    if _has_power(config, "draw-three"):
        texts += [f"keep {c}" for c in cards]
    for verb in ("at", "to", "ignite", "extinguish"):
        texts += [f"{verb} {t}" for t in terr]
    texts += [f"move {m} {t}" for m in MODELS for t in terr]
    texts += [f"extra {r} {t}" for r in ROLES for t in terr]
    if shifting:
        texts += [f"shift {r} {t}" for r in ROLES for t in terr]
    if two:
        texts += [f"haunt {k} {t}" for k in range(1, CURSE_PLACES + 1) for t in terr]
    texts += [f"ignite {r}" for r in ROLES]
    texts += [f"relocate {m}" for m in MODELS]
    for h in houses:
        texts.append(f"destroy {h}")
        texts += [f"destroy {h}-{r}" for r in ROLES]
        texts += [f"push {h}-{r}" for r in ROLES]
        texts.append(f"extinguish {h}")
        texts += [f"extinguish {h}-{r}" for r in ROLES]
        texts += [f"steal {h} gold", f"steal {h} wax"]
        if not two:
            texts += [f"recast {h}-{r}" for r in ROLES]
            texts += [f"lift {h}-{r}" for r in ROLES]
        else:
            texts.append(f"house {h}")
    texts += [f"cancel {mine} {h} {theirs}" for mine in (1, 2) for h in houses for theirs in (1, 2)]
    if not two:
        texts += [f"curse {k}" for k in range(1, CURSE_PLACES + 1)]
    texts += [f"upgrade {p}" for p in range(1, PILES + 1)]
    texts += [f"temple {c} {r}" for c in TEMPLE_LETTERS for r in regions]
    texts += [f"raze {r}" for r in regions]
    most = mine_bound(config)
    texts += [
        f"mine gold {g} wax {w}"
        for g in range(most + 1)
        for w in range(most + 1)
        if 1 <= g + w <= most
    ]
    texts += [f"take {c}" for c in COMMON]
    texts += play_texts(config)
    if decay:
        texts += ["decay 1", "decay 2", "either 1", "either 2"]
    return texts


def turn_bound(config: Config) -> int:
    """Kindling turns in one game. A turn plays one candle card from the hand (deploy or maneuver);
    the only net gain of cards during a year is the Advanced card drawn after each deploy (Inn and
    Nova Vita draws are matched by returns), and a house deploys at most 3 candles a year (one per
    role, freed in the Epilogue). A year's hands hold at most every house card of the seated houses
    and every Advanced card, so a year has at most P x (5 + 3) + 50 turns (P players, 5 house cards
    each, 50 Advanced cards)."""
    per_year = config.players * (HOUSE_CARDS + 3) + len(ADVANCED)
    return min(config.options["max_turns"], YEARS * per_year)


def max_game_length(config: Config) -> int:
    """An upper bound on decisions: at most ``TURN_DECISIONS`` per Kindling turn (a deploy's or a
    maneuver's decisions are bounded by the effect counts, the three moves and the territory actions
    they trigger, each count bounded by the Land Flames, gold and cards a house holds), at most
    ``BATTLE_DECISIONS`` per participant in each battle (a secret choice, two cancels and a pass, the
    effects of two tactic cards and two War Board slots) plus ``WAR_EXTRA`` a War Season (the curses
    granted and their effects), three years, and the 2-player house choice. Random games stay far
    below (the tests check it): at most 30 decisions in a turn and 140 in a War Season."""
    n = config.players
    regions = len(side_of(config)["regions"])
    war = regions * n * BATTLE_DECISIONS + WAR_EXTRA
    return TURN_DECISIONS * turn_bound(config) + YEARS * war + PICKS


def always_a_winner(config: Config) -> bool:
    return True  # the most VP win at the end or at the turn limit (ties share): never nobody


# Pending decisions whose view names a count (view.typed_pending), a region, a territory.
_COUNTED = frozenset(
    {
        Phase.INFLUENCE,
        Phase.TAKE,
        Phase.FORGE,
        Phase.MINE,
        Phase.PORTAL,
        Phase.RETURN,
        Phase.STEAL,
        Phase.HAUNT,
        Phase.IGNITE,
        Phase.EXTINGUISH,
        Phase.RAZE,
    }
)
_COUNTED_REGION = frozenset({Phase.IGNITE, Phase.EXTINGUISH, Phase.RAZE})
_REGION = frozenset({Phase.SHIFT, Phase.RECAST, Phase.LIFT, Phase.GIFT, Phase.CANCEL, Phase.SECRET})
_TERRITORY = frozenset({Phase.DESTROY, Phase.PUSH, Phase.EXTINGUISH_AT, Phase.PUSH_TO})
_WAR_STEPS = frozenset({Auto.WAR_PREP, Auto.BATTLES, Auto.EPILOGUE})  # view.season
# The kinds the state reader tells apart, as plain ints: an enum member read from its class costs
# several times an int comparison, on the reader's hottest path.
_OVER, _PICK, _SECRET, _PUSH_TO, _MOVE = (
    int(Phase.OVER),
    int(Phase.PICK),
    int(Phase.SECRET),
    int(Phase.PUSH_TO),
    int(Phase.MOVE),
)
_DEPLOY_AT, _CURSE_AT, _LIFT_TO, _KEEP = (
    int(Phase.DEPLOY_AT),
    int(Phase.CURSE_AT),
    int(Phase.LIFT_TO),
    int(Phase.KEEP),
)
_DECAYED = frozenset({Phase.DECAY_AT, Phase.EITHER})
# Each decision kind's place in DECISIONS (view: NAMES[kind]); kinds no view shows are absent.
PHASE_DECISION = {
    kind: DECISION_INDEX[name] for kind, name in NAMES.items() if name in DECISION_INDEX
}


if TYPE_CHECKING:
    Memory = memoryview[float]  # a float32 row, written item by item (much cheaper than numpy's)
else:
    Memory = memoryview

CANVASES = 1024  # states whose last observation the state reader keeps (a vector env's games)


def _unit(x: float) -> float:
    """A number clipped to [0, 1], as ``encode`` clips what ``fill`` wrote."""
    return 0.0 if x < 0.0 else (1.0 if x > 1.0 else x)


def _sums(step: float, most: int) -> tuple[float, ...]:
    """Index k: what ``fill`` leaves after adding ``step`` k times to a float32 zero (``add_counts``,
    the temples), clipped to [0, 1]; the state reader counts first, then writes the entry."""
    acc = np.zeros(1, dtype=np.float32)
    sums = [0.0]
    for _ in range(most):
        acc[0] += step
        sums.append(_unit(float(acc[0])))
    return tuple(sums)


TACTIC_SUMS = _sums(1.0 / TACTIC_COPIES, 64)
TEMPLE_SUMS = _sums(1 / TEMPLES_EACH, 64)


def _counts(m: Memory, base: int, index: list[int], codes: list[int]) -> None:
    """``add_counts`` of the tactic cards ``codes`` (a card type per copy) at ``base``."""
    if not codes:
        return
    found: dict[int, int] = {}
    for code in codes:
        found[code] = found.get(code, 0) + 1
    for code, copies in found.items():
        m[base + index[code]] = TACTIC_SUMS[copies]


def _copy(value: list) -> list:
    """A copy of a list of ints, or of lists of ints, that later changes to the state leave alone."""
    return list(map(list.copy, value)) if value and type(value[0]) is list else value[:]


def _per_seat(m: Memory, base: int, values: list[int], scale: float) -> None:
    """A number per seat, divided by its bound."""
    for s, value in enumerate(values):
        m[base + s] = _unit(value / scale)


def _cards(m: Memory, base: int, stride: int, index: list[int], held: list[list[int]]) -> None:
    """Each seat's cards (or tiles) as ones: ``held[s]`` at ``base + s * stride`` (-1: none)."""
    for s, codes in enumerate(held):
        start = base + s * stride
        for code in codes:
            if code >= 0:
                m[start + index[code]] = 1.0


class _Canvas:
    """The last observation written for one state, and a copy of each piece of state data it was
    written from (None: not written yet, which differs from any data)."""

    __slots__ = (
        "advanced_deck",
        "battle",
        "battle_seen",
        "battles_left",
        "candle_flame_supply",
        "candle_flames",
        "candle_territories",
        "castles",
        "content",
        "corrupted",
        "curse_deck",
        "curse_influence",
        "curse_models",
        "curse_owners",
        "curses",
        "decay_deck",
        "decay_slots",
        "gold",
        "hand_sizes",
        "head",
        "house_of",
        "land_flame_supply",
        "land_flames",
        "maneuvered",
        "mission_box",
        "mission_over",
        "mission_places",
        "mission_seat",
        "order",
        "picked",
        "played_tactics",
        "private_missions",
        "public_missions",
        "reserve_gold",
        "reserve_wax",
        "row",
        "seal_cards",
        "secret_seat",
        "secret_tactics",
        "seldom",
        "shown",
        "tab",
        "tactics",
        "tactics_board",
        "tactics_deck",
        "tactics_used",
        "temple_supply",
        "temples",
        "turns",
        "upgrade_piles",
        "upgrades",
        "view",
        "vp",
        "wax",
        "year",
        "zero",
    )

    # A copy of the state data each field was last written from (None: not written yet).
    advanced_deck: Any
    battle: Any
    battle_seen: Any
    battles_left: Any
    candle_flame_supply: Any
    candle_flames: Any
    candle_territories: Any
    castles: Any
    corrupted: Any
    curse_deck: Any
    curse_influence: Any
    curse_models: Any
    curse_owners: Any
    curses: Any
    decay_deck: Any
    decay_slots: Any
    gold: Any
    hand_sizes: Any
    house_of: Any
    land_flame_supply: Any
    land_flames: Any
    maneuvered: Any
    mission_box: Any
    mission_over: Any
    mission_places: Any
    mission_seat: Any
    order: Any
    played_tactics: Any
    private_missions: Any
    public_missions: Any
    reserve_gold: Any
    reserve_wax: Any
    seal_cards: Any
    secret_seat: Any
    secret_tactics: Any
    seldom: Any
    shown: Any
    tactics: Any
    tactics_board: Any
    tactics_deck: Any
    tactics_used: Any
    temple_supply: Any
    temples: Any
    turns: Any
    upgrade_piles: Any
    upgrades: Any
    vp: Any
    wax: Any
    year: Any

    def __init__(self, st: CandelabriaState, tab: _Tables, zero: Memory) -> None:
        self.row = np.zeros(len(zero), dtype=np.float32)
        self.view = cast(Memory, self.row.data)
        self.zero = zero  # zeros of the row's size, shared by the encoder's canvases
        self.content = st.content
        self.tab = tab
        self.head: list[int] = []  # the places the head wrote
        self.picked = False  # the row holds the 2-player house choice
        self.forget()

    def forget(self) -> None:
        """Every field to be written anew: the row cleared, no data kept."""
        self.view[:] = self.zero
        self.head.clear()
        for name in _DATA:
            setattr(self, name, None)

    def clear(self, span: tuple[int, int]) -> None:
        a, b = span
        self.view[a:b] = self.zero[a:b]


_DATA = tuple(
    name
    for name in _Canvas.__slots__
    if name not in ("content", "head", "picked", "row", "tab", "view", "zero")
)


class _Tables:
    """The state's numbers (content and board indices) as the encoder's places: built once per
    content pack and board side, by code and name, so they follow the facts whatever the files' order."""

    __slots__ = (
        "board",
        "card",
        "content",
        "curse",
        "decay",
        "house",
        "land",
        "mission",
        "tactic",
        "temple",
        "terr",
        "tile",
    )

    def __init__(self, st: CandelabriaState, encoder: CandelabriaEncoder) -> None:
        content, board = st.content, st.board
        self.content, self.board = content, board
        self.card = [CARD_INDEX[c.code] for c in content.candles]
        self.tactic = [TACTIC_INDEX[t.code] for t in content.tactics]
        self.tile = [TILE_INDEX[t.code] for t in content.tiles]
        self.curse = [CURSE_INDEX[k.code] for k in content.curses]
        self.house = [HOUSES.index(h.code) for h in content.houses]
        self.terr = [encoder.terr_index[name] for name in board.names]
        self.temple = [TEMPLE_NAMES.index(colour) for colour in TEMPLES]
        self.decay = [DECAY_INDEX[code] for code in DECAY_CODES]
        self.mission = [MISSION_INDEX[card[0]] for card in MISSION_CARDS]
        # territory -> bitmask of seats -> the places of their Land Flames
        n = encoder.n
        lf = encoder.start["land_flames"]
        self.land = [
            [tuple(lf + t * n + s for s in range(n) if mask >> s & 1) for mask in range(1 << n)]
            for t in self.terr
        ]


class CandelabriaEncoder(ViewEncoder):
    def build(self, config: Config, layout: Layout) -> None:
        n = config.players
        side = side_of(config)
        self.n = n
        self.terr_index = {t: i for i, t in enumerate(side["territories"])}
        self.region_index = {r: i for i, r in enumerate(side["regions"])}
        t = len(self.terr_index)
        r = len(self.region_index)
        c = len(CARDS)
        k = len(TACTICS)
        self.t, self.r, self.c, self.k = t, r, c, k
        self.turn_scale = float(turn_bound(config))
        self.missions = bool(config.options.get("missions"))
        self.decay = bool(config.options.get("decay"))
        layout.add("me", n)
        layout.add("active", n)
        layout.add("to_act", n)
        layout.add("decision", len(DECISIONS))
        layout.add("over", 1)
        # the pending decision's details
        layout.add("p_region", r)
        layout.add("p_territory", t)
        layout.add("p_count", 1)  # / 10
        layout.add("p_moves_left", 1)  # / 3
        layout.add("p_extra_used", 1)
        layout.add("p_steps", 1)  # / 3
        layout.add("p_candle", n * 3)  # seat x role
        layout.add("p_role", 3)
        layout.add("p_curse", CURSE_PLACES)
        layout.add("p_stage", 2)
        layout.add("p_first", len(HOUSES))
        layout.add("p_cards", c)  # Nova Vita's cards to keep (its own seat only)
        layout.add("p_decay", len(DECAY))
        # the year
        layout.add("year", YEARS)
        layout.add("season", len(SEASONS))
        layout.add("turn", 1)  # / the turn bound
        layout.add("order", n * n)  # seat x place in turn order
        layout.add("houses", n * len(HOUSES))  # each seat's house
        # the map
        layout.add("land_flames", t * n)
        layout.add("castles", t * n)
        layout.add("candles", t * n * 3)  # a candle of seat s, role r: (its flames + 1) / 5
        layout.add("curse_models", t * CURSE_PLACES)
        layout.add("curse_owner", CURSE_PLACES * n)
        layout.add("corrupted", r)
        layout.add("temples", r * 3)  # levels of each colour / 6
        layout.add("temple_top", r * 3)
        # the Curse Board and the War Season
        layout.add("curse_cards", CURSE_PLACES * len(CURSE_CARDS))
        layout.add("curse_flames", CURSE_PLACES * n)  # / 25
        layout.add("battles_left", r)
        layout.add("battle", n)
        # the public boards and decks
        layout.add("tactics_board", k)  # counts / most copies
        layout.add("upgrade_tops", PILES * len(TILES))
        layout.add("upgrade_sizes", PILES)  # / 4
        layout.add("temples_left", 3)
        layout.add("decks", 4)  # curse, tactics, advanced, decay
        layout.add("reserve", 2)
        # the seats
        layout.add("vp", n)
        layout.add("gold", n)
        layout.add("wax", n)
        layout.add("land_supply", n)
        layout.add("candle_supply", n)
        layout.add("hand_size", n)
        layout.add("deployed", n * c)
        layout.add("maneuvered", n * c)
        layout.add("known_cards", n * c)  # the seat's own hand; of the others what is known
        layout.add("upgrades", n * len(TILES))
        layout.add("tactics", n * k)  # counts / most copies
        layout.add("tactics_used", n * k)
        layout.add("chosen", n)
        layout.add("my_secret", SLOTS * (k + 1))  # the seat's own secret choice ('-' last)
        layout.add("played", n * SLOTS * (k + 2))  # revealed cards; '-' and 'resolved' last
        if self.decay:
            layout.add("decay_slots", n * SLOTS * len(DECAY))
        if self.missions:
            m = len(MISSIONS)
            layout.add("mission_public", m)
            layout.add("mission_private", m * n)  # whose private mission it is, where seen
            layout.add("mission_places", m * 3 * (n + 1))  # each place: its seat, or blocked
            layout.add("mission_box", 1)
        layout.add("winners", n)
        layout.add("scores", n)  # / 200
        self.at = layout.fields
        self.start = {name: place.start for name, place in layout.fields.items()}
        # The state reader's places: every field's (start, stop), to clear it.
        self.span = {name: (place.start, place.stop) for name, place in layout.fields.items()}
        self._forget_states()

    def _forget_states(self) -> None:
        """The state reader's caches, empty: what it keeps of the states it read, its tables."""
        self._tables: _Tables | None = None
        self._canvases: dict[int, _Canvas] = {}
        self._zero = cast(Memory, np.zeros(self.layout.size, dtype=np.float32).data)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (a copied or pickled environment) without the caches: memoryviews do not
        pickle, and a canvas belongs to a state of this process."""
        kept = dict(self.__dict__)
        for name in ("_tables", "_canvases", "_zero"):
            del kept[name]
        return kept

    def __setstate__(self, kept: dict[str, Any]) -> None:
        self.__dict__.update(kept)
        self._forget_states()

    # ------------------------------------------------------------------ the state reader
    reads_state = True

    def fill_state(self, state: State, seat: int, out: np.ndarray) -> None:
        """``fill`` of ``typed_view(state, seat)`` (view.py), clipped as ``encode`` clips, read from the
        state: of the hands only the seat's own (every hand once the game is over) and the cards the
        others are known to hold, of a battle's secret choices only the seat's own, of the private
        missions the seat's own and the revealed ones. No view is built and no text is made."""
        out[:] = self._canvas(state, seat)

    def encode_state(
        self, state: State, seat: int, out: np.ndarray | None = None, clip: bool = True
    ) -> np.ndarray:
        """As ``ViewEncoder.encode_state``; the values are in [0, 1] as written (``clip`` has nothing
        left to do)."""
        row = self._canvas(state, seat)
        if out is None:
            return row.copy()
        out[:] = row
        return out

    def _canvas(self, state: State, seat: int) -> np.ndarray:
        """The seat's observation of the state, in the state's canvas.

        A canvas (one per state object, the ``CANVASES`` most recently read kept) holds the last
        observation written for that state and a copy of each piece of state data it was written
        from. Only the fields whose data differ now are written again: between two decisions of a
        game most of the board is unchanged, and comparing a list with its copy costs far less than
        writing its fields. The copies are compared by value, never by identity, so a canvas is right
        for any state whatever state it was written for; the seat is part of the data of every field
        that depends on it.
        """
        assert isinstance(state, CandelabriaState)
        st = state
        canvases = self._canvases
        key = id(st)
        c = canvases.pop(key, None)
        if c is None or c.content is not st.content or c.tab.board is not st.board:
            c = _Canvas(st, self.tables(st), self._zero)
            if len(canvases) >= CANVASES:
                del canvases[next(iter(canvases))]  # the least recently read
        canvases[key] = c
        frame = st.stack[-1]
        if frame[0] == _PICK:
            c.forget()
            self._house_choice(st, seat, frame, c)
            c.picked = True
        else:
            if c.picked:  # none of the house choice's places is a field's data: start afresh
                c.forget()
                c.picked = False
            self._update(st, seat, frame, c)
        return c.row

    def tables(self, st: CandelabriaState) -> _Tables:
        tab = self._tables
        if tab is None or tab.content is not st.content or tab.board is not st.board:
            tab = self._tables = _Tables(st, self)
        return tab

    def _update(self, st: CandelabriaState, seat: int, frame: list[int], c: _Canvas) -> None:
        """Write in the canvas what differs from what it was written from; each field as ``fill``
        writes it, clipped. The data that change seldom are first compared all at once."""
        m = c.view
        tab = c.tab
        at = self.start
        span = self.span
        n = self.n
        over = frame[0] == _OVER
        self._head(st, seat, frame, over, c)
        if (
            st.year,
            st.order,
            st.castles,
            st.curse_models,
            st.curse_owners,
            st.corrupted,
            st.temples,
            st.curses,
            st.curse_influence,
            st.battles_left,
            st.battle,
            st.upgrade_piles,
            st.house_of,
            st.seal_cards,
            st.upgrades,
            st.tactics_used,
            st.decay_slots,
        ) != c.seldom:
            self._seldom(st, c)
        if st.turns != c.turns:
            c.turns = st.turns
            m[at["turn"]] = _unit(st.turns / self.turn_scale)
        # the map
        if st.land_flames != c.land_flames:
            c.land_flames = st.land_flames[:]
            c.clear(span["land_flames"])
            for places, flames in zip(tab.land, st.land_flames, strict=True):
                if flames:
                    for i in places[flames]:
                        m[i] = 1.0
        if st.candle_territories != c.candle_territories or st.candle_flames != c.candle_flames:
            c.candle_territories = _copy(st.candle_territories)
            c.candle_flames = _copy(st.candle_flames)
            c.clear(span["candles"])
            self._candles(st, tab, m)
        # the public boards and decks
        if st.tactics_board != c.tactics_board:
            c.tactics_board = st.tactics_board[:]
            c.clear(span["tactics_board"])
            _counts(m, at["tactics_board"], tab.tactic, st.tactics_board)
        decay_deck = len(st.decay_deck) if st.decay_slots else -1  # the view shows it with Decay
        if (
            len(st.advanced_deck) != c.advanced_deck
            or len(st.curse_deck) != c.curse_deck
            or len(st.tactics_deck) != c.tactics_deck
            or decay_deck != c.decay_deck
            or st.temple_supply != c.temple_supply
            or st.reserve_gold != c.reserve_gold
            or st.reserve_wax != c.reserve_wax
        ):
            c.advanced_deck, c.curse_deck = len(st.advanced_deck), len(st.curse_deck)
            c.tactics_deck, c.decay_deck = len(st.tactics_deck), decay_deck
            c.temple_supply = st.temple_supply[:]
            c.reserve_gold, c.reserve_wax = st.reserve_gold, st.reserve_wax
            self._supplies(st, tab, m)
        # the seats (each of these fields is written whole: nothing to clear)
        if st.vp != c.vp:
            c.vp = st.vp[:]
            _per_seat(m, at["vp"], st.vp, VP_SCALE)
        if st.gold != c.gold:
            c.gold = st.gold[:]
            _per_seat(m, at["gold"], st.gold, WAREHOUSE)
        if st.wax != c.wax:
            c.wax = st.wax[:]
            _per_seat(m, at["wax"], st.wax, WAREHOUSE)
        if st.land_flame_supply != c.land_flame_supply:
            c.land_flame_supply = st.land_flame_supply[:]
            _per_seat(m, at["land_supply"], st.land_flame_supply, LAND_FLAMES)
        if st.candle_flame_supply != c.candle_flame_supply:
            c.candle_flame_supply = st.candle_flame_supply[:]
            _per_seat(m, at["candle_supply"], st.candle_flame_supply, CANDLE_FLAMES)
        hands = st.hands
        sizes = list(map(len, hands))
        if sizes != c.hand_sizes:
            c.hand_sizes = sizes
            _per_seat(m, at["hand_size"], sizes, HAND_SCALE)
        # the cards each seat is known to hold: its own hand to itself, every hand once over
        shown = c.shown
        if shown is None:
            shown = c.shown = [None] * n
        known = st.known_hands
        for s in range(n):
            cards = hands[s] if s == seat or over else known[s]
            if cards != shown[s]:
                shown[s] = cards[:]
                base = at["known_cards"] + s * self.c
                c.clear((base, base + self.c))
                for code in cards:
                    m[base + tab.card[code]] = 1.0
        if st.maneuvered != c.maneuvered:
            c.maneuvered = _copy(st.maneuvered)
            c.clear(span["maneuvered"])
            _cards(m, at["maneuvered"], self.c, tab.card, st.maneuvered)
        if st.tactics != c.tactics:
            c.tactics = _copy(st.tactics)
            c.clear(span["tactics"])
            for s in range(n):
                _counts(m, at["tactics"] + s * self.k, tab.tactic, st.tactics[s])
        if (st.battle or c.battle_seen) and (  # out of battle, and written so: nothing to do
            st.battle != c.battle_seen
            or st.secret_tactics != c.secret_tactics
            or st.played_tactics != c.played_tactics
            or seat != c.secret_seat
        ):
            c.battle_seen = st.battle[:]
            c.secret_tactics = _copy(st.secret_tactics)
            c.played_tactics = _copy(st.played_tactics)
            c.secret_seat = seat
            c.clear((at["chosen"], span["played"][1]))  # chosen, my_secret, played
            self._battle(st, seat, tab, m)
        if (
            self.missions
            and st.mission_places
            and (
                st.mission_places != c.mission_places
                or seat != c.mission_seat
                or over != c.mission_over
                or st.public_missions != c.public_missions
                or st.private_missions != c.private_missions
                or len(st.mission_box) != c.mission_box
            )
        ):
            c.mission_places = _copy(st.mission_places)
            c.mission_seat, c.mission_over = seat, over
            c.public_missions = st.public_missions[:]
            c.private_missions = st.private_missions[:]
            c.mission_box = len(st.mission_box)
            c.clear((at["mission_public"], span["mission_box"][1]))
            self._missions_state(st, seat, tab, m)

    def _seldom(self, st: CandelabriaState, c: _Canvas) -> None:
        """The fields whose data change seldom (some of them differ): each written again if its
        data differ, and the copies compared all at once kept."""
        m = c.view
        tab = c.tab
        at = self.start
        span = self.span
        n = self.n
        if st.year != c.year or st.order != c.order:
            c.year, c.order = st.year, st.order[:]
            c.clear(span["year"])
            c.clear(span["order"])
            m[at["year"] + st.year - 1] = 1.0
            base = at["order"]
            for place, s in enumerate(st.order):
                m[base + s * n + place] = 1.0
        if st.castles != c.castles:
            c.castles = st.castles[:]
            c.clear(span["castles"])
            self._castles(st, tab, m)
        if st.curse_models != c.curse_models or st.curse_owners != c.curse_owners:
            c.curse_models, c.curse_owners = st.curse_models[:], st.curse_owners[:]
            c.clear(span["curse_models"])
            c.clear(span["curse_owner"])
            self._curse_models(st, tab, m)
        if st.corrupted != c.corrupted or st.temples != c.temples:
            c.corrupted, c.temples = st.corrupted, _copy(st.temples)
            c.clear((at["corrupted"], span["temple_top"][1]))
            self._regions(st, tab, m)
        # the Curse Board and the War Season
        if st.curses != c.curses or st.curse_influence != c.curse_influence:
            c.curses, c.curse_influence = st.curses[:], _copy(st.curse_influence)
            c.clear((at["curse_cards"], span["curse_flames"][1]))
            self._curses(st, tab, m)
        if st.battles_left != c.battles_left or st.battle != c.battle:
            c.battles_left, c.battle = st.battles_left[:], st.battle[:]
            c.clear((at["battles_left"], span["battle"][1]))
            for r in st.battles_left:
                m[at["battles_left"] + self.region_index[r]] = 1.0
            for s in st.battle:
                m[at["battle"] + s] = 1.0
        if st.upgrade_piles != c.upgrade_piles:
            c.upgrade_piles = _copy(st.upgrade_piles)
            c.clear((at["upgrade_tops"], span["upgrade_sizes"][1]))
            self._piles(st, tab, m)
        if st.house_of != c.house_of:
            c.house_of = st.house_of[:]
            c.clear(span["houses"])
            base = at["houses"]
            for s in range(n):
                m[base + s * len(HOUSES) + tab.house[st.house_of[s]]] = 1.0
        if st.seal_cards != c.seal_cards:
            c.seal_cards = _copy(st.seal_cards)
            c.clear(span["deployed"])
            _cards(m, at["deployed"], self.c, tab.card, st.seal_cards)
        if st.upgrades != c.upgrades:
            c.upgrades = _copy(st.upgrades)
            c.clear(span["upgrades"])
            _cards(m, at["upgrades"], len(TILES), tab.tile, st.upgrades)
        if st.tactics_used != c.tactics_used:
            c.tactics_used = _copy(st.tactics_used)
            c.clear(span["tactics_used"])
            for s in range(n):
                _counts(m, at["tactics_used"] + s * self.k, tab.tactic, st.tactics_used[s])
        if st.decay_slots != c.decay_slots:
            c.decay_slots = _copy(st.decay_slots)
            if self.decay:
                c.clear(span["decay_slots"])
                self._decay(st, tab, m)
        c.seldom = (
            c.year,
            c.order,
            c.castles,
            c.curse_models,
            c.curse_owners,
            c.corrupted,
            c.temples,
            c.curses,
            c.curse_influence,
            c.battles_left,
            c.battle,
            c.upgrade_piles,
            c.house_of,
            c.seal_cards,
            c.upgrades,
            c.tactics_used,
            c.decay_slots,
        )

    def _head(
        self, st: CandelabriaState, seat: int, frame: list[int], over: bool, c: _Canvas
    ) -> None:
        """What changes at almost every decision, written each time: who looks, whose turn, the
        pending decision, the season, and the end. The places written are kept, to clear next time."""
        m = c.view
        for i in c.head:
            m[i] = 0.0
        at = self.start
        if over:
            ones = [at["me"] + seat, at["over"], at["season"] + 2]
            ones += [at["winners"] + s for s in st.winning_seats]
            for i in ones:
                m[i] = 1.0
            base = at["scores"]
            for s, score in enumerate(st.final_scores):
                m[base + s] = _unit(score / VP_SCALE)
                ones.append(base + s)
            c.head = ones
            return
        season = 0
        for f in st.stack:
            if f[0] in _WAR_STEPS:
                season = 1
                break
        ones = [at["me"] + seat, at["active"] + st.active, at["season"] + season]
        if frame[0] == _SECRET:
            secret = st.secret_tactics
            base = at["to_act"]
            ones += [base + s for s in st.battle if not secret[s]]
        else:
            ones.append(at["to_act"] + frame[1])
        numbers = self._pending_state(st, seat, frame, c.tab, m, ones)
        for i in ones:
            m[i] = 1.0
        c.head = ones + numbers if numbers else ones

    def _pending_state(
        self,
        st: CandelabriaState,
        seat: int,
        frame: list[int],
        tab: _Tables,
        m: Memory,
        ones: list[int],
    ) -> list[int]:
        """``_pending`` of view.typed_pending: the decision on top of the stack and its details. The
        places of its ones are added to ``ones`` (the caller writes them); its numbers are written
        here, and their places returned."""
        at = self.start
        kind = frame[0]
        numbers: list[int] = []
        ones.append(at["decision"] + PHASE_DECISION[kind])
        if kind in _COUNTED:
            m[at["p_count"]] = _unit(frame[2] / COUNT_SCALE)
            numbers.append(at["p_count"])
            if kind in _COUNTED_REGION and frame[3] >= 0:
                ones.append(at["p_region"] + self.region_index[frame[3]])
        elif kind in _REGION:
            ones.append(at["p_region"] + self.region_index[frame[2]])
        elif kind in _TERRITORY:
            ones.append(at["p_territory"] + tab.terr[frame[2]])
            if kind == _PUSH_TO:
                ones.append(at["p_candle"] + frame[4] * 3 + frame[5])
                m[at["p_steps"]] = _unit(frame[3] / 3.0)
                numbers.append(at["p_steps"])
        elif kind == _MOVE:
            m[at["p_moves_left"]] = _unit(frame[2] / 3.0)
            m[at["p_extra_used"]] = float(bool(frame[3]))
            numbers += (at["p_moves_left"], at["p_extra_used"])
        elif kind == _DEPLOY_AT:
            ones.append(at["p_role"] + frame[2])
        elif kind == _CURSE_AT:
            ones.append(at["p_curse"] + frame[2])
        elif kind == _LIFT_TO:
            ones.append(at["p_candle"] + frame[2] * 3 + frame[3])
        elif kind == _KEEP:
            if seat == frame[1]:  # the cards drawn, to their drawer only
                card = tab.card
                base = at["p_cards"]
                ones += [base + card[code] for code in st.set_aside]
        elif kind in _DECAYED and frame[2] >= 0:
            ones.append(at["p_decay"] + tab.decay[frame[2]])
        return numbers

    def _castles(self, st: CandelabriaState, tab: _Tables, m: Memory) -> None:
        base = self.start["castles"]
        n = self.n
        seen: list[int] = []
        for s, t in enumerate(st.castles):
            if t >= 0 and t not in seen:  # one castle a territory: the lowest seat's (the view's)
                seen.append(t)
                m[base + tab.terr[t] * n + s] = 1.0

    def _candles(self, st: CandelabriaState, tab: _Tables, m: Memory) -> None:
        base = self.start["candles"]
        n = self.n
        terr = tab.terr
        for s in range(n):
            where = st.candle_territories[s]
            on = st.candle_flames[s]
            for r in range(3):
                t = where[r]
                if t >= 0:
                    m[base + (terr[t] * n + s) * 3 + r] = _unit((on[r] + 1) / (ROLE_FLAMES + 1))

    def _curse_models(self, st: CandelabriaState, tab: _Tables, m: Memory) -> None:
        at = self.start
        n = self.n
        owners = st.curse_owners
        for k, t in enumerate(st.curse_models):
            if t >= 0:
                m[at["curse_models"] + tab.terr[t] * CURSE_PLACES + k] = 1.0
                if owners[k] >= 0:
                    m[at["curse_owner"] + k * n + owners[k]] = 1.0

    def _regions(self, st: CandelabriaState, tab: _Tables, m: Memory) -> None:
        """Corrupted regions and their temples (levels by colour, the top one)."""
        at = self.start
        ri = self.region_index
        corrupted = st.corrupted
        colour_of = tab.temple
        levels = [0, 0, 0]
        for r in st.board.regions:
            place = ri[r]
            if corrupted >> r & 1:
                m[at["corrupted"] + place] = 1.0
            temples = st.temples[r]
            if temples:
                levels[0] = levels[1] = levels[2] = 0
                for colour in temples:
                    levels[colour_of[colour]] += 1
                base = at["temples"] + place * 3
                for i in range(3):
                    if levels[i]:
                        m[base + i] = TEMPLE_SUMS[levels[i]]
                m[at["temple_top"] + place * 3 + colour_of[temples[-1]]] = 1.0

    def _curses(self, st: CandelabriaState, tab: _Tables, m: Memory) -> None:
        """The Curse Board and the flames before each curse."""
        at = self.start
        n = self.n
        n_curses = len(CURSE_CARDS)
        for k, curse in enumerate(st.curses[:CURSE_PLACES]):
            m[at["curse_cards"] + k * n_curses + tab.curse[curse]] = 1.0
            base = at["curse_flames"] + k * n
            for s, flames in enumerate(st.curse_influence[k]):
                if flames:
                    m[base + s] = _unit(flames / LAND_FLAMES)

    def _piles(self, st: CandelabriaState, tab: _Tables, m: Memory) -> None:
        """The Upgrade piles' tops and sizes."""
        tops, sizes = self.start["upgrade_tops"], self.start["upgrade_sizes"]
        n_tiles = len(TILES)
        for p, pile in enumerate(st.upgrade_piles):
            if pile:
                m[tops + p * n_tiles + tab.tile[pile[-1]]] = 1.0
                m[sizes + p] = _unit(len(pile) / 4.0)

    def _supplies(self, st: CandelabriaState, tab: _Tables, m: Memory) -> None:
        """The temples left, the decks' sizes and the reserve (every place written)."""
        at = self.start
        base = at["temples_left"]
        for colour, left in enumerate(st.temple_supply):
            m[base + tab.temple[colour]] = _unit(left / TEMPLES_EACH)
        decks = at["decks"]
        m[decks] = _unit(len(st.curse_deck) / CURSE_DECK)
        m[decks + 1] = _unit(len(st.tactics_deck) / TACTICS_DECK)
        m[decks + 2] = _unit(len(st.advanced_deck) / len(ADVANCED))
        m[decks + 3] = _unit(len(st.decay_deck) / len(DECAY)) if st.decay_slots else 0.0
        m[at["reserve"]] = _unit(st.reserve_gold / RESERVE)
        m[at["reserve"] + 1] = _unit(st.reserve_wax / RESERVE)

    def _battle(self, st: CandelabriaState, seat: int, tab: _Tables, m: Memory) -> None:
        """In a battle: who has chosen, the seat's own secret choice, the cards revealed."""
        battle = st.battle
        if not battle:
            return
        at = self.start
        k = self.k
        tactic = tab.tactic
        for s in battle:
            played = st.played_tactics[s]
            secret = st.secret_tactics[s]
            if secret:
                m[at["chosen"] + s] = 1.0  # that it has chosen is seen; what, by itself only
                if s == seat:
                    base = at["my_secret"]
                    for slot, code in enumerate(secret):
                        m[base + slot * (k + 1) + (tactic[code] if code >= 0 else k)] = 1.0
            elif any(code != -1 for code in played):
                base = at["played"] + s * SLOTS * (k + 2)
                for slot, code in enumerate(played):
                    index = tactic[code] if code >= 0 else (k + 1 if code == -2 else k)
                    m[base + slot * (k + 2) + index] = 1.0

    def _decay(self, st: CandelabriaState, tab: _Tables, m: Memory) -> None:
        """The Decay cards over each War Board slot."""
        if not st.decay_slots:
            return
        n_decay = len(DECAY)
        for s in range(self.n):
            base = self.start["decay_slots"] + s * SLOTS * n_decay
            for slot, code in enumerate(st.decay_slots[s]):
                if code >= 0:
                    m[base + slot * n_decay + tab.decay[code]] = 1.0

    def _missions_state(self, st: CandelabriaState, seat: int, tab: _Tables, m: Memory) -> None:
        """``_missions`` of view._missions: the public missions, the seat's own private one and those
        revealed, each with its places."""
        at = self.start
        n = self.n
        mission = tab.mission
        places_at = at["mission_places"]

        def places(card: int) -> None:
            base = places_at + mission[card] * 3 * (n + 1)
            for p, holder in enumerate(st.mission_places[card]):
                if holder >= 0:
                    m[base + p * (n + 1) + holder] = 1.0
                elif holder == -2:  # blocked
                    m[base + p * (n + 1) + n] = 1.0

        for card in st.public_missions:
            m[at["mission_public"] + mission[card]] = 1.0
            places(card)
        for owner in range(n):
            if owner == seat or revealed(st, owner):
                card = st.private_missions[owner]
                m[at["mission_private"] + mission[card] * n + owner] = 1.0
                places(card)
        m[at["mission_box"]] = _unit(len(st.mission_box) / len(MISSIONS))

    def _house_choice(self, st: CandelabriaState, seat: int, frame: list[int], c: _Canvas) -> None:
        """``fill`` of view._house_choice (the 2-player house choice): the decided only — the house
        the first chooser took, the supplies — every other field left empty."""
        m = c.view
        at = self.start
        content = st.content
        tab = c.tab
        m[at["me"] + seat] = 1.0
        m[at["to_act"] + frame[1]] = 1.0
        m[at["decision"] + PHASE_DECISION[Phase.PICK]] = 1.0
        m[at["p_stage"] + frame[2]] = 1.0
        if frame[2]:
            first = tab.house[frame[3]]
            m[at["p_first"] + first] = 1.0
            m[at["houses"] + (frame[1] ^ 1) * len(HOUSES) + first] = 1.0
        m[at["year"] + st.year - 1] = 1.0
        season = 0
        for f in st.stack:
            if f[0] in _WAR_STEPS:
                season = 1
                break
        m[at["season"] + season] = 1.0
        m[at["turn"]] = _unit(st.turns / self.turn_scale)
        base = at["temples_left"]
        for colour, left in enumerate(content.temples):
            m[base + tab.temple[colour]] = _unit(left / TEMPLES_EACH)
        m[at["reserve"]] = _unit(content.reserve[0] / RESERVE)
        m[at["reserve"] + 1] = _unit(content.reserve[1] / RESERVE)
        if self.missions and st.mission_places:
            box = len(st.mission_box) + len(st.public_missions) + len(st.private_missions)
            m[at["mission_box"]] = _unit(box / len(MISSIONS))

    def fill(self, view: CandelabriaView, out: np.ndarray) -> None:
        at = self.at
        n = self.n
        seat_of = {info.house: info.seat for info in view.seats}
        ti = self.terr_index
        ri = self.region_index
        seat = view.seat
        pending = view.pending
        self.fill_seats(out, seat, view.active, None if pending is None else pending.seats)
        if pending is not None:
            self._pending(pending, seat_of, out)
        out[at["year"].start + view.year - 1] = 1.0
        out[at["season"].start + SEASONS.index(view.season)] = 1.0
        out[at["turn"].start] = view.turn / self.turn_scale
        for place, s in enumerate(view.order):
            out[at["order"].start + s * n + place] = 1.0
        # the map
        lf, castles, candles = at["land_flames"].start, at["castles"].start, at["candles"].start
        for terr in view.territories:
            t = ti[terr.territory]
            for h in terr.land_flames:
                out[lf + t * n + seat_of[h]] = 1.0
            if terr.castle is not UNSET:
                out[castles + t * n + seat_of[terr.castle]] = 1.0
            if terr.candles is not UNSET:
                for candle in terr.candles:
                    h, _, role = candle.candle.partition("-")
                    place = (t * n + seat_of[h]) * 3 + ROLES.index(role)
                    out[candles + place] = (candle.flames + 1) / (ROLE_FLAMES + 1)
        for model in view.curse_models:
            k = model.curse - 1
            out[at["curse_models"].start + ti[model.territory] * CURSE_PLACES + k] = 1.0
            if model.owner is not None:
                out[at["curse_owner"].start + k * n + seat_of[model.owner]] = 1.0
        for region in view.regions:
            r = ri[region.region]
            if region.corrupted:
                out[at["corrupted"].start + r] = 1.0
            temples = region.temples
            for colour in temples:
                out[at["temples"].start + r * 3 + TEMPLE_NAMES.index(colour)] += 1 / TEMPLES_EACH
            if temples:
                out[at["temple_top"].start + r * 3 + TEMPLE_NAMES.index(temples[-1])] = 1.0
        # the Curse Board and the War Season
        for k, curse in enumerate(view.curses[:CURSE_PLACES]):
            out[at["curse_cards"].start + k * len(CURSE_CARDS) + CURSE_INDEX[curse.curse]] = 1.0
            for h, flames in curse.flames.items():
                out[at["curse_flames"].start + k * n + seat_of[h]] = flames / LAND_FLAMES
        for region_number in view.battles_left:
            out[at["battles_left"].start + ri[region_number]] = 1.0
        for s in view.battle:
            out[at["battle"].start + s] = 1.0
        # the public boards and decks
        self.add_counts(
            out,
            at["tactics_board"].start,
            (TACTIC_INDEX[code] for code in view.tactics_board),
            1.0 / TACTIC_COPIES,
        )
        for p, pile in enumerate(view.upgrade_piles):
            if pile.top is not None:
                out[at["upgrade_tops"].start + p * len(TILES) + TILE_INDEX[pile.top]] = 1.0
            out[at["upgrade_sizes"].start + p] = pile.size / 4.0
        for i, colour in enumerate(TEMPLE_NAMES):
            out[at["temples_left"].start + i] = view.temples_left[colour] / TEMPLES_EACH
        decks = at["decks"].start
        out[decks] = view.curse_deck / CURSE_DECK
        out[decks + 1] = view.tactics_deck / TACTICS_DECK
        out[decks + 2] = view.advanced_deck / len(ADVANCED)
        if view.decay_deck is not UNSET:
            out[decks + 3] = view.decay_deck / len(DECAY)
        out[at["reserve"].start] = view.reserve.gold / RESERVE
        out[at["reserve"].start + 1] = view.reserve.wax / RESERVE
        for info in view.seats:
            self._seat(info, seat, out)
        if self.missions and view.missions is not UNSET:
            self._missions(view.missions, seat_of, out)
        if isinstance(view, FinishedView):
            self.fill_winners(out, view.winners)
            for s, score in enumerate(view.scores):
                out[at["scores"].start + s] = score / VP_SCALE

    def _pending(self, pending: Pending, seat_of: dict[str | None, int], out: np.ndarray) -> None:
        at = self.at
        out[at["decision"].start + DECISION_INDEX[pending.decision]] = 1.0
        if pending.region is not UNSET and pending.region is not None:
            out[at["p_region"].start + self.region_index[pending.region]] = 1.0
        if pending.territory is not UNSET:
            out[at["p_territory"].start + self.terr_index[pending.territory]] = 1.0
        if pending.count is not UNSET:
            out[at["p_count"].start] = pending.count / COUNT_SCALE
        if pending.moves_left is not UNSET:
            out[at["p_moves_left"].start] = pending.moves_left / 3.0
            out[at["p_extra_used"].start] = float(pending.extra_used is True)
        if pending.steps is not UNSET:
            out[at["p_steps"].start] = pending.steps / 3.0
        if pending.candle is not UNSET:
            h, _, role = pending.candle.partition("-")
            out[at["p_candle"].start + seat_of[h] * 3 + ROLES.index(role)] = 1.0
        if pending.role is not UNSET:
            out[at["p_role"].start + ROLE_NAMES.index(pending.role.lower())] = 1.0
        if pending.curse is not UNSET:
            out[at["p_curse"].start + pending.curse - 1] = 1.0
        if pending.stage is not UNSET:
            out[at["p_stage"].start + pending.stage - 1] = 1.0
        if pending.first is not UNSET:
            out[at["p_first"].start + HOUSES.index(pending.first)] = 1.0
        if pending.cards is not UNSET:
            for code in pending.cards:
                out[at["p_cards"].start + CARD_INDEX[code]] = 1.0
        if pending.decay is not UNSET and pending.decay is not None:
            out[at["p_decay"].start + DECAY_INDEX[pending.decay.card]] = 1.0

    def _seat(self, info: Seat, viewer: int | None, out: np.ndarray) -> None:
        at = self.at
        s = info.seat
        c, k = self.c, self.k
        if info.house is not None:  # None: not chosen yet (2-player house choice)
            out[at["houses"].start + s * len(HOUSES) + HOUSES.index(info.house)] = 1.0
        out[at["vp"].start + s] = info.vp / VP_SCALE
        out[at["gold"].start + s] = info.gold / WAREHOUSE
        out[at["wax"].start + s] = info.wax / WAREHOUSE
        out[at["land_supply"].start + s] = info.land_flames / LAND_FLAMES
        out[at["candle_supply"].start + s] = info.candle_flames / CANDLE_FLAMES
        out[at["hand_size"].start + s] = info.hand_size / HAND_SCALE
        for code in info.deployed:
            if code is not None:
                out[at["deployed"].start + s * c + CARD_INDEX[code]] = 1.0
        for code in info.maneuvered:
            out[at["maneuvered"].start + s * c + CARD_INDEX[code]] = 1.0
        # its own hand (every hand once the game is over), else the cards it is known to hold
        known = info.hand if info.hand is not UNSET else info.known_hand
        if known is not UNSET:
            for code in known:
                out[at["known_cards"].start + s * c + CARD_INDEX[code]] = 1.0
        for code in info.upgrades:
            out[at["upgrades"].start + s * len(TILES) + TILE_INDEX[code]] = 1.0
        step = 1.0 / TACTIC_COPIES
        self.add_counts(
            out, at["tactics"].start + s * k, (TACTIC_INDEX[code] for code in info.tactics), step
        )
        self.add_counts(
            out,
            at["tactics_used"].start + s * k,
            (TACTIC_INDEX[code] for code in info.tactics_used),
            step,
        )
        if info.chosen is True:
            out[at["chosen"].start + s] = 1.0
        if s == viewer and info.secret is not UNSET:
            for slot, secret in enumerate(info.secret):
                index = k if secret is None else TACTIC_INDEX[secret]
                out[at["my_secret"].start + slot * (k + 1) + index] = 1.0
        if info.played is not UNSET:
            for slot, played in enumerate(info.played):
                if played is None:
                    index = k
                else:
                    index = k + 1 if played == "resolved" else TACTIC_INDEX[played]
                out[at["played"].start + (s * SLOTS + slot) * (k + 2) + index] = 1.0
        if self.decay and info.decay is not UNSET:
            for slot, card in enumerate(info.decay):
                if card is not None:
                    place = (s * SLOTS + slot) * len(DECAY) + DECAY_INDEX[card.card]
                    out[at["decay_slots"].start + place] = 1.0

    def _missions(
        self, missions: Missions, seat_of: dict[str | None, int], out: np.ndarray
    ) -> None:
        at = self.at
        n = self.n

        def places(card: Mission) -> None:
            m = MISSION_INDEX[card.mission]
            for p, holder in enumerate(card.places):
                if holder is None:
                    continue
                index = n if holder == "blocked" else seat_of[holder]
                out[at["mission_places"].start + (m * 3 + p) * (n + 1) + index] = 1.0

        for card in missions.public:
            out[at["mission_public"].start + MISSION_INDEX[card.mission]] = 1.0
            places(card)
        for house, private in missions.private.items():
            if private is not None:
                m = MISSION_INDEX[private.mission]
                out[at["mission_private"].start + m * n + seat_of[house]] = 1.0
                places(private)
        out[at["mission_box"].start] = missions.box / len(MISSIONS)


def encoder(config: Config) -> CandelabriaEncoder:
    return CandelabriaEncoder(config)


ENCODING = Encoding(
    action_texts=action_texts,
    encoder=encoder,
    max_game_length=max_game_length,
    always_a_winner=always_a_winner,
)
