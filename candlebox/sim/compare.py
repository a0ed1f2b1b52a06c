"""Arms compared: paired differences over common seeds, Holm's correction, and findings in words.

An experiment's arms play the same seeds, so game ``seed`` of two arms is a pair: the same shuffles
and deals, different options or bots. A measure (a seat's win, its score, the game's length) is
compared on its paired differences ``x_arm(seed) − x_baseline(seed)``: what both arms' games share
cancels out, so the interval is narrower than that of two independent samples of the same size.
Intervals are normal-approximation 95% intervals of the mean difference; p-values are two-sided and
adjusted for the number of comparisons with Holm's step-down method (family-wise error 5%).

A single arm's groups (seats, places in the turn order, bots, houses, houses in each seat) are compared
with the even share 1/players the same way: a finding is stated only when its Holm-adjusted p-value is
below 5%, so noise gets no sentence.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from candlebox.sim import stats
from candlebox.sim.stats import Z95, Rate

ALPHA = 0.05
CORRECTION = "Holm"
MIN_PAIRS = 30  # --until-ci trusts an interval from this many pairs on
SMALL_GROUP = 30  # seat-games: below this a group's interval is wider than about ±18 points
Row = dict[str, Any]

# Measures, and the kinds of group of a win rate; the headline kinds are those --until-ci narrows.
WIN = "win rate"
SCORE = "mean score"
LENGTH = "mean length"
HEADLINE = ("seat", "place", "bot", "fact")


@dataclass(frozen=True)
class Key:
    """One compared figure: a measure of one group (``kind`` says which sort of group)."""

    measure: str
    kind: str  # "seat", "place", "bot", "fact", "fact×seat", "game"
    group: (
        str  # "seat 0", "place 0", "heuristic", "house Satores", "house Satores in seat 1", "turns"
    )


@dataclass(frozen=True)
class Difference:
    """``arm`` minus ``baseline`` for one figure, over the seeds both played."""

    key: Key
    arm: str
    baseline: str
    pairs: int
    base_value: float
    arm_value: float
    difference: float
    low: float  # paired 95% interval
    high: float
    unpaired_low: float  # the same figures treated as two independent samples, for comparison
    unpaired_high: float
    p: float
    adjusted: float = 1.0  # Holm

    @property
    def significant(self) -> bool:
        return self.adjusted < ALPHA

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2


@dataclass(frozen=True)
class Group:
    """A win rate of one group of one arm, tested against the even share."""

    kind: str
    group: str
    rate: Rate
    p: float
    adjusted: float = 1.0

    @property
    def significant(self) -> bool:
        return self.adjusted < ALPHA


# ----------------------------------------------------------------------------- arithmetic
def normal_p(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given (each compared with ALPHA)."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [1.0] * len(p_values)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted


def mean_and_variance(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    variance = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return mean, variance


def difference(key: Key, arm: str, baseline: str, pairs: list[tuple[float, float]]) -> Difference:
    """The paired difference of ``(baseline, arm)`` values (at least two pairs)."""
    base = [a for a, _ in pairs]
    other = [b for _, b in pairs]
    n = len(pairs)
    mean, variance = mean_and_variance([b - a for a, b in pairs])
    _, base_var = mean_and_variance(base)
    _, other_var = mean_and_variance(other)
    half = Z95 * math.sqrt(variance / n)
    unpaired = Z95 * math.sqrt((base_var + other_var) / n)
    error = math.sqrt(variance / n)
    p = normal_p(mean / error) if error > 0 else (1.0 if mean == 0 else 0.0)
    return Difference(
        key,
        arm,
        baseline,
        n,
        sum(base) / n,
        sum(other) / n,
        mean,
        mean - half,
        mean + half,
        mean - unpaired,
        mean + unpaired,
        p,
    )


# ----------------------------------------------------------------------------- per-game figures
def text_facts(rows: list[Row]) -> list[str]:
    """The text facts that group win rates: ones every seat has in every game, with few values (a
    house; not a final position such as a castle's region), and of two facts that name the same
    thing (a house's code and its name) the one with the longer, more readable values."""
    if not rows:
        return []
    most = max(8, 2 * rows[0]["players"])
    values: dict[str, set[str]] = {}
    for name in stats.seat_facts(rows)[1]:
        found = {seat_fact(row, s, name) for row in rows for s in range(row["players"])}
        if len(found) <= most:
            values[name] = {v for v in found if v is not None}
    kept: list[str] = []
    for name in values:
        twin = next((other for other in kept if same_thing(rows, name, other)), None)
        if twin is None:
            kept.append(name)
        elif length(values[name]) > length(values[twin]):
            kept[kept.index(twin)] = name
    return kept


def length(values: set[str]) -> float:
    return sum(map(len, values)) / len(values) if values else 0.0


def same_thing(rows: list[Row], one: str, other: str) -> bool:
    """Whether two facts' values match one to one in every seat of every game."""
    pairs = {
        (seat_fact(row, s, one), seat_fact(row, s, other))
        for row in rows
        for s in range(row["players"])
    }
    return len(pairs) == len({a for a, _ in pairs}) == len({b for _, b in pairs})


def seat_fact(row: Row, seat: int, name: str) -> str | None:
    seats = row["facts"].get("seats", [])
    found = seats[seat].get(name) if seat < len(seats) else None
    return found if isinstance(found, str) else None


def figures(row: Row, facts: list[str]) -> dict[Key, float]:
    """Every compared figure of one game: the win share of each group, each seat's score, length."""
    found: dict[Key, float] = {}
    groups: dict[Key, list[float]] = defaultdict(list)
    players = row["players"]
    for seat in range(players):
        won = stats.share(row, seat)
        found[Key(WIN, "seat", f"seat {seat}")] = won
        found[Key(SCORE, "seat", f"seat {seat}")] = float(row["scores"][seat])
        if row["first_player"] >= 0:
            place = (seat - row["first_player"]) % players
            found[Key(WIN, "place", f"place {place}")] = won
        groups[Key(WIN, "bot", row["bots"][seat])].append(won)
        for name in facts:
            value = seat_fact(row, seat, name)
            if value is not None:
                groups[Key(WIN, "fact", f"{name} {value}")].append(won)
                found[Key(WIN, "fact×seat", f"{name} {value} in seat {seat}")] = won
    # A bot (or house) in several seats of a game counts its seats' mean share in that game; one in
    # every seat always has the even share, which says nothing about it.
    for key, shares in groups.items():
        if len(shares) < players:
            found[key] = sum(shares) / len(shares)
    found[Key(LENGTH, "game", "turns")] = float(row["turns"])
    return found


def compare(
    baseline: str, arm: str, base_rows: list[Row], arm_rows: list[Row], facts: list[str]
) -> list[Difference]:
    """The paired differences ``arm − baseline`` of every figure both arms have for at least two
    common seeds (unadjusted: see ``adjust``)."""
    base_by_seed = {row["seed"]: figures(row, facts) for row in base_rows}
    pairs: dict[Key, list[tuple[float, float]]] = defaultdict(list)
    for row in sorted(arm_rows, key=lambda r: r["seed"]):
        base = base_by_seed.get(row["seed"])
        if base is None:
            continue
        for key, value in figures(row, facts).items():
            if key in base:
                pairs[key].append((base[key], value))
    return [
        difference(key, arm, baseline, found)
        for key, found in sorted(pairs.items(), key=lambda kv: order(kv[0]))
        if len(found) >= 2
    ]


KIND_ORDER = {"seat": 0, "place": 1, "bot": 2, "fact": 3, "fact×seat": 4, "game": 5}
MEASURE_ORDER = {WIN: 0, SCORE: 1, LENGTH: 2}


def order(key: Key) -> tuple[int, int, str]:
    return MEASURE_ORDER[key.measure], KIND_ORDER[key.kind], key.group


def adjust(found: list[Difference]) -> list[Difference]:
    """The differences with Holm-adjusted p-values over all of them (one family)."""
    adjusted = holm([d.p for d in found])
    return [replace(d, adjusted=a) for d, a in zip(found, adjusted, strict=True)]


def arm_differences(arms: dict[str, list[Row]]) -> list[Difference]:
    """Every arm against the first (the baseline), paired by seed, Holm-adjusted together."""
    names = list(arms)
    if len(names) < 2:
        return []
    everything = [row for rows in arms.values() for row in rows]
    facts = text_facts(everything)
    found = [
        d for name in names[1:] for d in compare(names[0], name, arms[names[0]], arms[name], facts)
    ]
    return adjust(found)


def widest(found: Iterable[Difference]) -> float:
    """The widest half-width of the headline win-rate differences (those --until-ci narrows);
    infinite while one rests on fewer than MIN_PAIRS pairs, whose normal interval would be too
    optimistic (ten equal pairs give a zero-width interval)."""
    headline = [d for d in found if d.key.measure == WIN and d.key.kind in HEADLINE]
    if not headline or any(d.pairs < MIN_PAIRS for d in headline):
        return math.inf
    return max(d.half_width for d in headline)


# ----------------------------------------------------------------------------- one arm's groups
def even_test(rate: Rate, even: float) -> float:
    """Two-sided p-value of a win rate against the even share (normal approximation)."""
    if rate.games == 0:
        return 1.0
    error = math.sqrt(even * (1 - even) / rate.games)
    return normal_p((rate.rate - even) / error)


def in_seat(name: str) -> Callable[[Row, int], str | None]:
    """Groups seat-games by a text fact's value in each seat: 'house Satores in seat 1'."""

    def key(row: Row, seat: int) -> str | None:
        value = seat_fact(row, seat, name)
        return None if value is None else f"{name} {value} in seat {seat}"

    return key


def groups(rows: list[Row]) -> list[Group]:
    """The win rate of every group of one arm's games against the even share, Holm-adjusted.

    Groups: seats, places in the turn order, bots (when there are several), each text fact's values
    (houses), and each value in each seat (house × seat). Rows of one configuration.
    """
    players = rows[0]["players"]
    even = 1 / players
    found: list[tuple[str, str, Rate]] = []
    found += [("seat", f"seat {k}", r) for k, r in stats.by_seat(rows).items()]
    found += [("place", f"place {k}", r) for k, r in stats.by_position(rows).items()]
    bots = stats.by_bot(rows)
    if len(bots) > 1:
        found += [("bot", str(k), r) for k, r in sorted(bots.items(), key=lambda kv: str(kv[0]))]
    for name in text_facts(rows):
        found += [("fact", f"{name} {k}", r) for k, r in stats.by_seat_fact(rows, name).items()]
        crossed = stats.rates_by(rows, in_seat(name))
        found += [("fact×seat", str(k), r) for k, r in sorted(crossed.items(), key=str)]
    p_values = [even_test(rate, even) for _, _, rate in found]
    adjusted = holm(p_values)
    return [
        Group(kind, group, rate, p, a)
        for (kind, group, rate), p, a in zip(found, p_values, adjusted, strict=True)
    ]


# ----------------------------------------------------------------------------- findings in words
def points(value: float) -> str:
    return f"{abs(value) * 100:.0f}"


def verdict(group: Group, even: float) -> str:
    above = group.rate.rate > even
    if group.kind in ("seat", "place", "fact×seat"):
        return "an advantage" if above else "a disadvantage"
    return "strong" if above else "weak"


def subject(kind: str, group: str) -> str:
    """The group as a designer names it: 'Seat 0', 'The first player', 'Satores'."""
    if kind == "place":
        place = int(group.split()[-1])
        return (
            "The first player" if place == 0 else f"The player {ordinal(place + 1)} in turn order"
        )
    if kind in ("fact", "fact×seat"):
        return group.split(" ", 1)[1]  # "house Satores" → "Satores"
    return group[0].upper() + group[1:] if kind == "seat" else group


def ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(n, f"{n}th")


def group_sentence(group: Group, players: int) -> str:
    """'Satores wins 44% [39, 49] of 3-player games where 33% is even: strong.'"""
    even = 1 / players
    rate = group.rate
    return (
        f"{subject(group.kind, group.group)} wins {rate.rate:.0%} [{rate.low * 100:.0f}, "
        f"{rate.high * 100:.0f}] of {players}-player games where {even:.0%} is even: "
        f"{verdict(group, even)}."
    )


def small_groups_note(found: list[Group]) -> str | None:
    """A warning when many groups are too small to read (house × seat tables, typically)."""
    small = [g for g in found if g.rate.games < SMALL_GROUP]
    if len(small) < 3:
        return None
    return (
        f"{len(small)} of {len(found)} groups have fewer than {SMALL_GROUP} seat-games: their "
        "intervals are wide, so only large effects there can be found; play more games to read them."
    )


def difference_sentence(d: Difference) -> str:
    """'max_turns=30: seat 0 wins 12 points more than in max_turns=60 [5, 19] (40% → 52%) ...'"""
    where = f"paired over {d.pairs} seeds"
    span = f"[{d.low * 100:+.0f}, {d.high * 100:+.0f}]"
    if d.key.measure == WIN:
        more = "more" if d.difference > 0 else "less"
        who = subject(d.key.kind, d.key.group)
        return (
            f"{d.arm}: {who} wins {points(d.difference)} points {more} than in {d.baseline} "
            f"{span} ({d.base_value:.0%} → {d.arm_value:.0%}, {where})."
        )
    span = f"[{d.low:+.2f}, {d.high:+.2f}]"
    if d.key.measure == SCORE:
        return (
            f"{d.arm}: {subject('seat', d.key.group)} scores {d.difference:+.2f} against "
            f"{d.baseline} {span} ({d.base_value:.2f} → {d.arm_value:.2f}, {where})."
        )
    return (
        f"{d.arm}: games last {d.difference:+.1f} turns against {d.baseline} {span} "
        f"({d.base_value:.1f} → {d.arm_value:.1f}, {where})."
    )


# ----------------------------------------------------------------------------- JSON
def difference_json(d: Difference) -> dict[str, Any]:
    return {
        "arm": d.arm,
        "baseline": d.baseline,
        "measure": d.key.measure,
        "kind": d.key.kind,
        "group": d.key.group,
        "pairs": d.pairs,
        "baseline_value": d.base_value,
        "arm_value": d.arm_value,
        "difference": d.difference,
        "ci": [d.low, d.high],
        "unpaired_ci": [d.unpaired_low, d.unpaired_high],
        "p": d.p,
        "p_adjusted": d.adjusted,
        "significant": d.significant,
    }


def group_json(group: Group) -> dict[str, Any]:
    rate = group.rate
    return {
        "kind": group.kind,
        "group": group.group,
        "wins": rate.wins,
        "games": rate.games,
        "rate": rate.rate,
        "ci": [rate.low, rate.high],
        "p": group.p,
        "p_adjusted": group.adjusted,
        "significant": group.significant,
    }
