"""Building Candelabria positions for tests: fixed setups, scripted actions, and crafted saves."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from candlebox.games import candelabria
from candlebox.games.candelabria import CandelabriaState
from tests.candelabria import position

HOUSES_4 = ["C", "R", "S", "N"]  # turn order: Cinis, Rota Aurea, Satores, Nova Vita


def game(
    players: int = 4, houses: list[str] | None = None, seed: int = 1, **options: Any
) -> CandelabriaState:
    if houses is None:
        houses = {3: ["C", "R", "S"], 4: HOUSES_4, 5: ["C", "R", "S", "N", "L"]}[players]
    return candelabria.new_game(players=players, seed=seed, houses=houses, **options)


def play(state: CandelabriaState, *steps: tuple[int, str]) -> CandelabriaState:
    for seat, action in steps:
        state.apply(seat, action)
    return state


def craft(state: CandelabriaState, change: Callable[[dict[str, Any]], None]) -> CandelabriaState:
    """The same position changed in its saved form, read back with every count checked."""
    data = state.to_json()
    change(data["state"])
    return position.restore(data, state)


def seat_of(state: CandelabriaState, house: str) -> int:
    return state.view(None)["seats"].index(
        next(s for s in state.view(None)["seats"] if s["house"] == house)
    )


def me(state: CandelabriaState, seat: int) -> dict[str, Any]:
    return state.view(seat)["seats"][seat]


def territory(state: CandelabriaState, name: str) -> dict[str, Any]:
    return next(t for t in state.view(None)["territories"] if t["territory"] == name)


def move_land_flame(snap: dict[str, Any], seat: int, src: str | None, dst: str | None) -> None:
    """A Land Flame of ``seat`` moved between territories or the supply (None) in a snapshot."""
    if src is None:
        snap["land_flame_supply"][seat] -= 1
    else:
        snap["land_flames"][seat].remove(src)
    if dst is None:
        snap["land_flame_supply"][seat] += 1
    else:
        snap["land_flames"][seat].append(dst)


def give_card(snap: dict[str, Any], seat: int, code: str) -> None:
    """A candle card from the Advanced deck into a hand."""
    i = snap["advanced_deck"].index(code)
    del snap["advanced_deck"][i]
    del snap["advanced_known_by"][i]
    snap["hands"][seat].append(code)


def set_gold(
    snap: dict[str, Any], seat: int, gold: int | None = None, wax: int | None = None
) -> None:
    if gold is not None:
        snap["reserve_gold"] += snap["gold"][seat] - gold
        snap["gold"][seat] = gold
    if wax is not None:
        snap["reserve_wax"] += snap["wax"][seat] - wax
        snap["wax"][seat] = wax


ROLES = "EPW"


def put_candle(
    snap: dict[str, Any], seat: int, role: str, where: str, flames: int, card: str
) -> None:
    """A candle of ``seat`` on the map (its card taken from the Advanced deck, flames from the supply)."""
    r = ROLES.index(role)
    i = snap["advanced_deck"].index(card)
    del snap["advanced_deck"][i]
    del snap["advanced_known_by"][i]
    snap["seal_cards"][seat][r] = card
    snap["candle_territories"][seat][r] = where
    snap["candle_flames"][seat][r] = flames
    snap["candle_flame_supply"][seat] -= flames


def give_upgrade(snap: dict[str, Any], seat: int, code: str) -> None:
    """An upgrade tile onto a House Board (taken from wherever it lies)."""
    for pile in snap["upgrade_piles"]:
        if code in pile:
            pile.remove(code)
            break
    else:
        snap["upgrade_box"].remove(code)
    snap["upgrades"][seat].append(code)


def to_turn(state: CandelabriaState, seat: int) -> CandelabriaState:
    """Quiet turns (maneuver the first card, stop at once) until it is ``seat``'s turn."""
    while state.to_act != (seat,) or state.view(seat)["pending"]["decision"] != "turn":
        who = state.to_act[0]
        pending = state.view(who)["pending"]["decision"]
        if pending == "turn":
            state.apply(who, f"maneuver {state.view(who)['seats'][who]['hand'][0]}")
        elif "done" in state.legal_actions(who):
            state.apply(who, "done")
        else:
            state.apply(who, state.legal_actions(who)[0])
    return state
