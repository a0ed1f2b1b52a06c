"""The Curse of Candelabria at the terminal: the regions and their territories with every house's pieces,
the curses, the houses (resources, VP, tactic cards, candles) in turn order, and the battle under way.

It reads only the seat's typed view (views.py), so it shows exactly what the seat may know; the log's sentences are
the game's text (text.py). Every component on the board (territory, candle card, tactic card, upgrade
tile, mission, Decay card) is shown by its name from the game's words (words.json), with its code when
the name does not hold it, never a bare code (issue 14); a cell holding several puts one on a line.
"""

from __future__ import annotations

from msgspec import UNSET
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from candlebox.engine.plugin import NARROW_TERMINAL, Renderer
from candlebox.games.candelabria.views import (
    CandelabriaView,
    CurseModel,
    FinishedView,
    Mission,
    Missions,
    Region,
    Seat,
    Territory,
)
from candlebox.games.candelabria.words import CURSE_EFFECT_SHORT, ICON_SHORT
from candlebox.games.candelabria.words import table as words

GAME_ID = "candelabria"
HOUSE_STYLE = {
    "C": "bold red",
    "R": "bold yellow",
    "S": "bold blue",
    "N": "bold green",
    "L": "bold white",
}


def _house_name(seat: Seat) -> str:
    entry = words().get(f"house:{seat.house}") if seat.house else None
    return entry.name if entry is not None else f"seat {seat.seat}"


def house(code: str) -> str:
    style = HOUSE_STYLE.get(code, "bold")
    return f"[{style}]{escape(code)}[/]"


def named(code: str) -> str:
    """A component by its name, with its code (the one typed) when the name does not hold it:
    'Tactic card: 1 Ignite, 1 Extinguish (1I1X)', 'Castle +1 power (Year I tile) (1-castle)'."""
    entry = words().get(code)
    if entry is None:
        return escape(code)
    return escape(entry.name if code in entry.name else f"{entry.name} ({code})")


def kind(t: Territory) -> str:
    """What a territory holds, in a word or two: 'Inn', 'Curse Influence'."""
    return ICON_SHORT[t.icon].partition(":")[0]


def territory(t: Territory) -> str:
    """A territory by its name, as the game's words name it: 'Territory 4c (region 4, Inn)'."""
    return escape(f"Territory {t.territory} (region {t.region}, {kind(t)})")


def _lines(codes: list[str], before: str = "") -> list[str]:
    return [before + (named(c) if c else "—") for c in codes]


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
    rows = _map_rows(view, regions, models, haunted)
    _print_house_choice(view, console)
    _print_map(rows, console)
    _print_curses(_curse_lines(view, two), console)
    if isinstance(view.missions, Missions):
        _missions(view.missions, console)
    _print_seats(view, console)
    _print_boards(view, console)
    _print_battle(view, console)
    _print_ending(view, console, prompt)


def _print_house_choice(view: CandelabriaView, console: Console) -> None:
    pending = view.pending
    if pending is not None and pending.decision == "pick":
        first = f" (the first chose {house(pending.first)})" if pending.first else ""
        console.print(
            f"[bold]House choice[/]{first} — the pieces, cards and tiles are dealt once both "
            "players have chosen"
        )


def _curse_lines(view: CandelabriaView, two: bool) -> list[str]:
    """Each curse on the Curse board: with two players where it stands, else the flames before it."""
    curses = []
    by_code = {t.territory: t for t in view.territories}
    for i, c in enumerate(view.curses, 1):
        if two:
            where = next((m.territory for m in view.curse_models if m.curse == i), "?")
            on = territory(by_code[where]) if where in by_code else escape(where)
            curses.append(f"{i}: region {c.curse} — standing on {on}")
            continue
        flames = " ".join(f"{house(h)}×{n}" for h, n in c.flames.items()) or "no flames"
        effect = CURSE_EFFECT_SHORT.get(c.effect, c.effect)
        curses.append(f"{i}: region {c.curse} ({escape(effect)}) — {flames}")
    return curses


def _print_curses(curses: list[str], console: Console) -> None:
    if curses and console.width < NARROW_TERMINAL:
        console.print("[bold]Curses[/]")
        for line in curses:
            console.print(f"  {line}")
    elif curses:
        console.print("[bold]Curses[/]  " + "   ".join(curses))


def _print_seats(view: CandelabriaView, console: Console) -> None:
    """The houses' table, then each house's cards and tiles by name (long lines wrap)."""
    cards: list[str] = []
    cells: list[list[str]] = []
    for s in view.order:
        info = view.seats[s]
        cells.append(_house_cells(info, you=s == view.seat))
        cards += [f"{_house(info)} {line}" for line in _held(info)]
    _print_houses(cells, console)
    for line in cards:
        console.print(line)


def _house_cells(info: Seat, you: bool) -> list[str]:
    """A house's row of the houses' table (HOUSE_COLUMNS)."""
    hand = (
        f"{len(info.hand)} card(s)" if isinstance(info.hand, list) else f"{info.hand_size} card(s)"
    )
    me = " [reverse]you[/]" if you else ""
    return [
        f"{_house(info)} {escape(info.name or '')}{me}",
        str(info.vp),
        str(info.gold),
        str(info.wax),
        str(info.land_flames),
        str(info.candle_flames),
        hand,
        str(len(info.tactics)),
    ]


def _print_boards(view: CandelabriaView, console: Console) -> None:
    """The Tactics board, and the top tile of each Upgrade pile."""
    console.print(f"[dim]Tactics board:[/] {', '.join(_lines(view.tactics_board))}")
    piles = [
        f"{i}: {named(p.top) if p.top else '[dim]empty[/]'}"
        for i, p in enumerate(view.upgrade_piles, 1)
    ]
    console.print("[dim]Upgrade piles (the top tile of each; upgrade N buys from pile N):[/]")
    for line in piles:
        console.print(f"  {line}")


def _print_battle(view: CandelabriaView, console: Console) -> None:
    if view.battle:
        pending = view.pending
        region = "?" if pending is None or pending.region is UNSET else pending.region
        console.print(
            f"[bold]Battle[/] in region {region}: "
            + " ".join(_house(view.seats[s]) for s in view.battle)
        )


def _print_ending(view: CandelabriaView, console: Console, prompt: str) -> None:
    """How the game ended, or the pending decision."""
    if isinstance(view, FinishedView):
        # the winners by their houses' names; the standings that follow give every score
        names = [_house_name(view.seats[s]) for s in view.winners]
        said = " and ".join(names) if names else "nobody"
        console.print(f"[bold]Game over[/]: {escape(said)} {'wins' if len(names) == 1 else 'win'}.")
    else:
        console.print(f"[bold]▶ {escape(prompt)}[/]")


# whole words, as the page has them: "land fl." was read as nothing (issue 36)
HOUSE_COLUMNS = ("house", "VP", "gold", "wax", "land flames", "candle flames", "hand", "tactics")
HOUSE_WORDS = ("VP", "gold", "wax", "land flames", "candle flames", "hand", "tactics")


def _map_rows(
    view: CandelabriaView,
    regions: dict[int, Region],
    models: dict[str, list[CurseModel]],
    haunted: set[int],
) -> list[tuple[str, Territory, str]]:
    """Each territory with its pieces, and its region's label on the region's first territory."""
    rows = []
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
        rows.append((label, t, _pieces(t, models.get(t.territory, []))))
    return rows


def _print_map(rows: list[tuple[str, Territory, str]], console: Console) -> None:
    if console.width < NARROW_TERMINAL:
        for label, t, pieces in rows:
            if label:
                console.print(f"[bold]Region {label}[/]")
            console.print(f"  {escape(t.territory)} {escape(kind(t))}: {pieces}")
        return
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for name in ("region", "territory", "pieces"):
        table.add_column(name)
    for label, t, pieces in rows:
        table.add_row(label, territory(t), pieces)
    console.print(table)


def _print_houses(cells: list[list[str]], console: Console) -> None:
    if console.width < NARROW_TERMINAL:
        for name, *numbers in cells:
            pairs = [f"{word} {value}" for word, value in zip(HOUSE_WORDS, numbers, strict=True)]
            console.print(f"{name}: " + " · ".join(pairs))
        return
    houses = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for name in HOUSE_COLUMNS:
        houses.add_column(name)
    for row in cells:
        houses.add_row(*row)
    console.print(houses)


def _held(info: Seat) -> list[str]:
    """A house's cards and tiles by name, a line for each kind."""
    held = []
    if isinstance(info.hand, list) and info.hand:
        held.append("hand: " + ", ".join(_lines(info.hand)))
    if info.tactics:
        held.append("tactics: " + ", ".join(_lines(info.tactics)))
    if info.played:
        held.append("played: " + ", ".join(_lines([c or "" for c in info.played])))
    if info.secret:
        held.append("chosen: " + ", ".join(_lines([c or "" for c in info.secret])))
    elif info.chosen:
        held.append("[dim]chosen in secret[/]")
    if info.decay and any(info.decay):
        # The card's name already says its effect; '—' is an empty decay slot.
        held.append("decay cards: " + ", ".join(named(d.card) if d else "—" for d in info.decay))
    if info.upgrades:
        held.append("upgrades: " + ", ".join(_lines(info.upgrades)))
    return held


def _mission(card: Mission) -> str:
    places = " ".join(
        "[dim]blocked[/]" if p == "blocked" else (house(p) if p else "[dim]·[/]")
        for p in card.places
    )
    return f"{named(card.mission)}: {escape(card.text)} \\[{places}]"


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
