"""The options of The Curse of Candelabria, declared as data.

Two kinds the shared :class:`~candlebox.engine.Option` does not read yet are handled by a subclass here:
``text`` (the ``content`` folder) and ``codes-map`` (``decks``: deck name -> card codes, top first; at
the command line ``curse=5,3,2;advanced=A01 A02``).
"""

from __future__ import annotations

from typing import Any

from candlebox.engine import Fixed, Option
from candlebox.games.candelabria.setup import DECK_NAMES

MAX_TURNS = 1000  # Kindling turns; a three-year game takes about 30 per player
MAX_TURNS_LIMIT = 100_000  # the largest max_turns accepted: a bound for hostile input


class CandelabriaOption(Option):
    def _normalise(self, value: Any) -> Any:
        if self.kind == "text":
            if not isinstance(value, str) or not value.strip():
                raise ValueError(f"option {self.name!r} takes a folder path (text), got {value!r}")
            return value
        if self.kind == "codes-map":
            if not isinstance(value, dict):
                raise ValueError(
                    f"option {self.name!r} takes a mapping of deck name to card codes (top first), "
                    f"got {value!r}"
                )
            result: dict[str, list[str]] = {}
            for name, codes in value.items():
                if not isinstance(name, str):
                    raise ValueError(f"option {self.name!r}: deck names are text, got {name!r}")
                if isinstance(codes, str) or not isinstance(codes, list | tuple):
                    raise ValueError(
                        f"option {self.name!r}: {name}: a list of card codes, got {codes!r}"
                    )
                if not all(isinstance(code, str) for code in codes):
                    raise ValueError(f"option {self.name!r}: {name}: every card code must be text")
                result[name] = list(codes)
            return result
        return super()._normalise(value)

    def parse(self, text: str) -> Any:
        if self.kind == "codes-map":
            text = text.strip()
            if text.lower() in ("", "none", "null"):
                return self.validate(None)
            decks: dict[str, list[str]] = {}
            for part in text.split(";"):
                name, sep, codes = part.partition("=")
                if not sep:
                    raise ValueError(
                        f"option {self.name!r}: write NAME=CODES;NAME=CODES, got {part!r}"
                    )
                decks[name.strip()] = [c for c in codes.replace(",", " ").split() if c]
            return self.validate(decks)
        return super().parse(text)


def _check_decks(decks: dict[str, list[str]]) -> str | None:
    unknown = sorted(set(decks) - set(DECK_NAMES))
    if unknown:
        return f"no deck {', '.join(map(repr, unknown))}; decks: {', '.join(DECK_NAMES)}"
    return None


OPTIONS = (
    CandelabriaOption(
        "decks",
        "codes-map",
        None,
        "the top of any deck after setup, top first, the rest shuffled beneath: 'curse' (curse cards "
        "by region, in the order they will be drawn), 'tactics' (the first 6 make the Tactics "
        "board), 'advanced' (Advanced Candle cards), 'upgrades' (dealt to the Upgrade piles in "
        "order, pile 1 top first)",
        check=_check_decks,
    ),
    CandelabriaOption(
        "first_player",
        "int",
        None,
        "the seat first in turn order (it gets the house with the lowest turn-order number)",
        minimum=0,
        maximum=4,
    ),
    CandelabriaOption(
        "houses",
        "codes",
        None,
        "the house of each seat, by code or name, seat 1 first (e.g. C N S); otherwise dealt at random",
    ),
    CandelabriaOption(
        "max_turns",
        "int",
        MAX_TURNS,
        "end the game early, after this many Kindling turns: the most VP then wins",
        minimum=1,
        maximum=MAX_TURNS_LIMIT,
        nullable=False,
    ),
    CandelabriaOption(
        "content",
        "text",
        None,
        "a folder holding your own content pack (board.json, houses.json, curses.json, "
        "tactics.json, candles.json, upgrades.json, components.json); default: the shipped "
        "reconstruction",
    ),
    CandelabriaOption(
        "design",
        "bool",
        False,
        "play the 'content' pack in design mode: its printed values (the amounts of house powers "
        "and Upgrade tiles) may differ from the rulebook's, while every structural check stays "
        "(candlebox simulate --design)",
        nullable=False,
    ),
    CandelabriaOption(
        "upgrade_pile",
        "int",
        3,
        "tiles per Upgrade Board pile: 3 as printed (9 of the 36 tiles stay in the box) or 4 "
        "(all 36 in play)",
        minimum=3,
        maximum=4,
        nullable=False,
        label="Upgrade Tiles per pile",
    ),
    CandelabriaOption(
        "warrior_push",
        "choice",
        "forced",
        "whether a Warrior entering a territory must push an enemy candle there ('forced') or may "
        "spare it ('optional')",
        choices=("forced", "optional"),
        nullable=False,
        label="A Warrior entering a territory",
        choice_labels=("must push an enemy Candle away", "may leave the enemy Candles"),
    ),
    CandelabriaOption(
        "castle_entry",
        "choice",
        "forced",
        "whether a Wandering Castle entering a territory must destroy an enemy flame there "
        "('forced') or may spare them ('optional')",
        choices=("forced", "optional"),
        nullable=False,
        label="A Wandering Castle entering a territory",
        choice_labels=("must destroy an enemy flame", "may spare the enemy flames"),
    ),
    CandelabriaOption(
        "missions",
        "bool",
        False,
        "the Missions expansion: two Mission cards each (one private, one public); Yearly missions "
        "4/8/12 VP once a year, Ranking missions 12/8/4 VP for the first three",
        nullable=False,
        label="Missions expansion",
    ),
    CandelabriaOption(
        "battle_shift",
        "choice",
        "last",
        "after each battle its winner moves to the last place of the turn order ('last') or the "
        "order stays as it is ('none')",
        choices=("last", "none"),
        nullable=False,
        label="After each battle",
        choice_labels=("its winner goes last in the turn order", "the turn order stays"),
    ),
    CandelabriaOption(
        "decay",
        "bool",
        False,
        "the Decay expansion (3–5 players): the house second in the race for a curse draws a Decay "
        "card and places it over a War Board slot for the War Season",
        nullable=False,
        label="Decay expansion",
    ),
    CandelabriaOption(
        "decay_draw",
        "choice",
        "second",
        "with Decay, who draws a Decay card for each curse granted: the house second in the race "
        "('second') or every house that put a flame in front of it and did not win it ('every')",
        choices=("second", "every"),
        nullable=False,
        label="A Decay card for each curse goes to",
        choice_labels=(
            "the house second in the race for it",
            "every house that tried for it and failed",
        ),
    ),
)
_DECAY = ("decay", "decay_draw")
_BY_NAME = {o.name: o for o in OPTIONS}

# With 2 players ``first_player`` fixes who chooses a house first; the turn order then follows the
# houses' printed numbers (rulings CA-2P1).
FIRST_CHOOSER = CandelabriaOption(
    "first_player",
    "int",
    None,
    "the seat that chooses its house first (otherwise drawn at random); the turn order then follows "
    "the houses chosen",
    minimum=0,
    maximum=1,
    label="Who chooses a house first",
)
# The 2-player mode grants no curses, so nobody ever arrives second: no Decay (rulings CA-D4). Asking
# for it off (its default, as in every variant) is accepted.
OPTIONS_TWO_PLAYER = tuple(
    FIRST_CHOOSER if o.name == "first_player" else o for o in OPTIONS if o.name not in _DECAY
)
_NO_DECAY = "with 2 players no curse is granted, so nobody arrives second (rulings CA-D4)"
FIXED_TWO_PLAYER = (
    Fixed(_BY_NAME["decay"], False, _NO_DECAY),
    Fixed(_BY_NAME["decay_draw"], "second", _NO_DECAY),
)
