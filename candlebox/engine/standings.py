"""Standings: each seat's score in rank order, broken down by where its points came from.

A game's ``scoring`` capability (:class:`Scoring`) builds them; :meth:`candlebox.engine.State.standings`
is the public call. The parts of a standing always sum to its score, and at the end of the game the
score is the engine's ``scores[seat]`` and the seats ranked first are exactly ``winners``. Plain,
typed data (frozen dataclasses) with no game in it: the terminal and the server show it as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

SeatNamer = Callable[[int], str]


class Scored(Protocol):
    """What standings read of any state (engine/state.py's State meets it; this module is below it)."""

    @property
    def is_over(self) -> bool: ...
    @property
    def scores(self) -> tuple[float, ...]: ...
    @property
    def winners(self) -> tuple[int, ...]: ...


@dataclass(frozen=True)
class ScorePart:
    """Points from one source, named in the rulebook's words ("Candle value", "Missions")."""

    source: str
    points: float


@dataclass(frozen=True)
class Standing:
    """One seat's place: ``rank`` counts from 1 and tied seats share it; ``parts`` sum to ``score``;
    ``note`` says what decides the order without counting (e.g. "5 of 8 colours filled")."""

    seat: int
    rank: int
    score: float
    parts: tuple[ScorePart, ...]
    winner: bool
    note: str = ""


@dataclass(frozen=True)
class Standings:
    """Every seat in rank order and a sentence saying who won (or leads) and why, tie-breaks named.
    ``final``: the game is over (otherwise these are the current standings). ``points``: the scores
    are points a player counts; False for a race (Candle Quest's basic game: the first to fill the
    Menorah wins), whose scores only say who won and whose notes say how far each seat got, so the
    end screen and the terminal show the notes and the parts' names instead of the numbers."""

    final: bool
    rows: tuple[Standing, ...]
    summary: str
    points: bool = True

    def as_data(self) -> dict[str, Any]:
        """JSON-safe plain data (the server's frames)."""
        return {
            "final": self.final,
            "summary": self.summary,
            "points": self.points,
            "rows": [
                {
                    "seat": row.seat,
                    "rank": row.rank,
                    "score": row.score,
                    "winner": row.winner,
                    "note": row.note,
                    "parts": [{"source": p.source, "points": p.points} for p in row.parts],
                }
                for row in self.rows
            ],
        }


@dataclass(frozen=True)
class Scoring:
    """A game's scoring capability. ``standings(state, name)`` (``name`` names a seat in the summary);
    ``secret_until_over``: the scores rest on what only their owners see (Candle Quest's screens), so
    current standings are for the whole state only, never shown to a seat before the end."""

    standings: Callable[[Any, SeatNamer], Standings]  # (the game's State, seat namer)
    secret_until_over: bool = False


def ranked(
    keys: Sequence[tuple[float, ...]], order: Sequence[int] | None = None
) -> list[tuple[int, int]]:
    """(seat, rank) in rank order: higher keys first; equal keys share a rank (standard competition
    ranking: 1, 1, 3). ``order``: the seats in the order ties are listed (default seat order)."""
    seats = list(order) if order is not None else list(range(len(keys)))
    position = {seat: i for i, seat in enumerate(seats)}
    sorted_seats = sorted(seats, key=lambda s: (tuple(-k for k in keys[s]), position[s]))
    out: list[tuple[int, int]] = []
    for i, seat in enumerate(sorted_seats):
        if i and keys[seat] == keys[sorted_seats[i - 1]]:
            out.append((seat, out[-1][1]))
        else:
            out.append((seat, i + 1))
    return out


def joined(names: Sequence[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def number(points: float) -> str:
    """A score as shown: whole numbers without a decimal point."""
    return str(int(points)) if float(points).is_integer() else f"{points:g}"


def from_scores(state: Scored, name: SeatNamer) -> Standings:
    """The fallback for a game without a scoring capability: its ``scores`` as one part each."""
    scores = state.scores
    winners = set(state.winners) if state.is_over else set()
    rows = tuple(
        Standing(seat, rank, scores[seat], (ScorePart("Score", scores[seat]),), seat in winners)
        for seat, rank in ranked([(s,) for s in scores])
    )
    if state.is_over:
        who = [name(s) for s in state.winners]
        summary = f"{joined(who)} {'wins' if len(who) == 1 else 'share the win'}." if who else ""
    else:
        summary = "The game is not over."
    return Standings(state.is_over, rows, summary or "The game is over; nobody won.")
