"""Ratings of the bots in a set of games: openskill's Plackett–Luce model, or TrueSkill.

Every game is one rating event, in seed order: each seat is a team of one (its bot), ranked by the
result: the winners first (tied), then the other seats by score. A bot that sits in several seats of one
game (self-play) is moved by the mean of its seats' updates. Ratings say how the line-ups in the table
rank the bots; a bot that only ever played itself stays where it started.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Rating:
    bot: str
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        """A conservative skill estimate, mu − 3 sigma (what leaderboards sort by)."""
        return self.mu - 3 * self.sigma


def ranks(row: dict[str, Any]) -> list[int]:
    """0 for the winners; the other seats 1, 2, ... by score (equal scores share a rank)."""
    winners = set(row["winners"])
    others = sorted(
        {row["scores"][s] for s in range(row["players"]) if s not in winners}, reverse=True
    )
    place = {score: i + 1 for i, score in enumerate(others)}
    return [0 if s in winners else place[row["scores"][s]] for s in range(row["players"])]


def _system() -> tuple[str, Any] | None:
    try:
        from openskill.models import PlackettLuce

        return "openskill (Plackett–Luce)", PlackettLuce()
    except ImportError:
        pass
    try:
        import trueskill

        return "TrueSkill", trueskill.TrueSkill(draw_probability=0.01)
    except ImportError:
        return None


def rate(
    rows: list[dict[str, Any]], order: Callable[[dict[str, Any]], list[int]] | None = None
) -> tuple[str, list[Rating]] | None:
    """(the rating system's name, the ratings best first), or None when neither package is installed.
    ``order`` gives each seat's place in a row (lower is better; default :func:`ranks`)."""
    placed = ranks if order is None else order
    found = _system()
    if found is None:
        return None
    name, model = found
    openskill = name.startswith("openskill")
    mu: dict[str, float] = {}
    sigma: dict[str, float] = {}
    games: dict[str, int] = {}

    def fresh() -> Any:
        return model.rating() if openskill else model.create_rating()

    for row in sorted(rows, key=lambda r: r["seed"]):
        seats = row["bots"]
        for bot in seats:
            if bot not in mu:
                start = fresh()
                mu[bot], sigma[bot], games[bot] = start.mu, start.sigma, 0
        if openskill:
            new = model.rate(
                [[model.create_rating([mu[b], sigma[b]])] for b in seats], ranks=placed(row)
            )
        else:
            new = model.rate(
                [(model.create_rating(mu[b], sigma[b]),) for b in seats], ranks=placed(row)
            )
        moves: dict[str, list[tuple[float, float]]] = {}
        for bot, team in zip(seats, new, strict=True):
            moves.setdefault(bot, []).append((team[0].mu, team[0].sigma))
        for bot, values in moves.items():
            mu[bot] = sum(m for m, _ in values) / len(values)
            sigma[bot] = sum(s for _, s in values) / len(values)
            games[bot] += 1
    found_ratings = [Rating(bot, mu[bot], sigma[bot], games[bot]) for bot in mu]
    return name, sorted(found_ratings, key=lambda r: -r.ordinal)
