"""Per card: how the seats that used a component (a card played, a candle bought, a tile taken, a mission
scored) fared against their baseline.

The results table's ``uses`` column says, for every seat of every game, what it did with which
components (the game's ``uses`` hook). A component's group, for one way of using it ("played A07"), is
the seat-games in which the seat used it at least once. Its **lift** is the mean, over those
seat-games, of the seat's win share minus its baseline: the win rate of the same bot in the same seat
over all the games, so a strong seat or bot does not make its cards look strong. The 95% interval is
the normal approximation of that mean. Many components are tested at once, so the p-values are
adjusted with the Benjamini–Hochberg procedure (false discovery rate 5%); a component whose adjusted
p-value is below 5% is an outlier: flagged, and put in words. Components used in fewer than
``MIN_GAMES`` seat-games are listed but not tested (their intervals are too wide to read).

Using a card is not its cause of winning: a seat that is ahead can afford dear cards, and a card held
at the end of a winning round was kept because it was good. The lift says which components go with
winning, for a designer to look at; an experiment (``--vary content=...``) says what a change does.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from candlebox.engine.words import components
from candlebox.sim import stats
from candlebox.sim.compare import ALPHA, mean_and_variance, normal_p
from candlebox.sim.stats import Z95, Rate

CORRECTION = "Benjamini–Hochberg"
MIN_GAMES = 20  # seat-games using a component before it is tested
Row = dict[str, Any]


@dataclass(frozen=True)
class CardStat:
    """One way of using one component (``how`` ``code``) over one arm's games."""

    code: str
    name: str
    how: str  # the game's verb: "played", "bought", "kept", "held", "taken", "scored", ...
    rate: Rate  # the win rate of the seat-games that used it
    lift: float  # mean win share minus the seat's baseline, over those seat-games
    low: float  # its 95% interval
    high: float
    p: float
    adjusted: float = 1.0  # Benjamini–Hochberg; 1 for an untested (small) group
    tested: bool = False

    @property
    def outlier(self) -> bool:
        return self.tested and self.adjusted < ALPHA


def benjamini_hochberg(p_values: list[float]) -> list[float]:
    """Benjamini–Hochberg adjusted p-values (false discovery rate), in the order given."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i], reverse=True)
    adjusted = [1.0] * m
    running = 1.0
    for position, index in enumerate(order):
        rank = m - position  # 1 for the smallest p-value
        running = min(running, p_values[index] * m / rank)
        adjusted[index] = min(1.0, running)
    return adjusted


def baselines(rows: list[Row]) -> dict[tuple[int, str], float]:
    """The win rate of each bot in each seat over the games: the baseline a card's lift is from."""
    wins: dict[tuple[int, str], float] = defaultdict(float)
    games: dict[tuple[int, str], int] = defaultdict(int)
    for row in rows:
        for seat in range(row["players"]):
            key = (seat, row["bots"][seat])
            wins[key] += stats.share(row, seat)
            games[key] += 1
    return {key: wins[key] / games[key] for key in games}


def card_stats(rows: list[Row], names: Mapping[str, str] | None = None) -> list[CardStat]:
    """Every component's lift for each way it was used: the tested ones first, each part sorted by
    lift (strongest first); the tested ones Benjamini–Hochberg-adjusted together. Rows of one
    configuration and arm."""
    names = names or {}
    base = baselines(rows)
    lifts: dict[tuple[str, str], list[float]] = defaultdict(list)
    shares: dict[tuple[str, str], list[float]] = defaultdict(list)
    for row in rows:
        uses = row.get("uses") or []
        for seat, used in enumerate(uses[: row["players"]]):
            won = stats.share(row, seat)
            expected = base[(seat, row["bots"][seat])]
            for how, codes in used.items():
                for code in set(codes):  # a seat-game counts once, however often it was used
                    lifts[(how, code)].append(won - expected)
                    shares[(how, code)].append(won)
    found = [
        _stat(how, code, names.get(code, code), lifts[(how, code)], shares[(how, code)])
        for how, code in lifts
    ]
    tested = [i for i, s in enumerate(found) if s.tested]
    adjusted = benjamini_hochberg([found[i].p for i in tested])
    for i, value in zip(tested, adjusted, strict=True):
        found[i] = replace(found[i], adjusted=value)
    # The tested first, by lift: an untested lift rests on a few seat-games and would crowd the top.
    return sorted(found, key=lambda s: (not s.tested, -s.lift, s.how, s.code))


def _stat(how: str, code: str, name: str, lifts: list[float], shares: list[float]) -> CardStat:
    n = len(lifts)
    mean, variance = mean_and_variance(lifts)
    error = math.sqrt(variance / n) if n > 1 else math.inf
    half = Z95 * error
    return CardStat(
        code,
        name,
        how,
        stats.wilson(sum(shares), n),
        mean,
        max(-1.0, mean - half),  # a lift lies in [-1, 1]: one seat-game says no more
        min(1.0, mean + half),
        p_value(mean, error),
        tested=n >= MIN_GAMES,
    )


def p_value(mean: float, error: float) -> float:
    """Two-sided p-value of a mean lift with its standard error (one seat-game: no evidence; no
    spread at all: certain, unless the mean is zero)."""
    if math.isinf(error):
        return 1.0
    if error == 0:
        return 1.0 if mean == 0 else 0.0
    return normal_p(mean / error)


def component_names(row: Row) -> dict[str, str]:
    """Each code's short name in the game's words, for a configuration's first row ({} when the
    game, its words or its content pack cannot be found here: codes then stand for themselves)."""
    try:
        found = components(row["game"], row["variant"], players=row["players"], **row["options"])
    except (ValueError, TypeError, KeyError, ImportError, OSError):
        return {}
    return {code: entry["name"] for code, entry in found.items()}


def label(card: CardStat) -> str:
    """The component as a designer reads it: its name when the name holds its code ('Advanced
    candle A04'), else code and name ('house:S — Satores Order')."""
    return card.name if card.code in card.name else f"{card.code} — {card.name}"


def sentence(card: CardStat) -> str:
    """'Played Advanced candle A04: seats that did won 37 points more than their baseline [+17,
    +58] (70% of 20 seat-games): strong.'"""
    named = label(card)
    more = "more" if card.lift > 0 else "less"
    verdict = "strong" if card.lift > 0 else "weak"
    return (
        f"{card.how.capitalize()} {named}: seats that did won {abs(card.lift) * 100:.0f} points "
        f"{more} than their baseline [{card.low * 100:+.0f}, {card.high * 100:+.0f}] "
        f"({card.rate.rate:.0%} of {card.rate.games} seat-games): {verdict}."
    )


def card_json(card: CardStat) -> dict[str, Any]:
    return {
        "code": card.code,
        "name": card.name,
        "how": card.how,
        "games": card.rate.games,
        "wins": card.rate.wins,
        "rate": card.rate.rate,
        "lift": card.lift,
        "ci": [card.low, card.high],
        "p": card.p,
        "p_adjusted": card.adjusted,
        "tested": card.tested,
        "outlier": card.outlier,
    }
