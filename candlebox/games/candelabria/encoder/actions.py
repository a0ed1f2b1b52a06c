"""The Candelabria action numbering (the package's docstring lists it in id order) and the bounds
on a game's length that follow from a configuration.
"""

from __future__ import annotations

from typing import Any

from candlebox.engine.encoding import Config
from candlebox.games.candelabria.encoder.facts import (
    _FACTS,
    ADVANCED,
    BATTLE_DECISIONS,
    COMMON,
    CURSE_PLACES,
    HOUSE_CARDS,
    HOUSES,
    MODELS,
    PICKS,
    PILES,
    ROLES,
    TACTIC_CARDS,
    TACTICS,
    TEMPLE_LETTERS,
    TURN_DECISIONS,
    WAR_EXTRA,
    WAREHOUSE,
    YEARS,
)


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
    houses = seatable(config)
    texts = _declining_texts(config, two, shifting)
    texts += _candle_card_texts(config)
    texts += _territory_texts(side["territories"], two, shifting)
    texts += [f"ignite {r}" for r in ROLES]
    texts += [f"relocate {m}" for m in MODELS]
    for h in houses:
        texts += _house_texts(h, two)
    texts += [f"cancel {mine} {h} {theirs}" for mine in (1, 2) for h in houses for theirs in (1, 2)]
    texts += _board_texts(config, two, side["regions"])
    texts += [f"take {c}" for c in COMMON]
    texts += play_texts(config)
    if decay:
        texts += ["decay 1", "decay 2", "either 1", "either 2"]
    return texts


def _declining_texts(config: Config, two: bool, shifting: bool) -> list[str]:
    """The actions that decline: stop, do nothing more, cancel nothing, and those the options add."""
    texts = ["done", "skip", "pass"]
    if shifting:
        texts.append("stay")
    if "optional" in (config.options.get("castle_entry"), config.options.get("warrior_push")):
        texts.append("spare")
    if not two:
        texts.append("supply")
    return texts


def _candle_card_texts(config: Config) -> list[str]:
    """Deploy, maneuver, return (and keep, where Nova Vita draws three) each candle card in play."""
    cards = cards_in_play(config)
    texts = [f"deploy {c} {r}" for c in cards for r in ROLES]
    texts += [f"maneuver {c}" for c in cards]
    texts += [f"return {c}" for c in cards]
    if _has_power(config, "draw-three"):
        texts += [f"keep {c}" for c in cards]
    return texts


def _territory_texts(terr: list[str], two: bool, shifting: bool) -> list[str]:
    """The actions on a territory: placing, sending, igniting and extinguishing there, the models'
    moves to it, and (by the options) shifting a candle or moving a curse there."""
    texts: list[str] = []
    for verb in ("at", "to", "ignite", "extinguish"):
        texts += [f"{verb} {t}" for t in terr]
    texts += [f"move {m} {t}" for m in MODELS for t in terr]
    texts += [f"extra {r} {t}" for r in ROLES for t in terr]
    if shifting:
        texts += [f"shift {r} {t}" for r in ROLES for t in terr]
    if two:
        texts += [f"haunt {k} {t}" for k in range(1, CURSE_PLACES + 1) for t in terr]
    return texts


def _house_texts(h: str, two: bool) -> list[str]:
    """The actions aimed at house ``h``: its flames destroyed or put out, its candles pushed, recast
    or lifted, its gold and wax stolen (with two players: choosing it)."""
    texts = [f"destroy {h}"]
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
    return texts


def _board_texts(config: Config, two: bool, regions: list[int]) -> list[str]:
    """The Curse board's places, the Upgrade piles, the temples and the Mine's takings."""
    texts: list[str] = [] if two else [f"curse {k}" for k in range(1, CURSE_PLACES + 1)]
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
