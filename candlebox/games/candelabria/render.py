"""The Curse of Candelabria at the terminal: the regions and their territories with every house's pieces,
the curses, the houses (resources, VP, tactic cards, candles) in turn order, and the battle under way.

It reads only the seat's typed view (views.py), so it shows exactly what the seat may know; the log's sentences are
the game's text (text.py).
"""

from __future__ import annotations

from msgspec import UNSET
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from candlebox.engine.plugin import Renderer
from candlebox.games.candelabria.views import (
    CandelabriaView,
    CurseModel,
    FinishedView,
    Mission,
    Missions,
    Seat,
    Territory,
)

GAME_ID = "candelabria"
HOUSE_STYLE = {
    "C": "bold red",
    "R": "bold yellow",
    "S": "bold blue",
    "N": "bold green",
    "L": "bold white",
}
ICON_SHORT = {
    "curse": "Curse",
    "barracks": "Barracks",
    "forge": "Forge",
    "mine": "Mine",
    "portal": "Portal",
    "inn": "Inn",
}


def house(code: str) -> str:
    style = HOUSE_STYLE.get(code, "bold")
    return f"[{style}]{escape(code)}[/]"


def _pieces(t: Territory, models: list[CurseModel]) -> str:
    parts: list[str] = []
    if isinstance(t.castle, str):
        parts.append(f"{house(t.castle)}[dim]-castle[/]")
    for c in t.candles or ():
        h, role = c.candle.split("-")
        parts.append(f"{house(h)}-{role}({c.flames})")
    for m in models:
        if m.owner is None:  # 2-player: the curses stand on the map, nobody's
            parts.append(f"[bold magenta]☠curse{m.curse}[/]")
        else:
            parts.append(f"{house(m.owner)}[magenta]-curse{m.curse}[/]")
    if t.land_flames:
        parts.append("flames " + " ".join(house(h) for h in t.land_flames))
    return "  ".join(parts) or "[dim]—[/]"


def _house(seat: Seat) -> str:
    return house(seat.house) if seat.house else "?"


def render(view: CandelabriaView, console: Console, prompt: str) -> None:
    """The map, the curses, the missions, the houses and the battle, then ``prompt`` (the game's words
    for the pending decision) or how the game ended."""
    seats = view.seats
    regions = {r.region: r for r in view.regions}
    models: dict[str, list[CurseModel]] = {}
    for m in view.curse_models:
        models.setdefault(m.territory, []).append(m)
    two = view.variant == "two-player"
    terr_region = {t.territory: t.region for t in view.territories}
    haunted = {terr_region[m.territory] for m in view.curse_models} if two else set()
    order = " → ".join(_house(seats[s]) for s in view.order)
    console.print(
        f"[bold]The Curse of Candelabria[/] — year {view.year}, {view.season}   turn order {order}"
    )
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column("region")
    table.add_column("territory")
    table.add_column("action")
    table.add_column("pieces")
    last = None
    for t in view.territories:
        r = regions[t.region]
        label = ""
        if t.region != last:
            temples = "/".join(r.temples)
            label = f"{r.region}" + (" [red]✕ corrupted[/]" if r.corrupted else "")
            label += " [magenta]⚔ at war[/]" if r.region in haunted else ""
            label += f" [cyan]{temples} temple[/]" if temples else ""
            last = t.region
        table.add_row(
            label, t.territory, ICON_SHORT[t.icon], _pieces(t, models.get(t.territory, []))
        )
    pending = view.pending
    if pending is not None and pending.decision == "pick":
        first = f" (the first chose {house(pending.first)})" if pending.first else ""
        console.print(
            f"[bold]House choice[/]{first} — the pieces, cards and tiles are dealt once both "
            "players have chosen"
        )
    console.print(table)
    curses = []
    for i, c in enumerate(view.curses, 1):
        if two:
            where = next((m.territory for m in view.curse_models if m.curse == i), "?")
            curses.append(f"{i}: region {c.curse} — standing on {escape(where)}")
            continue
        flames = " ".join(f"{house(h)}×{n}" for h, n in c.flames.items()) or "no flames"
        curses.append(f"{i}: region {c.curse} ({escape(c.effect)}) — {flames}")
    if curses:
        console.print("[bold]Curses[/]  " + "   ".join(curses))
    if isinstance(view.missions, Missions):
        _missions(view.missions, console)
    houses = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for name in (
        "house",
        "VP",
        "gold",
        "wax",
        "land fl.",
        "candle fl.",
        "hand",
        "tactics",
        "upgrades",
    ):
        houses.add_column(name)
    for s in view.order:
        info = seats[s]
        hand = (
            (" ".join(info.hand) or "—")
            if isinstance(info.hand, list)
            else f"{info.hand_size} card(s)"
        )
        tactics = " ".join(info.tactics)
        if info.played:
            tactics += " | played " + " ".join(str(c or "—") for c in info.played)
        if info.secret:
            tactics += " | chosen " + " ".join(str(c or "—") for c in info.secret)
        elif info.chosen:
            tactics += " | [dim]chosen in secret[/]"
        if info.decay and any(info.decay):
            tactics += " | decay " + " ".join(
                f"{d.card}({d.effect})" if d else "—" for d in info.decay
            )
        me = " [reverse]you[/]" if s == view.seat else ""
        houses.add_row(
            f"{_house(info)} {escape(info.name or '')}{me}",
            str(info.vp),
            str(info.gold),
            str(info.wax),
            str(info.land_flames),
            str(info.candle_flames),
            escape(hand),
            escape(tactics),
            escape(" ".join(info.upgrades)),
        )
    console.print(houses)
    console.print(
        f"[dim]Tactics board:[/] {escape(' '.join(view.tactics_board))}   "
        f"[dim]upgrade tops:[/] {escape(' '.join(p.top or '—' for p in view.upgrade_piles))}"
    )
    if view.battle:
        region = "?" if pending is None or pending.region is UNSET else pending.region
        console.print(
            f"[bold]Battle[/] in region {region}: "
            + " ".join(_house(seats[s]) for s in view.battle)
        )
    if isinstance(view, FinishedView):
        winners = " ".join(_house(seats[s]) for s in view.winners)
        console.print(f"[bold]Game over[/] — winner {winners}; scores {view.scores}")
    else:
        console.print(f"[bold]▶ {escape(prompt)}[/]")


def _mission(card: Mission) -> str:
    places = " ".join(
        "[dim]blocked[/]" if p == "blocked" else (house(p) if p else "[dim]·[/]")
        for p in card.places
    )
    return f"{escape(card.mission)} {escape(card.text)} [{places}]"


def _missions(missions: Missions, console: Console) -> None:
    public = "   ".join(_mission(c) for c in missions.public) or "—"
    console.print(f"[bold]Missions[/] (public)  {public}")
    private = "   ".join(
        f"{house(h)}: " + (_mission(c) if c else "[dim]hidden[/]")
        for h, c in missions.private.items()
    )
    console.print(f"[bold]Missions[/] (private)  {private}")


def action_text(action: str) -> str:
    return escape(action)


RENDERER = Renderer(render=render, action=action_text)
