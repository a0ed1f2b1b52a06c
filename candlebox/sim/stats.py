"""Win rates with 95% confidence intervals, and the tallies the report is made of.

A shared win counts 1/k to each of its k winners, as in ``candlebox simulate``'s summary. The interval
is Wilson's score interval for a proportion; with shared wins the number of successes is fractional,
which Wilson's formula takes as it is (a close approximation when shared wins are rare).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Rate:
    """``wins`` out of ``games``, with its 95% interval ``low``–``high``."""

    wins: float
    games: int
    low: float
    high: float

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def text(self) -> str:
        if not self.games:
            return "—"
        return f"{self.rate:.1%} [{self.low:.1%}, {self.high:.1%}]"


def wilson(wins: float, games: int, z: float = Z95) -> Rate:
    """Wilson's score interval for ``wins`` successes in ``games`` trials."""
    if games <= 0:
        return Rate(0.0, 0, 0.0, 1.0)
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(max(0.0, p * (1 - p) / games + z * z / (4 * games * games))) / denominator
    low = 0.0 if wins <= 0 else max(0.0, centre - half)
    high = 1.0 if wins >= games else min(1.0, centre + half)
    return Rate(wins, games, low, high)


def share(row: dict[str, Any], seat: int) -> float:
    """The seat's share of the game's win: 1/k for each of k winners."""
    winners = row["winners"]
    return 1.0 / len(winners) if seat in winners else 0.0


def rates_by(
    rows: Iterable[dict[str, Any]], key: Callable[[dict[str, Any], int], Hashable | None]
) -> dict[Hashable, Rate]:
    """Win rates of seat-games grouped by ``key(row, seat)`` (None leaves that seat-game out)."""
    wins: dict[Hashable, float] = defaultdict(float)
    games: Counter[Hashable] = Counter()
    for row in rows:
        for seat in range(row["players"]):
            group = key(row, seat)
            if group is None:
                continue
            wins[group] += share(row, seat)
            games[group] += 1
    return {group: wilson(wins[group], games[group]) for group in games}


def by_seat(rows: list[dict[str, Any]]) -> dict[Hashable, Rate]:
    return dict(sorted(rates_by(rows, lambda row, seat: seat).items(), key=lambda kv: str(kv[0])))


def by_bot(rows: list[dict[str, Any]]) -> dict[Hashable, Rate]:
    return rates_by(rows, lambda row, seat: row["bots"][seat])


def by_position(rows: list[dict[str, Any]]) -> dict[Hashable, Rate]:
    """Win rate by place in the turn order: 0 is the first player, 1 the next seat round, ..."""
    found = rates_by(
        (row for row in rows if row["first_player"] >= 0),
        lambda row, seat: (seat - row["first_player"]) % row["players"],
    )
    return dict(sorted(found.items(), key=lambda kv: int(str(kv[0]))))


def first_player_rate(rows: list[dict[str, Any]]) -> Rate:
    return by_position(rows).get(0, wilson(0, 0))


def action_shares(rows: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """For each bot, the share of its actions of each kind (its seats in all games together)."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for row in rows:
        for seat, kinds in enumerate(row["actions"]):
            counts[row["bots"][seat]].update(kinds)
    return {
        bot: {kind: n / sum(kinds.values()) for kind, n in sorted(kinds.items())}
        for bot, kinds in counts.items()
        if kinds
    }


def seat_facts(rows: list[dict[str, Any]]) -> tuple[dict[str, dict[str, float]], list[str]]:
    """Numeric per-seat facts averaged by bot, and the text per-seat facts every seat always has."""
    sums: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    text: Counter[str] = Counter()
    seat_games = 0
    for row in rows:
        for seat, entry in enumerate(row["facts"].get("seats", [])):
            bot = row["bots"][seat]
            seat_games += 1
            for name, value in entry.items():
                if isinstance(value, bool):
                    value = float(value)
                if isinstance(value, int | float):
                    sums[bot][name] += value
                    counts[bot][name] += 1
                elif isinstance(value, str):
                    text[name] += 1
    means = {
        bot: {name: total / counts[bot][name] for name, total in sorted(values.items())}
        for bot, values in sums.items()
    }
    # A text fact that every seat has in every game (a house, a faction) groups win rates.
    return means, sorted(name for name, n in text.items() if n == seat_games)


def by_seat_fact(rows: list[dict[str, Any]], name: str) -> dict[Hashable, Rate]:
    """Win rate grouped by a text per-seat fact (a house, a faction, a character...)."""

    def value(row: dict[str, Any], seat: int) -> Hashable | None:
        seats = row["facts"].get("seats", [])
        found = seats[seat].get(name) if seat < len(seats) else None
        return found if isinstance(found, str) else None

    return dict(sorted(rates_by(rows, value).items(), key=lambda kv: str(kv[0])))


def configurations(rows: list[dict[str, Any]]) -> dict[tuple[str, str, int], list[dict[str, Any]]]:
    """Rows grouped by (game, variant, players), in order of first appearance."""
    groups: dict[tuple[str, str, int], list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault((row["game"], row["variant"], row["players"]), []).append(row)
    return groups
