"""A player leaving a game in progress: what their resignation means for the result (rulings
EG-1). No rulebook lets a seat drop out and the others play on, so in every game a resignation ends
the game at once: the seat that resigned is last and every other seat shares first place."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Resignation:
    """The result of a game one seat resigned: ``winners`` are the other seats, ``scores`` 1 for
    each of them and 0 for the seat that resigned (a ranking, not the game's own points)."""

    seat: int
    winners: tuple[int, ...]
    scores: tuple[float, ...]

    def as_result(self) -> dict[str, object]:
        return {
            "winners": list(self.winners),
            "scores": list(self.scores),
            "resigned": self.seat,
        }


def resignation(players: int, seat: int) -> Resignation:
    """``seat`` resigns a game of ``players`` seats; ValueError for a seat the game does not have."""
    if not 0 <= seat < players:
        raise ValueError(f"this game has seats 0–{players - 1}, not {seat}")
    winners = tuple(n for n in range(players) if n != seat)
    scores = tuple(0.0 if n == seat else 1.0 for n in range(players))
    return Resignation(seat, winners, scores)
