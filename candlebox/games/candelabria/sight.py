"""What the heuristic asks of a seat's view, answered two ways with the same answers.

``ViewSight`` answers from the typed view (views.py), attribute by attribute. ``Glance`` answers from
the state, for one seat, only what that seat may see, and only when asked: the search's rollouts call
the heuristic at every decision, and building the whole view there cost most of the search's time
(issue 16). Each answer is computed once per decision and kept (``region_power`` above all). The
game's ``policy_view`` capability is :func:`glance`; tests/candelabria/test_heuristic_sight.py checks
that both give the heuristic the same choices.
"""

from __future__ import annotations

from typing import Protocol

from candlebox.engine import State
from candlebox.games.candelabria.decision import NAMES, Phase
from candlebox.games.candelabria.schema import ICONS
from candlebox.games.candelabria.state import CandelabriaState
from candlebox.games.candelabria.views import CandelabriaView, Territory

# A territory as the heuristic weighs it: its region, action icon, how many houses have a Land Flame
# there, and whether the viewer is one of them.
Spot = tuple[int, str, int, bool]


class Sight(Protocol):
    """The questions the heuristic asks (``me``: the viewer's house)."""

    @property
    def decision(self) -> str: ...
    @property
    def me(self) -> str: ...
    @property
    def two_player(self) -> bool: ...
    def houses(self) -> list[str]: ...
    def leader(self) -> str | None: ...
    def spot(self, territory: str) -> Spot: ...
    def corrupted(self) -> set[int]: ...
    def haunted(self, moved: tuple[int, str] | None = None) -> set[int]: ...
    def curse_flames(self, place: int) -> dict[str, int]: ...
    def region_power(self, house: str) -> dict[int, int]: ...
    def played(self, house: str) -> list[str | None]: ...


class ViewSight:
    """The answers read from the seat's typed view."""

    __slots__ = ("_haunted", "_power", "_terr", "view")

    def __init__(self, view: CandelabriaView) -> None:
        self.view = view
        self._terr: dict[str, Territory] = {t.territory: t for t in view.territories}
        self._power: dict[str, dict[int, int]] = {}
        self._haunted: set[int] | None = None

    @property
    def decision(self) -> str:
        assert self.view.pending is not None, "the heuristic is asked only while a decision waits"
        return self.view.pending.decision

    @property
    def me(self) -> str:
        view = self.view
        assert view.seat is not None
        house = view.seats[view.seat].house
        assert house is not None
        return house

    @property
    def two_player(self) -> bool:
        return self.view.variant == "two-player"

    def houses(self) -> list[str]:
        return [s.house for s in self.view.seats if s.house is not None]

    def leader(self) -> str | None:
        others = [s for s in self.view.seats if s.seat != self.view.seat]
        return max(others, key=lambda s: s.vp).house if others else None

    def spot(self, territory: str) -> Spot:
        t = self._terr[territory]
        return t.region, t.icon, len(t.land_flames), self.me in t.land_flames

    def corrupted(self) -> set[int]:
        return {r.region for r in self.view.regions if r.corrupted}

    def haunted(self, moved: tuple[int, str] | None = None) -> set[int]:
        if moved is None and self._haunted is not None:
            return self._haunted
        found: set[int] = set()
        for m in self.view.curse_models:
            where = moved[1] if moved and m.curse == moved[0] else m.territory
            found.add(self._terr[where].region)
        if moved is None:
            self._haunted = found
        return found

    def curse_flames(self, place: int) -> dict[str, int]:
        return self.view.curses[place].flames

    def region_power(self, house: str) -> dict[int, int]:
        cached = self._power.get(house)
        if cached is not None:
            return cached
        power: dict[int, int] = {}
        prefix = house + "-"
        for t in self.view.territories:
            p = int(house in t.land_flames)
            if t.castle == house:
                p += 4
            if t.candles:
                for c in t.candles:
                    if c.candle.startswith(prefix):
                        p += c.flames
            power[t.region] = power.get(t.region, 0) + p
        self._power[house] = power
        return power

    def played(self, house: str) -> list[str | None]:
        seat = next(s for s in self.view.seats if s.house == house)
        return seat.played if seat.played else [None, None]


class Glance:
    """The answers read from the state for ``seat``: nothing it may not see (the map, the Curse Board,
    the houses' VP and revealed tactic cards are public), each computed on first use."""

    __slots__ = ("_codes", "_corrupted", "_haunted", "_me", "_power", "seat", "st")

    def __init__(self, st: CandelabriaState, seat: int) -> None:
        self.st = st
        self.seat = seat
        self._codes: list[str] | None = None
        self._me: str | None = None
        self._power: dict[str, dict[int, int]] = {}
        self._haunted: set[int] | None = None
        self._corrupted: set[int] | None = None

    @property
    def decision(self) -> str:
        kind = self.st.stack[-1][0]
        assert kind != Phase.OVER, "the heuristic is asked only while a decision waits"
        return NAMES[kind]

    @property
    def me(self) -> str:
        if self._me is None:
            self._me = self.st.house_code(self.seat)
        return self._me

    @property
    def two_player(self) -> bool:
        return self.st.variant == "two-player"

    def houses(self) -> list[str]:
        if self._codes is None:
            st = self.st
            self._codes = [st.house_code(s) for s in range(st.num_players)]
        return self._codes

    def leader(self) -> str | None:
        st = self.st
        others = [s for s in range(st.num_players) if s != self.seat]
        return st.house_code(max(others, key=lambda s: st.vp[s])) if others else None

    def spot(self, territory: str) -> Spot:
        st = self.st
        board = st.board
        t = board.index[territory]
        flames = st.land_flames[t]
        return (
            board.region[t],
            ICONS[board.icon[t]],
            flames.bit_count(),
            bool(flames >> self.seat & 1),
        )

    def corrupted(self) -> set[int]:
        if self._corrupted is None:
            st = self.st
            self._corrupted = {r for r in st.board.regions if st.corrupted >> r & 1}
        return self._corrupted

    def haunted(self, moved: tuple[int, str] | None = None) -> set[int]:
        if moved is None and self._haunted is not None:
            return self._haunted
        board = self.st.board
        found: set[int] = set()
        for k, t in enumerate(self.st.curse_models):
            if t < 0:
                continue
            if moved and k + 1 == moved[0]:
                t = board.index[moved[1]]
            found.add(board.region[t])
        if moved is None:
            self._haunted = found
        return found

    def curse_flames(self, place: int) -> dict[str, int]:
        influence = self.st.curse_influence[place]
        codes = self.houses()
        return {codes[s]: n for s, n in enumerate(influence) if n}

    def region_power(self, house: str) -> dict[int, int]:
        cached = self._power.get(house)
        if cached is not None:
            return cached
        st = self.st
        region = st.board.region
        seat = self.houses().index(house)
        power: dict[int, int] = {}
        for t, flames in enumerate(st.land_flames):
            if flames >> seat & 1:
                power[region[t]] = power.get(region[t], 0) + 1
        castle = st.castles[seat]
        # The view shows one castle per territory, the lowest seat's, and so counts only that one.
        if castle >= 0 and all(st.castles[s] != castle for s in range(seat)):
            power[region[castle]] = power.get(region[castle], 0) + 4
        for r, t in enumerate(st.candle_territories[seat]):
            if t >= 0:
                power[region[t]] = power.get(region[t], 0) + st.candle_flames[seat][r]
        self._power[house] = power
        return power

    def played(self, house: str) -> list[str | None]:
        st = self.st
        seat = self.houses().index(house)
        cards = st.played_tactics[seat]
        if seat in st.battle and not st.secret_tactics[seat] and any(c != -1 for c in cards):
            tactics = st.content.tactics
            return [tactics[c].code if c >= 0 else ("resolved" if c == -2 else None) for c in cards]
        return [None, None]


def glance(st: State, seat: int | None) -> Glance | CandelabriaView:
    """The heuristic's cheap view of ``st`` for ``seat`` (the ``policy_view`` capability); the typed
    view for what only stands in for a state (a wrapper answering the engine contract)."""
    if isinstance(st, CandelabriaState) and seat is not None:
        return Glance(st, seat)
    view: CandelabriaView = st.typed_view(seat)
    return view
