"""``candlebox simulate``: many seeded bot-only games and a summary of who won and how long it took."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from candlebox.cli.config import BotSpec, make_bots, start_game
from candlebox.engine import State


@dataclass(frozen=True)
class Plan:
    game_id: str
    players: int
    variant: str | None
    options: dict[str, Any]
    specs: dict[int, BotSpec]  # seat -> bot
    games: int
    seed: int


@dataclass(frozen=True)
class Outcome:
    """What one finished game contributes to the summary."""

    variant: str
    winners: tuple[int, ...]
    scores: tuple[float, ...]
    steps: int
    turns: int
    truncated: bool
    end_reason: str | None


def play_out(plan: Plan, seed: int) -> Outcome:
    state = start_game(plan.game_id, plan.players, plan.variant, seed, plan.options)
    robots = make_bots(plan.specs, seed)
    while not state.is_over:
        for seat in sorted(state.to_act):
            if seat in state.to_act:
                state.apply(seat, robots[seat].choose(state, seat))
    return outcome(state)


def outcome(state: State) -> Outcome:
    final = state.view(None)
    turn = final.get("turn")
    reason = final.get("end_reason")
    return Outcome(
        variant=state.variant,
        winners=tuple(state.winners),
        scores=tuple(float(score) for score in state.scores),
        steps=len(state.history),
        # Games that count turns say so in their view; otherwise every step is a turn.
        turns=turn if isinstance(turn, int) and not isinstance(turn, bool) else len(state.history),
        truncated=bool(state.truncated),
        end_reason=reason if isinstance(reason, str) else None,
    )


def run(plan: Plan, quiet: bool) -> list[Outcome]:
    """Game ``i`` uses seed ``plan.seed + i``; the progress bar goes to stderr."""
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    results = []
    with Progress(*columns, console=Console(stderr=True), disable=quiet, transient=True) as bar:
        task = bar.add_task(f"simulating {plan.game_id}", total=plan.games)
        for i in range(plan.games):
            results.append(play_out(plan, plan.seed + i))
            bar.advance(task)
    return results


# ----------------------------------------------------------------------------- the summary
def mean(values: Iterable[float]) -> float:
    items = list(values)
    return sum(items) / len(items) if items else 0.0


def wins_by_seat(results: list[Outcome], players: int) -> list[float]:
    """A shared win counts 1/k to each of the k winners, so the shares of one game add up to 1."""
    wins = [0.0] * players
    for result in results:
        for seat in result.winners:
            wins[seat] += 1 / len(result.winners)
    return wins


def win_rate_by_bot(wins: list[float], specs: dict[int, BotSpec], games: int) -> dict[str, float]:
    """Wins per game played by each bot (a bot in two seats plays two games per game)."""
    total: dict[str, float] = {}
    seats: Counter[str] = Counter()
    for seat, spec in specs.items():
        total[spec.label] = total.get(spec.label, 0.0) + wins[seat]
        seats[spec.label] += 1
    return {label: total[label] / (seats[label] * games) for label in seats}


def summarize(plan: Plan, results: list[Outcome]) -> dict[str, Any]:
    games = len(results)
    wins = wins_by_seat(results, plan.players)
    reasons = Counter(result.end_reason or "unknown" for result in results)
    return {
        "game": plan.game_id,
        "variant": results[0].variant if results else plan.variant,
        "players": plan.players,
        "games": games,
        "seed": plan.seed,
        "bots": [plan.specs[seat].label for seat in range(plan.players)],
        "options": plan.options,
        "wins_by_seat": wins,
        "win_rate_by_seat": [w / games for w in wins],
        "win_rate_by_bot": win_rate_by_bot(wins, plan.specs, games),
        "mean_steps": mean(result.steps for result in results),
        "mean_turns": mean(result.turns for result in results),
        "truncated": sum(result.truncated for result in results),
        "end_reasons": dict(sorted(reasons.items())),
        "mean_score_by_seat": [
            mean(result.scores[seat] for result in results) for seat in range(plan.players)
        ],
    }


def print_summary(summary: dict[str, Any], console: Console) -> None:
    games = summary["games"]
    console.print(
        f"[bold]{summary['game']}[/] ({summary['variant']}), {summary['players']} players, "
        f"{games} games from seed {summary['seed']}"
    )
    seats = Table(title="by seat", title_justify="left", header_style="bold")
    for column in ("seat", "bot", "wins", "win rate", "mean score"):
        seats.add_column(column, justify="left" if column == "bot" else "right")
    for seat in range(summary["players"]):
        seats.add_row(
            str(seat),
            summary["bots"][seat],
            f"{summary['wins_by_seat'][seat]:.12g}",
            f"{summary['win_rate_by_seat'][seat]:.1%}",
            f"{summary['mean_score_by_seat'][seat]:.3g}",
        )
    console.print(seats)
    if len(summary["win_rate_by_bot"]) > 1:
        by_bot = Table(title="by bot", title_justify="left", header_style="bold")
        by_bot.add_column("bot")
        by_bot.add_column("win rate per seat", justify="right")
        for label, rate in summary["win_rate_by_bot"].items():
            by_bot.add_row(label, f"{rate:.1%}")
        console.print(by_bot)
    reasons = ", ".join(f"{reason} {count}" for reason, count in summary["end_reasons"].items())
    console.print(
        f"mean length: {summary['mean_turns']:.1f} turns, {summary['mean_steps']:.1f} steps\n"
        f"ended by: {reasons}\n"
        f"truncated: {summary['truncated']} of {games}"
    )
