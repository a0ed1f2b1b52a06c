"""Change marks: a counter per part of the state that the observation reads, moved by the rules
wherever they write that part, so that a reader keeping a state's last observation rewrites only
the parts whose marks moved instead of comparing the state's lists with kept copies (docs/rl.md,
"Candelabria's reader against its cap").

``st.marks`` is a list of ints, one per part below (and one per seat for the hands). A part's mark
moves by one integer add: a rule that writes the part calls :func:`moved` (or a helper named after
what it does that calls it) once, after or before its writes, in the same action. Marks are only
ever compared for equality with the same state's earlier marks, so their values mean nothing
alone. Every new state object has its own marks list — ``__init__``, ``State.clone`` (which copies
lists), a loaded save, a pickle — and a reader keeps the list object it read from, so a reader of
a new object rewrites everything (readers key their kept rows by ``id``, which Python reuses).

``tests/candelabria/test_marks.py`` holds the rules to it: after every action of random games, every
part whose mark did not move must read as it did before the action (:func:`part_data`).
"""

from __future__ import annotations

from typing import Any, Protocol


class Marked(Protocol):
    """A Candelabria state as this module sees it (state.py imports this module, not the reverse)."""

    marks: list[int]
    hands: list[list[int]]
    known_hands: list[list[int]]


# The parts, in the order of ``st.marks``. Plain ints, not an enum: the rules index with them.
ORDER = 0  # the year and the turn order
CASTLES = 1  # the Wandering Castles
CURSE_MODELS = 2  # the curse models on the map and who controls them
REGIONS = 3  # the corrupted regions and their temples
CURSE_BOARD = 4  # the Curse Board's cards and the Land Flames in front of them
BATTLES = 5  # the battles left and the battle being fought
UPGRADE_PILES = 6  # the Upgrade Board's piles
HOUSES = 7  # each seat's house
SEALS = 8  # the candle cards deployed on each seat's seals
UPGRADES = 9  # each seat's upgrade tiles
TACTICS_USED = 10  # the tactic cards used this War
DECAY = 11  # the Decay cards over the War Board slots
LAND_FLAMES = 12  # the Land Flames on the map
CANDLES = 13  # the candles on the map and their flames
TACTICS_BOARD = 14  # the face-up Tactics board
DECKS = 15  # the decks' sizes and the temple levels left
RESOURCES = 16  # each seat's gold and wax, and the reserve
VP = 17  # each seat's victory points
FLAME_SUPPLY = 18  # each seat's Land and Candle Flames in its supply
MANEUVERED = 19  # the cards discarded to maneuver
TACTICS = 20  # each seat's tactic cards
SECRETS = 21  # a battle's secret choices and revealed tactic cards
MISSIONS = 22  # the missions: their places, the public and private ones, the box's size
HAND = 23  # HAND + seat: that seat's hand and the cards in it everyone knows

# The state's slots each part covers (the hands' part is per seat: see ``part_data``).
SLOTS: dict[int, tuple[str, ...]] = {
    ORDER: ("year", "order"),
    CASTLES: ("castles",),
    CURSE_MODELS: ("curse_models", "curse_owners"),
    REGIONS: ("corrupted", "temples"),
    CURSE_BOARD: ("curses", "curse_influence"),
    BATTLES: ("battles_left", "battle"),
    UPGRADE_PILES: ("upgrade_piles",),
    HOUSES: ("house_of",),
    SEALS: ("seal_cards",),
    UPGRADES: ("upgrades",),
    TACTICS_USED: ("tactics_used",),
    DECAY: ("decay_slots",),
    LAND_FLAMES: ("land_flames",),
    CANDLES: ("candle_territories", "candle_flames"),
    TACTICS_BOARD: ("tactics_board",),
    DECKS: ("advanced_deck", "curse_deck", "tactics_deck", "decay_deck", "temple_supply"),
    RESOURCES: ("gold", "wax", "reserve_gold", "reserve_wax"),
    VP: ("vp",),
    FLAME_SUPPLY: ("land_flame_supply", "candle_flame_supply"),
    MANEUVERED: ("maneuvered",),
    TACTICS: ("tactics",),
    SECRETS: ("secret_tactics", "played_tactics"),
    MISSIONS: ("mission_places", "public_missions", "private_missions", "mission_box"),
}
# Of these slots the observation reads only the size: a reorder (a shuffle) need not move a mark.
SIZES = frozenset({"advanced_deck", "curse_deck", "tactics_deck", "decay_deck", "mission_box"})


def new_marks(players: int) -> list[int]:
    """A new state's marks: one per part and one per seat's hand."""
    return [0] * (HAND + players)


def moved(st: Marked, part: int) -> None:
    """The rules wrote ``part`` (one of the constants above, or ``HAND + seat``)."""
    st.marks[part] += 1


def all_moved(st: Marked) -> None:
    """The rules wrote most of the state at once (a year's Epilogue and setup, a new setup)."""
    marks = st.marks
    for part in range(len(marks)):
        marks[part] += 1


def hand_moved(st: Marked, seat: int) -> None:
    """The rules wrote ``seat``'s hand or the cards in it everyone knows."""
    st.marks[HAND + seat] += 1


def part_data(st: Marked, part: int) -> Any:
    """What the observation may read of ``part``, as a value that later writes to the state leave
    alone (for comparing a part before and after an action)."""
    if part >= HAND:
        seat = part - HAND
        return (st.hands[seat][:], st.known_hands[seat][:])
    return tuple(_plain(name, getattr(st, name)) for name in SLOTS[part])


def _plain(name: str, value: Any) -> Any:
    if name in SIZES:
        return len(value)
    if type(value) is list:
        return [item[:] if type(item) is list else item for item in value]
    return value
