"""Game Board: one side of the map as flat tables (territory index -> region, icon, neighbours, reach).

Territories are numbered 0..T-1 in the order of board.json (region by region). Neighbours are the shared
borders and the bridges ("a territory that has at least a minimal part of the border adjacent with that of
the territory from which the model started moving, or connected by a bridge"). Everything a move needs is
precomputed here once per side; only the Cinis power (skip territories holding your own Land Flames)
depends on the position and is searched when asked for.
"""

from __future__ import annotations

from collections.abc import Sequence

from candlebox.games.candelabria.components import Content
from candlebox.games.candelabria.schema import ICONS, SideData


def _walk_ends(adj: Sequence[Sequence[int]], start: int, steps: int, avoid_start: bool) -> set[int]:
    """Territories at the end of a walk of exactly ``steps`` moves (never back through ``start`` if
    ``avoid_start``), ``start`` itself excluded."""
    frontier = {start}
    for _ in range(steps):
        frontier = {n for t in frontier for n in adj[t] if not (avoid_start and n == start)}
    frontier.discard(start)
    return frontier


class Board:
    """Lookup tables for one side of the board (shared by every state using it; never changed)."""

    def __init__(self, side: SideData) -> None:
        self.key = side.key
        self.turn_track = side.turn_track
        names: list[str] = []
        region: list[int] = []
        icon: list[int] = []
        self.regions: list[int] = []
        self.colour: dict[int, str] = {}
        self.half: dict[int, str | None] = {}
        for reg in side.regions:
            self.regions.append(reg.number)
            self.colour[reg.number] = reg.colour
            self.half[reg.number] = reg.half
            for terr in reg.territories:
                names.append(terr.id)
                region.append(reg.number)
                icon.append(ICONS.index(terr.icon))
        self.names = tuple(names)
        self.index = {name: t for t, name in enumerate(names)}
        self.region = tuple(region)
        self.icon = tuple(icon)
        self.size = len(names)
        self.max_region = max(self.regions)
        links: list[set[int]] = [set() for _ in names]
        self.bridges: list[tuple[int, int]] = []
        for a, b in side.borders:
            links[self.index[a]].add(self.index[b])
            links[self.index[b]].add(self.index[a])
        for a, b in side.bridges:
            links[self.index[a]].add(self.index[b])
            links[self.index[b]].add(self.index[a])
            self.bridges.append((self.index[a], self.index[b]))
        self.adj: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(n)) for n in links)
        # region number -> its territories (index 0 and missing numbers: empty)
        self.region_terr: tuple[tuple[int, ...], ...] = tuple(
            tuple(t for t in range(self.size) if region[t] == r) for r in range(self.max_region + 1)
        )
        self.icon_terr: tuple[tuple[int, ...], ...] = tuple(
            tuple(t for t in range(self.size) if icon[t] == i) for i in range(len(ICONS))
        )
        # Explorer: skip k territories and land on the next one -> everything within k + 1 moves.
        self.explore: list[tuple[tuple[int, ...], ...]] = []
        for skips in range(4):
            table = []
            for t in range(self.size):
                ends: set[int] = set()
                for steps in range(1, skips + 2):
                    ends |= _walk_ends(self.adj, t, steps, avoid_start=False)
                table.append(tuple(sorted(ends)))
            self.explore.append(tuple(table))
        # Pilgrim: a neighbour, or any other territory with the same icon.
        self.pilgrim: tuple[tuple[int, ...], ...] = tuple(
            tuple(sorted(set(self.adj[t]) | set(self.icon_terr[icon[t]]) - {t}))
            for t in range(self.size)
        )
        # Warrior push of 1, 2 or 3 territories: where a walk away from the warrior ends.
        self.push: list[tuple[tuple[int, ...], ...]] = [()]
        for steps in range(1, 4):
            self.push.append(
                tuple(
                    tuple(sorted(_walk_ends(self.adj, t, steps, avoid_start=True)))
                    for t in range(self.size)
                )
            )

    def reach_skipping(self, start: int, free: int, skips: int) -> list[int]:
        """Landing territories of a candle that may pass through territories in the bitmask ``free``
        (the Cinis power: your own Land Flames) and skip ``skips`` other territories besides."""
        best = {start: 0}  # territory -> fewest skips used to stand "on the way" there
        todo = [start]
        ends: set[int] = set()
        while todo:
            t = todo.pop()
            used = best[t]
            for n in self.adj[t]:
                ends.add(n)
                cost = used if free >> n & 1 else used + 1
                if cost <= skips and best.get(n, 99) > cost:
                    best[n] = cost
                    todo.append(n)
        ends.discard(start)
        return sorted(ends)


_BOARDS: dict[tuple[int, str], Board] = {}


def board_for(content: Content, side: str) -> Board:
    key = (id(content), side)
    board = _BOARDS.get(key)
    if board is None:
        board = _BOARDS[key] = Board(content.sides[side])
    return board
