"""The Curse of Candelabria in words: the log's sentences, plain strings shared by the terminal, the
server and the pages ("seat N" becomes the player's name on the page).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from candlebox.engine.plugin import PLAIN, GameText, Marks, seat_word
from candlebox.engine.state import State
from candlebox.games.candelabria.components import content_of
from candlebox.games.candelabria.state import CandelabriaState
from candlebox.games.candelabria.words import table, territory_name

# Fields that hold a seat number (a territory in "from" is text, so only numbers are seats).
_SEAT_FIELDS = frozenset({"seat", "owner", "from"})
_ROLE = {"E": "Explorer", "P": "Pilgrim", "W": "Warrior", "C": "Castle", "land": "Land Flame"}

# The Curse of Candelabria's log events in words. Fields as in docs/notation/candelabria.md, "Log
# events".
_CANDELABRIA: dict[str, str] = {
    "setup": "The {side} side of the board is laid out.",
    "start": "{seat} ({house}) starts in region {region}, castle on {castle}.",
    "year": "Year {year} begins.",
    "mist": "Mist of Year {year}.",
    "curse": "The curse of region {region} goes on the Curse board (place {place}).",
    "house-candle": "{seat} gets house candle {card}.",
    "kindling": "Kindling of Year {year}.",
    "deploy": "{seat} deploys {card} as {role} on {territory} ({wax} wax, {flames} flames).",
    "place": "{seat} places the {role} on {territory}.",
    "maneuver": "{seat} maneuvers, discarding {card}.",
    "move": "{seat} moves the {model} {from} → {to}.",
    "destroy": "{seat} destroys a flame of {owner} ({role}) on {territory}.",
    "spare": "{seat} spares {territory}.",
    "push": "{seat} pushes the {role} of {owner} {from} → {to}.",
    "land": "{seat} lights a Land Flame on {territory}.",
    "no-land-flame": "{seat} cannot light a Land Flame on {territory}.",
    "influence": "{seat} places a flame in front of Curse {curse}.",
    "flame": "{seat} puts the extinguished Land Flame in front of Curse {curse}.",
    "refill": "The Tactics board is refilled.",
    # {card} is a tactic's code; its name ("Tactic card: 2 VP") replaces it in notices
    "take": "{seat} takes {card}.",
    "upgrade": "{seat} buys upgrade {tile} from pile {pile}.",
    "temple": "{seat} builds a {colour} Temple level in region {region}.",
    "raze": "{seat} destroys a {colour} Temple level in region {region}.",
    "mine": "{seat} mines {gold} gold and {wax} wax.",
    "relocate": "{seat} relocates the {model} {from} → {to} through the Portal.",
    "draw": "{seat} draws a candle card.",
    "deck-empty": "The Advanced deck is empty.",
    "keep": "{seat} keeps one of the cards drawn.",
    "bottom": "{seat} puts {count} card(s) under the Advanced deck.",
    "return": "{seat} returns a card under the Advanced deck.",
    "vp": "{seat} scores {amount} VP ({reason}).",
    "ignite": "{seat} ignites a flame.",
    "extinguish": "{seat} extinguishes a flame of {owner} ({role}) on {territory}.",
    "steal": "{seat} steals 1 {resource} from {from}.",
    "shift": "{seat} moves the {role} {from} → {to}.",
    "end-turn": "end of turn {turn}",
    "war": "War of Year {year}.",
    "curse-unclaimed": "Curse {curse} stays unclaimed ({reason}).",
    "deploy-curse": "{seat} wins Curse {curse} and sets it on {territory}.",
    "order": "A new turn order.",
    "recast": "{seat} repeats the effects of {card} ({owner}).",
    "lift": "{seat} lifts the {role} of {owner} {from} → {to}.",
    "battles": "Battles this War: regions {regions}.",
    "battle": "The battle for region {region} begins.",
    "chose": "{seat} chose in secret.",
    "reveal": "{seat} reveals: {cards}.",
    "cancel": "{seat} cancels a card of {owner} with {card}.",
    "resolve": "{seat} resolves {card}.",
    "powers": "Powers in the battle for region {region}.",
    "win": "{seat} wins the battle for region {region}.",
    "epilogue": "War epilogue of Year {year}.",
    "game-over": "Game over.",
    "pick": "{seat} chooses house {house}.",
    "haunt": "{seat} moves Curse {curse} to {to}.",
    "missions": "Public missions: {missions}.",
    "mission-private": "{seat} takes a private mission.",
    "mission": "{seat} completes mission {mission} (place {place}, {vp} VP).",
    "mission-done": "Mission {mission} is complete and leaves the game.",
    "decay": "{seat} draws Decay card {card}.",
    "decay-place": "{seat} puts Decay card {card} on War Board slot {slot}.",
    "decay-discard": "{seat}'s Decay card {card} goes under the Decay deck.",
}


def _slots(cards: list[str | None]) -> str:
    """A War Board's revealed slots, each by its number (a dash alone left a newcomer guessing)."""
    # "; " between slots: a tactic's name lists its icons with commas
    return "; ".join(f"slot {i} {card or 'empty'}" for i, card in enumerate(cards, 1)) or "none"


def candelabria_line(
    entry: dict[str, Any], seat_name: Callable[[int], str] = seat_word
) -> str | None:
    """A Candelabria log entry in words (seats named by ``seat_name``), or None for an event this
    table does not know."""
    template = _template(entry)
    if template is None:
        return None
    fields = {key: _field(entry, key, value, seat_name) for key, value in entry.items()}
    try:
        return " ".join(template.format(**fields).split())
    except (KeyError, IndexError, ValueError):
        return None


def _template(entry: dict[str, Any]) -> str | None:
    """The sentence's template: the event's, or its form for this entry's case."""
    template = _CANDELABRIA.get(str(entry.get("event")))
    if template is None:
        return None
    if entry.get("event") == "ignite":
        return (
            "{seat} ignites a Land Flame on {territory}."
            if entry.get("territory")
            else "{seat} adds a flame to its {role}."
        )
    if entry.get("event") == "haunt" and entry.get("seat", -1) < 0:
        return "Curse {curse} stands on {to}."  # placed at the Mist
    if entry.get("event") == "mission-private" and entry.get("mission"):
        return "{seat} takes private mission {mission}."
    if entry.get("event") == "flame" and entry.get("curse") == "supply":
        return "{seat} puts the extinguished Land Flame back in the supply."
    if entry.get("event") == "deploy" and not entry.get("territory"):
        return template.replace(" on {territory}", "")
    return template


def _field(entry: dict[str, Any], key: str, value: Any, seat_name: Callable[[int], str]) -> Any:
    """One field of an entry as the sentence writes it."""
    if key in _SEAT_FIELDS and type(value) is int and value >= 0:
        return seat_name(value)
    if key in ("role", "model"):
        return _ROLE.get(value, value) if value is not None else "candle"
    if key == "cards" and entry.get("event") == "reveal":
        return _slots(value)
    if isinstance(value, list):
        return ", ".join("—" if v is None else str(v) for v in value) or "none"
    if value is None:
        return ""
    return value


def event_line(entry: dict[str, Any], marks: Marks = PLAIN) -> str | None:
    """One log entry as a sentence (its free text marked as ``literal``), or None when unknown."""
    line = candelabria_line(entry, marks.seat)
    return None if line is None else marks.literal(line)


# ----------------------------------------------------------------------------- labels and prompts
# Only the configuration (options), pending() and the (typed) view are read here, never the state's slots: the
# state's internals may be renamed without these words changing.
_MODEL = {"E": "Explorer", "P": "Pilgrim", "W": "Warrior", "C": "Wandering Castle"}
_TEMPLE = {"W": "White", "G": "Grey", "B": "Black"}


def _words(state: State) -> Any:
    return table(state.options.get("content"), bool(state.options.get("design")))


def _named(state: State, code: str) -> str:
    """A component's name (its code is part of every card's name, e.g. 'Satores Order candle S3')."""
    entry = _words(state).get(code)
    return code if entry is None else entry.name


def _territory(state: State, name: str) -> str:
    """A territory by its entry's name ("Territory 4c (region 4, Inn)"): the page's buttons, which
    carry no chips, then say where a move goes."""
    board = state.board if isinstance(state, CandelabriaState) else None
    if board is None or name not in board.index:
        return f"territory {name}"
    return territory_name(board, board.index[name])


def _house(state: State, letter: str) -> str:
    return _named(state, f"house:{letter}")


def _candle(state: State, code: str) -> str:
    """An enemy candle written house-role ('N-W'): "Nova Vita Coven's Warrior"."""
    house, _, role = code.partition("-")
    return f"{_house(state, house)}'s {_MODEL.get(role, role)}"


def _cost(state: State, code: str) -> str:
    for card in content_of(state.options).candles:
        if card.code == code:
            return f"{card.cost} wax"
    return "its cost"


def _tactic(state: State, code: str) -> str:
    return "nothing" if code == "-" else _named(state, code)


def label(state: State, seat: int, action: str) -> str:
    """A legal Candelabria action in words."""
    verb, *args = action.split(" ")
    said = _SAID.get(verb)
    if said is not None:
        return said
    worded = _LABELS.get(verb)
    if worded is None:
        return action  # every verb is worded; kept total for a game that grows one
    return worded(state, seat, args)


# The actions whose words never change.
_SAID: dict[str, str] = {
    "done": "Stop here",
    "supply": "Put the Land Flame back in your supply",
    "stay": "Leave your candles where they are",
    "skip": "Do nothing more of this effect",
    "spare": "Spare them: destroy or push nothing",
    "pass": "Cancel nothing",
}


def _deploy(state: State, seat: int, args: list[str]) -> str:
    role = _MODEL[args[1]]
    return f"Deploy {_named(state, args[0])} as your {role} ({_cost(state, args[0])})"


def _at(state: State, seat: int, args: list[str]) -> str:
    pending = state.pending() or {}
    if pending.get("decision") == "curse-at":
        return f"Set the curse on {_territory(state, args[0])}"
    return f"Place it on {_territory(state, args[0])}"


def _destroy(state: State, seat: int, args: list[str]) -> str:
    if "-" in args[0]:
        return f"Destroy a flame of {_candle(state, args[0])}"
    return f"Destroy the Land Flame of the {_house(state, args[0])}"


def _take(state: State, seat: int, args: list[str]) -> str:
    # a tactic's name only lists its icons ("Tactic card: 1 Destroy temple, 1 VP"): what they do
    # is what a choice needs, said as what the card does when played in a battle ("score 2 VP"
    # alone read as points scored by the take: a newcomer looked for them in the final score)
    entry = _words(state).get(args[0])
    text = entry.text.rstrip(".") if entry and entry.text else ""
    effect = f" (in a battle: {text[0].lower()}{text[1:]})" if text else ""
    return f"Take {_named(state, args[0])} from the Tactics board{effect}"


def _upgrade(state: State, seat: int, args: list[str]) -> str:
    piles = state.typed_view(seat).upgrade_piles  # typed: no plain copy of the whole view
    pile = int(args[0]) - 1
    top = piles[pile].top if 0 <= pile < len(piles) else None
    tile = f": {_named(state, top)}" if top else ""
    return f"Take the top Upgrade tile of pile {args[0]}{tile}"


def _ignite(state: State, seat: int, args: list[str]) -> str:
    if args[0] in _MODEL:
        return f"Add a flame to your {_MODEL[args[0]]}"
    return f"Light a Land Flame on {_territory(state, args[0])}"


def _extinguish(state: State, seat: int, args: list[str]) -> str:
    if "-" in args[0]:
        return f"Put out a flame of {_candle(state, args[0])}"
    if args[0] in _words_houses(state):
        return f"Put out the Land Flame of the {_house(state, args[0])}"
    return f"Put out a flame on {_territory(state, args[0])}"


def _play(state: State, seat: int, args: list[str]) -> str:
    if args == ["-", "-"]:
        return "Play no tactic card in this battle"
    return (
        f"Play {_tactic(state, args[0])} in War Board slot 1 and "
        f"{_tactic(state, args[1])} in slot 2"
    )


def _cancel(state: State, seat: int, args: list[str]) -> str:
    return (
        f"Cancel the {_house(state, args[1])}'s card in its slot {args[2]} "
        f"with your card in slot {args[0]}"
    )


def _either(state: State, seat: int, args: list[str]) -> str:
    return f"Take the {'first' if args[0] == '1' else 'second'} effect of the Decay card"


# Each verb's words, from the action's arguments (docs/notation/candelabria.md).
_LABELS: dict[str, Callable[[State, int, list[str]], str]] = {
    "deploy": _deploy,
    "maneuver": lambda state, seat, args: f"Discard {_named(state, args[0])} to maneuver",
    "at": _at,
    "move": lambda state, seat, args: (
        f"Move your {_MODEL[args[0]]} to {_territory(state, args[1])}"
    ),
    "extra": lambda state, seat, args: (
        f"Burn a flame to move your {_MODEL[args[0]]} again, to {_territory(state, args[1])}"
    ),
    "destroy": _destroy,
    "push": lambda state, seat, args: f"Push back {_candle(state, args[0])}",
    "to": lambda state, seat, args: f"Send it to {_territory(state, args[0])}",
    "curse": lambda state, seat, args: (
        f"Put the flame in front of curse {args[0]} (from the left of the Curse board)"
    ),
    "take": _take,
    "upgrade": _upgrade,
    "temple": lambda state, seat, args: (
        f"Build a {_TEMPLE[args[0]]} Temple level in region {args[1]}"
    ),
    "mine": lambda state, seat, args: f"Mine {args[1]} gold and {args[3]} wax",
    "relocate": lambda state, seat, args: f"Relocate your {_MODEL[args[0]]} through the Portal",
    "keep": lambda state, seat, args: f"Keep {_named(state, args[0])}",
    "return": lambda state, seat, args: f"Put {_named(state, args[0])} under the Advanced deck",
    "ignite": _ignite,
    "extinguish": _extinguish,
    "steal": lambda state, seat, args: f"Steal 1 {args[1]} from the {_house(state, args[0])}",
    "raze": lambda state, seat, args: f"Destroy the top Temple level in region {args[0]}",
    "shift": lambda state, seat, args: (
        f"Move your {_MODEL[args[0]]} to {_territory(state, args[1])}"
    ),
    "play": _play,
    "cancel": _cancel,
    "recast": lambda state, seat, args: f"Carry out again the effects of {_candle(state, args[0])}",
    "lift": lambda state, seat, args: f"Lift {_candle(state, args[0])} and place it anywhere",
    "house": lambda state, seat, args: f"Play the {_house(state, args[0])}",
    "haunt": lambda state, seat, args: f"Move curse {args[0]} to {_territory(state, args[1])}",
    "decay": lambda state, seat, args: f"Cover your War Board slot {args[0]} with the Decay card",
    "either": _either,
}


def _words_houses(state: State) -> set[str]:
    return {code.partition(":")[2] for code in _words(state) if code.startswith("house:")}


# What each decision asks, said to the seat that makes it ({...} from the pending decision).
_ASK: dict[str, str] = {
    "turn": "Your Kindling turn: deploy a candle card in a role, or discard one to maneuver.",
    "deploy-at": "Choose the territory where your new {role} goes.",
    "move": "Maneuver: move one of your models ({moves_left_words}), or stop.",
    "destroy": "Your castle entered {territory}: choose the enemy flame it destroys.",
    "push": "Your Warrior entered {territory}: choose the enemy candle it pushes back.",
    "push-to": "Choose where the pushed {candle} retreats from {territory}.",
    "flame": (
        "Choose where your extinguished Land Flame goes: in front of a curse, or back to your "
        "supply."
    ),
    "influence": "Curse Influence: put a flame in front of a curse ({count} left).",
    "take": "Take a tactic card from the Tactics board ({count} left).",
    "forge": "Forge: buy an Upgrade tile or a Temple level ({count} left), or stop.",
    "mine": "Mine: choose how much gold and wax you take ({count} in all).",
    "portal": "Portal: choose a model to relocate ({count} left), or stop.",
    "portal-to": "Choose the territory your model is relocated to.",
    "keep": "Keep one of the candle cards you drew.",
    "return": "Put a candle card from your hand under the Advanced deck ({count} left).",
    "ignite": "Ignite: add a flame to one of your candles or light a Land Flame ({count} left).",
    "extinguish": "Extinguish: choose the territory of an enemy flame ({count} left).",
    "extinguish-at": "Choose the enemy flame on {territory} to put out.",
    "steal": "Steal: choose an opponent and gold or wax to take ({count} left).",
    "raze": "Destroy a Temple level: choose the region ({count} left).",
    "shift": "Region {region} changed: you may move a candle within it.",
    "curse-at": "You won curse {curse}: choose the territory where it is set.",
    "recast": "Choose a candle of region {region} whose effects you carry out again.",
    "lift": "Choose a candle of region {region} to lift and place anywhere.",
    "lift-to": "Choose where the lifted candle goes.",
    "gift": "The curse of region {region} gives you a Temple level there or a free Upgrade tile.",
    "secret": "Battle for region {region}: choose in secret the tactic cards you play.",
    "cancel": "Battle for region {region}: you may cancel an opponent's card with one of yours.",
    "haunt": "Move a curse one territory ({count_moves_words}).",
    "pick": "Choose your house.",
    "decay-at": "Choose which War Board slot the Decay card covers.",
    "either": "Choose which effect of the Decay card you take.",
    "nudge": "Move one of your candles one territory.",
}


def moves_left(count: int) -> str:
    """``count`` moves still to make, in words ("1 move left", "2 moves left")."""
    return f"{count} move left" if count == 1 else f"{count} moves left"


def prompt(state: State, seat: int | None) -> str:
    """The pending Candelabria decision in words, as ``seat`` sees it."""
    pending = state.pending()
    if state.is_over or not pending:
        return "The game is over."
    seats = pending.get("seats", [])
    decision = str(pending.get("decision"))
    if seat is not None and seat in seats:
        fields = {k: ("" if v is None else v) for k, v in pending.items()}
        if fields.get("candle"):
            fields["candle"] = _candle(state, str(fields["candle"]))
        if fields.get("territory"):
            fields["territory"] = _territory(state, str(fields["territory"]))
        # the moves still to make in words, "1 move left" or "2 moves left"
        for key, words in (("moves_left", "moves_left_words"), ("count", "count_moves_words")):
            count = pending.get(key)
            if isinstance(count, int):
                fields[words] = moves_left(count)
        template = _ASK.get(decision, "Choose: " + decision.replace("-", " ") + ".")
        try:
            return " ".join(template.format(**fields).split())
        except (KeyError, IndexError, ValueError):
            return "Choose: " + decision.replace("-", " ") + "."
    who = " and ".join(f"seat {s}" for s in seats) or "nobody"
    return f"Waiting for {who} to choose ({decision.replace('-', ' ')})."


HELP = {
    "": (
        "A Kindling turn: 'deploy CARD ROLE' puts a candle card on the map as Explorer (E), Pilgrim "
        "(P) or Warrior (W), paying its wax; 'maneuver CARD' discards one to move your models. "
        "Territories are named like 8b ('info 8b': its kind and borders); enemy candles as "
        "house-role (N-W). In a battle you choose in secret two tactic cards ('play CARD CARD', "
        "'-' for none). Type 'info CODE' for any card."
    ),
}
RULES = {
    "": (
        "The Curse of Candelabria: houses vie for a cursed land over three Years. Each Year, in "
        "Kindling, players take turns deploying candle cards as Explorers, Pilgrims and Warriors (each "
        "deployment triggers the card's effects and the territory's action for whoever holds its Land "
        "Flame) or discarding them to maneuver. Then comes War: the regions under a curse are fought "
        "over with power on the map and secret tactic cards, and winners score victory points. After "
        "the third Year the most victory points win."
    ),
    "two-player": (
        "The Curse of Candelabria for two: each player chooses a house in turn, and the curses stand "
        "on the map from the Mist, moved by the players instead of controlled. Otherwise Kindling "
        "turns deploy or maneuver candles, War fights over cursed regions, and after three Years "
        "the most victory points win."
    ),
}

TEXT = GameText(event=event_line, label=label, prompt=prompt, help=HELP, rules=RULES)
