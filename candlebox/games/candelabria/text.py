"""The Curse of Candelabria in words: the log's sentences, plain strings shared by the terminal, the
server and the pages ("seat N" becomes the player's name on the page).
"""

from __future__ import annotations

from typing import Any

from candlebox.engine.plugin import PLAIN, GameText, Marks

_ROLE = {"E": "Explorer", "P": "Pilgrim", "W": "Warrior", "C": "Castle", "land": "Land Flame"}

# The Curse of Candelabria's log events in words. Fields as in docs/notation/candelabria.md, "Log
# events".
_CANDELABRIA: dict[str, str] = {
    "setup": "The {side} side of the board is laid out.",
    "start": "seat {seat} ({house}) starts in region {region}, castle on {castle}.",
    "year": "Year {year} begins.",
    "mist": "Mist of Year {year}.",
    "curse": "The curse of region {region} goes on the Curse board (place {place}).",
    "house-candle": "seat {seat} gets house candle {card}.",
    "kindling": "Kindling of Year {year}.",
    "deploy": "seat {seat} deploys {card} as {role} on {territory} ({wax} wax, {flames} flames).",
    "place": "seat {seat} places the {role} on {territory}.",
    "maneuver": "seat {seat} maneuvers, discarding {card}.",
    "move": "seat {seat} moves the {model} {from} → {to}.",
    "destroy": "seat {seat} destroys a flame of seat {owner} ({role}) on {territory}.",
    "spare": "seat {seat} spares {territory}.",
    "push": "seat {seat} pushes the {role} of seat {owner} {from} → {to}.",
    "land": "seat {seat} lights a Land Flame on {territory}.",
    "no-land-flame": "seat {seat} cannot light a Land Flame on {territory}.",
    "influence": "seat {seat} places a flame in front of Curse {curse}.",
    "flame": "seat {seat} puts the extinguished Land Flame: {curse}.",
    "refill": "The Tactics board is refilled.",
    "take": "seat {seat} takes tactic {card}.",
    "upgrade": "seat {seat} buys upgrade {tile} from pile {pile}.",
    "temple": "seat {seat} builds a {colour} Temple level in region {region}.",
    "raze": "seat {seat} destroys a {colour} Temple level in region {region}.",
    "mine": "seat {seat} mines {gold} gold and {wax} wax.",
    "relocate": "seat {seat} relocates the {model} {from} → {to} through the Portal.",
    "draw": "seat {seat} draws a candle card.",
    "deck-empty": "The Advanced deck is empty.",
    "keep": "seat {seat} keeps one of the cards drawn.",
    "bottom": "seat {seat} puts {count} card(s) under the Advanced deck.",
    "return": "seat {seat} returns a card under the Advanced deck.",
    "vp": "seat {seat} scores {amount} VP ({reason}).",
    "ignite": "seat {seat} ignites a flame.",
    "extinguish": "seat {seat} extinguishes a flame of seat {owner} ({role}) on {territory}.",
    "steal": "seat {seat} steals 1 {resource} from seat {from}.",
    "shift": "seat {seat} moves the {role} {from} → {to}.",
    "end-turn": "end of turn {turn}",
    "war": "War of Year {year}.",
    "curse-unclaimed": "Curse {curse} stays unclaimed ({reason}).",
    "deploy-curse": "seat {seat} wins Curse {curse} and sets it on {territory}.",
    "order": "A new turn order.",
    "recast": "seat {seat} repeats the effects of {card} (seat {owner}).",
    "lift": "seat {seat} lifts the {role} of seat {owner} {from} → {to}.",
    "battles": "Battles this War: regions {regions}.",
    "battle": "The battle for region {region} begins.",
    "chose": "seat {seat} chose in secret.",
    "reveal": "seat {seat} reveals {cards}.",
    "cancel": "seat {seat} cancels a card of seat {owner} with {card}.",
    "resolve": "seat {seat} resolves {card}.",
    "powers": "Powers in the battle for region {region}.",
    "win": "seat {seat} wins the battle for region {region}.",
    "epilogue": "War epilogue of Year {year}.",
    "game-over": "Game over.",
    "pick": "seat {seat} chooses house {house}.",
    "haunt": "seat {seat} moves Curse {curse} to {to}.",
    "missions": "Public missions: {missions}.",
    "mission-private": "seat {seat} takes a private mission.",
    "mission": "seat {seat} completes mission {mission} (place {place}, {vp} VP).",
    "mission-done": "Mission {mission} is complete and leaves the game.",
    "decay": "seat {seat} draws Decay card {card}.",
    "decay-place": "seat {seat} puts Decay card {card} on War Board slot {slot}.",
    "decay-discard": "seat {seat}'s Decay card {card} goes under the Decay deck.",
}


def candelabria_line(entry: dict[str, Any]) -> str | None:
    """A Candelabria log entry in words, or None for an event this table does not know."""
    template = _CANDELABRIA.get(str(entry.get("event")))
    if template is None:
        return None
    if entry.get("event") == "ignite":
        template = (
            "seat {seat} ignites a Land Flame on {territory}."
            if entry.get("territory")
            else "seat {seat} adds a flame to its {role}."
        )
    elif entry.get("event") == "haunt" and entry.get("seat", -1) < 0:
        template = "Curse {curse} stands on {to}."  # placed at the Mist
    elif entry.get("event") == "mission-private" and entry.get("mission"):
        template = "seat {seat} takes private mission {mission}."
    elif entry.get("event") == "deploy" and not entry.get("territory"):
        template = template.replace(" on {territory}", "")
    fields: dict[str, Any] = {}
    for key, value in entry.items():
        if key in ("role", "model"):
            value = _ROLE.get(value, value) if value is not None else "candle"
        elif isinstance(value, list):
            value = ", ".join("—" if v is None else str(v) for v in value) or "none"
        elif value is None:
            value = ""
        fields[key] = value
    try:
        return " ".join(template.format(**fields).split())
    except (KeyError, IndexError, ValueError):
        return None


def event_line(entry: dict[str, Any], marks: Marks = PLAIN) -> str | None:
    """One log entry as a sentence (its free text marked as ``literal``), or None when unknown."""
    line = candelabria_line(entry)
    return None if line is None else marks.literal(line)


TEXT = GameText(event=event_line)
