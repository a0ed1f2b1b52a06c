"""A player leaving a game in progress: what their resignation means for the result (rulings
EG-1). No rulebook lets a seat drop out and the others play on, so in every game a resignation ends
the game at once: the seat that resigned is last and every other seat shares first place."""

from __future__ import annotations

from dataclasses import dataclass

from candlebox.engine.standings import ScorePart, SeatNamer, Standing, Standings, joined


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


def standings_after(
    resigned: Resignation, moves: int, name: SeatNamer, out_of_time: bool = False
) -> Standings:
    """The end screen of a game ``resigned`` ended after ``moves`` moves: the seat that resigned (or,
    ``out_of_time``, ran out of time) last, every other seat sharing first place, and words that say
    who left and when. The game's own points at that moment do not rank it (a seat that resigned
    while ahead is still last; at move 0 every seat has the same), so none is shown: each row's score
    is the resignation's (1 or 0), its one part saying why."""
    left = resigned.seat
    why = "ran out of time" if out_of_time else "resigned"
    won = ScorePart(f"{name(left)} {why}", 1.0)
    first = [Standing(seat, 1, 1.0, (won,), True) for seat in resigned.winners]
    last = Standing(left, len(first) + 1, 0.0, (), False, f"{why} at move {moves}")
    who = [name(seat) for seat in resigned.winners]
    verb = "wins" if len(who) == 1 else "share the win"
    summary = f"{name(left)} {why} at move {moves}, so {joined(who)} {verb}."
    return Standings(True, (*first, last), summary, points=False)
