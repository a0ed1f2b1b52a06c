"""Experiments: "what if?" played as arms on common seeds, optionally until the answer is precise.

Every arm (one setting of the varied options, content pack or bots) plays the same seeds: game
``seed`` of two arms starts from the same shuffle, so the arms' differences are measured on pairs
(common random numbers) and need far fewer games than independent runs would. Rounds play further
seeds until every headline difference's 95% interval is narrower than a target, or a maximum is
reached; how it stopped is recorded on every row (the ``stopping`` column).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from candlebox.sim import compare
from candlebox.sim.game import Plan, check
from candlebox.sim.run import Work

Row = dict[str, Any]
Player = Callable[[list[Work]], list[list[Row]]]  # play_local or play_ray with their settings bound
MARGIN = 1.1  # a projected round aims a little past the target, so one more round is rarely needed


@dataclass(frozen=True)
class Arm:
    """One setting of the experiment: its name (the ``arm`` column), the varied values, its plan."""

    name: str
    vary: dict[str, str]
    plan: Plan


@dataclass(frozen=True)
class UntilNarrow:
    """``--until-ci``: play on until every headline difference's 95% interval is within ±``width``
    (a win-rate fraction: 0.05 is ±5 points), or ``max_games`` per arm have been played."""

    width: float
    max_games: int


@dataclass(frozen=True)
class Result:
    rows: list[Row]  # arm by arm, each in seed order
    rounds: list[int] = field(default_factory=list)  # games per arm after each round
    widest: float = math.inf  # the widest headline half-width at the end
    stopping: str = ""  # the rule and how it ended (empty without a rule)


def arm_name(vary: dict[str, str]) -> str:
    return " · ".join(f"{key}={value}" for key, value in vary.items())


def check_arms(arms: list[Arm]) -> None:
    """A ValueError naming the first arm whose bots cannot play its table, before any game."""
    for arm in arms:
        try:
            check(arm.plan)
        except ValueError as exc:
            raise ValueError(f"arm {arm.name}: {exc}") from None


def run(arms: list[Arm], games: int, player: Player, until: UntilNarrow | None = None) -> Result:
    """Play ``games`` seeds (from the arms' common seed) in every arm; with ``until``, more rounds."""
    check_arms(arms)
    seed = arms[0].plan.seed
    found: list[list[Row]] = [[] for _ in arms]
    rounds: list[int] = []
    played, size, width = 0, games, math.inf
    while size > 0:
        seeds = list(range(seed + played, seed + played + size))
        for rows, more in zip(found, player([(arm.plan, seeds) for arm in arms]), strict=True):
            rows.extend(more)
        played += size
        rounds.append(played)
        if until is None:
            break
        width = compare.widest(compare.arm_differences(by_arm(arms, found)))
        if width <= until.width:
            break
        size = next_round(played, width, until, games)
    stopping = "" if until is None else stopping_text(until, rounds, width)
    rows = [
        tag(row, arm, stopping)
        for arm, arm_rows in zip(arms, found, strict=True)
        for row in arm_rows
    ]
    return Result(rows, rounds, width, stopping)


def by_arm(arms: list[Arm], found: list[list[Row]]) -> dict[str, list[Row]]:
    return {arm.name: rows for arm, rows in zip(arms, found, strict=True)}


def next_round(played: int, width: float, until: UntilNarrow, least: int) -> int:
    """Games for the next round: an interval narrows as 1/sqrt(n), so about ``played × (width /
    target)²`` games in all reach the target; at least ``least`` more, never past the maximum."""
    if math.isfinite(width):
        wanted = math.ceil(played * (width / until.width) ** 2 * MARGIN) - played
    else:
        wanted = played
    return max(0, min(until.max_games - played, max(least, wanted)))


def stopping_text(until: UntilNarrow, rounds: list[int], width: float) -> str:
    target = f"±{until.width * 100:g} points"
    ended = (
        f"every interval within {target}"
        if width <= until.width
        else f"the maximum reached, the widest interval still ±{width * 100:.1f} points"
    )
    return (
        "played in rounds until every paired win-rate difference (by seat, place in the turn "
        f"order, bot and house) had a 95% interval within {target} on at least "
        f"{compare.MIN_PAIRS} pairs, at most {until.max_games} games per arm; stopped after "
        f"{len(rounds)} round{'s' if len(rounds) > 1 else ''} "
        f"({', '.join(map(str, rounds))} games per arm): {ended}"
    )


def tag(row: Row, arm: Arm, stopping: str) -> Row:
    tagged = {**row, "arm": arm.name, "vary": dict(arm.vary)}
    if stopping:
        tagged["stopping"] = stopping
    return tagged
