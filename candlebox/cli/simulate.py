"""``candlebox simulate``: many seeded bot-only games and a summary of who won and how long it took."""

from __future__ import annotations

import importlib.util
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from candlebox import sim
from candlebox.cli.config import BotSpec
from candlebox.cli.errors import CliError
from candlebox.sim import stats as sim_stats


@dataclass(frozen=True)
class Plan:
    game_id: str
    players: int
    variant: str | None
    options: dict[str, Any]
    specs: dict[int, BotSpec]  # seat -> bot
    games: int
    seed: int
    rotate: bool = False  # game i moves the line-up i seats on (see candlebox.sim.Plan)

    def for_sim(self) -> sim.Plan:
        seats = tuple(
            sim.Seat(spec.name, dict(spec.params), spec.label)
            for _, spec in sorted(self.specs.items())
        )
        return sim.Plan(
            self.game_id,
            self.players,
            self.variant,
            dict(self.options),
            seats,
            self.games,
            self.seed,
            self.rotate,
        )


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


def outcome(row: dict[str, Any]) -> Outcome:
    """The summary's part of one row of the results table (candlebox.sim)."""
    return Outcome(
        variant=row["variant"],
        winners=tuple(row["winners"]),
        scores=tuple(row["scores"]),
        steps=row["steps"],
        turns=row["turns"],
        truncated=row["truncated"],
        end_reason=row["end_reason"] or None,
    )


def run(
    plan: Plan, quiet: bool, jobs: int | None = None, ray: str | None = None
) -> list[dict[str, Any]]:
    """The rows of every game, on ``jobs`` local processes or through Ray at address ``ray``.

    Game ``i`` uses seed ``plan.seed + i`` whatever runs it; the progress bar goes to stderr.
    """
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), disable=quiet, transient=True) as bar:
        where = f" on Ray ({ray})" if ray else f" on {jobs} processes" if jobs and jobs > 1 else ""
        task = bar.add_task(f"simulating {plan.game_id}{where}", total=plan.games)

        def advance(count: int) -> None:
            bar.advance(task, count)

        if ray:
            try:
                return sim.run_ray(plan.for_sim(), ray, workers=jobs, progress=advance)
            except ConnectionError as exc:
                raise CliError(f"--ray {ray}: {exc}") from None
        return sim.run_local(plan.for_sim(), jobs=jobs or 1, progress=advance)


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


def win_rate_by_bot(rows: list[dict[str, Any]]) -> dict[str, sim_stats.Rate]:
    """Wins per game played by each bot (a bot in two seats plays two games per game), with its
    95% interval; read from each row's line-up, so a rotated line-up is counted right."""
    found = sim_stats.by_bot(rows)
    return {str(label): found[label] for label in dict.fromkeys(b for r in rows for b in r["bots"])}


def summarize(plan: Plan, rows: list[dict[str, Any]]) -> dict[str, Any]:
    results = [outcome(row) for row in rows]
    games = len(results)
    wins = wins_by_seat(results, plan.players)
    reasons = Counter(result.end_reason or "unknown" for result in results)
    by_bot = win_rate_by_bot(rows)
    return {
        "game": plan.game_id,
        "variant": results[0].variant if results else plan.variant,
        "players": plan.players,
        "games": games,
        "seed": plan.seed,
        "bots": [plan.specs[seat].label for seat in range(plan.players)],
        "rotate": plan.rotate,
        "options": plan.options,
        "wins_by_seat": wins,
        "win_rate_by_seat": [w / games for w in wins],
        "win_rate_by_bot": {label: rate.rate for label, rate in by_bot.items()},
        "win_rate_by_bot_95": {label: [rate.low, rate.high] for label, rate in by_bot.items()},
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
            "rotating" if summary.get("rotate") else summary["bots"][seat],
            f"{summary['wins_by_seat'][seat]:.12g}",
            f"{summary['win_rate_by_seat'][seat]:.1%}",
            f"{summary['mean_score_by_seat'][seat]:.3g}",
        )
    console.print(seats)
    if len(summary["win_rate_by_bot"]) > 1:
        by_bot = Table(title="by bot", title_justify="left", header_style="bold")
        by_bot.add_column("bot")
        by_bot.add_column("win rate per seat", justify="right")
        by_bot.add_column("95% interval", justify="right")
        for label, rate in summary["win_rate_by_bot"].items():
            low, high = summary["win_rate_by_bot_95"][label]
            by_bot.add_row(label, f"{rate:.1%}", f"{low:.1%}–{high:.1%}")
        console.print(by_bot)
    reasons = ", ".join(f"{reason} {count}" for reason, count in summary["end_reasons"].items())
    console.print(
        f"mean length: {summary['mean_turns']:.1f} turns, {summary['mean_steps']:.1f} steps\n"
        f"ended by: {reasons}\n"
        f"truncated: {summary['truncated']} of {games}"
    )


# ----------------------------------------------------------------------------- tables and reports
def check_ray() -> None:
    try:
        sim.run.import_ray()
    except sim.RayMissing as exc:
        raise CliError(f"--ray: {exc}") from None


def check_out(path: Path | None) -> None:
    """Fail before the first game when the results could not be written."""
    if path is None:
        return
    if sim.table.is_parquet(path) and importlib.util.find_spec("pyarrow") is None:
        raise CliError(
            f"--out {path}: Parquet needs pyarrow (pip install -e '.[sim]'); or use .csv"
        )
    if path.is_dir():
        raise CliError(f"--out {path} is a folder; give a file name ending in .csv or .parquet")


def save_rows(rows: list[dict[str, Any]], path: Path) -> None:
    try:
        sim.write(rows, path)
    except (OSError, sim.TableError) as exc:
        raise CliError(f"--out {path}: {exc}") from None


def read_tables(paths: list[Path]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for path in paths:
        try:
            rows.extend(sim.read(path))
        except sim.TableError as exc:
            raise CliError(str(exc)) from None
    if not rows:
        raise CliError(f"{', '.join(map(str, paths))}: no games in the results")
    return rows


def write_report(paths: list[Path], out: Path | None) -> Path:
    """The balance report of the tables, in ``out`` (default: FIRST-report beside the first table)."""
    rows = read_tables(paths)
    folder = out if out is not None else paths[0].with_name(f"{paths[0].stem}-report")
    try:
        return sim.build_report(rows, folder, [str(path) for path in paths])
    except OSError as exc:
        raise CliError(f"--out {folder}: {exc}") from None
