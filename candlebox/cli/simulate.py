"""``candlebox simulate``: many seeded bot-only games and a summary of who won and how long it took."""

from __future__ import annotations

import importlib.util
import itertools
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from candlebox import sim
from candlebox.cli import config
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


def read_tables(paths: list[Path], as_arms: bool = False) -> list[dict[str, Any]]:
    """The rows of every table, pooled; ``as_arms``: each table is an arm named by its file."""
    rows: list[dict[str, Any]] = []
    names = [path.stem for path in paths]
    if as_arms and len(set(names)) < len(names):
        names = [str(path) for path in paths]
    for path, name in zip(paths, names, strict=True):
        try:
            found = sim.read(path)
        except sim.TableError as exc:
            raise CliError(str(exc)) from None
        if as_arms:
            if any(row.get("arm") for row in found):
                raise CliError(f"--arms: {path} is already an experiment's table (it has arms)")
            found = [{**row, "arm": name, "vary": {"table": name}} for row in found]
        rows.extend(found)
    if not rows:
        raise CliError(f"{', '.join(map(str, paths))}: no games in the results")
    return rows


def write_report(paths: list[Path], out: Path | None, as_arms: bool = False) -> Path:
    """The balance report of the tables, in ``out`` (default: FIRST-report beside the first table)."""
    rows = read_tables(paths, as_arms)
    folder = out if out is not None else paths[0].with_name(f"{paths[0].stem}-report")
    try:
        return sim.build_report(rows, folder, [str(path) for path in paths])
    except OSError as exc:
        raise CliError(f"--out {folder}: {exc}") from None


# ----------------------------------------------------------------------------- experiments
BOTS_KEY = "bots"


@dataclass(frozen=True)
class Variation:
    """One ``--vary KEY=A,B``: a game option (``content`` is one), or ``bots``."""

    key: str
    values: tuple[str, ...]


def parse_vary(text: str) -> Variation:
    """``KEY=A,B[,C]``; a value that holds commas itself (a line-up of bots, one per seat) is written
    with ``|`` between the arms: ``bots=heuristic,random|random,random``."""
    key, sep, values = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise CliError(f"--vary takes KEY=A,B[,C...], got {text!r}")
    parts = tuple(part.strip() for part in values.split("|" if "|" in values else ","))
    if len(parts) < 2 or any(not part for part in parts):
        raise CliError(f"--vary {key}: give two or more values, e.g. {key}=A,B; got {values!r}")
    if len(set(parts)) < len(parts):
        raise CliError(f"--vary {key}: a value is given twice in {values!r}")
    return Variation(key, parts)


def parse_variations(texts: list[str], options: dict[str, Any]) -> list[Variation]:
    found = [parse_vary(text) for text in texts]
    keys = [v.key for v in found]
    for key in keys:
        if keys.count(key) > 1:
            raise CliError(f"--vary {key} is given twice; list every value in one --vary")
        if key in options:
            raise CliError(f"--vary {key} and --option {key} both set it; keep one")
    return found


def varies_options(variations: list[Variation]) -> bool:
    """Whether an experiment varies a game option (not only the bots)."""
    return any(v.key != BOTS_KEY for v in variations)


def arm_plan(plan: Plan, key: str, value: str) -> Plan:
    """``plan`` with ``key`` set to ``value`` (checked: a one-line error naming the arm's value)."""
    where = f"--vary {key}={value}: "
    try:
        if key == BOTS_KEY:
            specs = config.parse_bots(value, list(range(plan.players)), plan.game_id)
            return replace(plan, specs=specs)
        options = config.parse_options(plan.game_id, plan.players, plan.variant, [f"{key}={value}"])
    except CliError as exc:
        raise CliError(
            where + str(exc).removeprefix("--option: ").removeprefix("--bots: ")
        ) from None
    return replace(plan, options={**plan.options, **options})


def check_arm(plan: Plan, name: str) -> None:
    """The arm's game starts and its bots play its table, or a one-line error naming the arm."""
    try:
        state = config.start_game(plan.game_id, plan.players, plan.variant, plan.seed, plan.options)
        config.check_table(plan.specs, state)
    except CliError as exc:
        raise CliError(f"--vary arm {name}: {exc}") from None


def arms_of(plan: Plan, variations: list[Variation]) -> list[sim.experiment.Arm]:
    """Every arm of the grid (the product of the variations, the first value of each first: the
    baseline), each checked before any game is played."""
    arms = []
    for values in itertools.product(*(v.values for v in variations)):
        vary = {v.key: value for v, value in zip(variations, values, strict=True)}
        arm = plan
        for key, value in vary.items():
            arm = arm_plan(arm, key, value)
        name = sim.experiment.arm_name(vary)
        check_arm(arm, name)
        arms.append(sim.experiment.Arm(name, vary, arm.for_sim()))
    return arms


def arm_summaries(
    plan: Plan, arms: list[sim.experiment.Arm], rows: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The summary of each arm (as without --vary), with its name and varied values."""
    found = []
    for arm in arms:
        own = [row for row in rows if row["arm"] == arm.name]
        sub = replace(
            plan,
            options=arm.plan.options,
            specs={
                s: BotSpec(seat.name, seat.params, seat.label)
                for s, seat in enumerate(arm.plan.seats)
            },
            games=len(own),
        )
        found.append({"arm": arm.name, "vary": arm.vary, **summarize(sub, own)})
    return found


def experiment_summary(
    plan: Plan, arms: list[sim.experiment.Arm], result: sim.experiment.Result
) -> dict[str, Any]:
    differences = sim.compare.arm_differences(
        {arm.name: [row for row in result.rows if row["arm"] == arm.name] for arm in arms}
    )
    return {
        "arms": arm_summaries(plan, arms, result.rows),
        "baseline": arms[0].name,
        "correction": sim.compare.CORRECTION,
        "differences": [sim.compare.difference_json(d) for d in differences],
        "findings": [sim.compare.difference_sentence(d) for d in differences if d.significant],
        "rounds": result.rounds,
        "stopping": result.stopping,
    }


def run_experiment(
    plan: Plan,
    arms: list[sim.experiment.Arm],
    until: sim.experiment.UntilNarrow | None,
    quiet: bool,
    jobs: int | None = None,
    ray: str | None = None,
) -> sim.experiment.Result:
    """Every arm on the same seeds, on ``jobs`` local processes or through Ray (one session for all
    the rounds); the progress bar counts games of all arms."""
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    most = until.max_games if until else plan.games
    with Progress(*columns, console=Console(stderr=True), disable=quiet, transient=True) as bar:
        where = f" on Ray ({ray})" if ray else f" on {jobs} processes" if jobs and jobs > 1 else ""
        task = bar.add_task(f"{len(arms)} arms of {plan.game_id}{where}", total=most * len(arms))

        def advance(count: int) -> None:
            bar.advance(task, count)

        if not ray:
            return sim.experiment.run(
                arms, plan.games, lambda work: sim.run.play_local(work, jobs or 1, advance), until
            )
        address = ray
        try:
            with sim.run.ray_session(address, jobs):
                return sim.experiment.run(
                    arms,
                    plan.games,
                    lambda work: sim.run.play_ray(work, address, jobs, advance),
                    until,
                )
        except ConnectionError as exc:
            raise CliError(f"--ray {ray}: {exc}") from None


def print_experiment(summary: dict[str, Any], console: Console) -> None:
    for arm in summary["arms"]:
        console.print(f"\n[bold]arm {arm['arm']}[/]")
        print_summary(arm, console)
    console.print(
        f"\n[bold]differences from {summary['baseline']}[/] (paired by seed, 95% intervals, "
        f"{summary['correction']}-adjusted)"
    )
    for sentence in summary["findings"] or ["no significant difference"]:
        console.print(f"- {sentence}")
    if summary["stopping"]:
        console.print(summary["stopping"])


def check_until(
    variations: list[Variation], until_ci: float | None, max_games: int, games: int
) -> None:
    if until_ci is None:
        return
    if not variations:
        raise CliError("--until-ci narrows the differences between arms: give --vary too")
    if max_games < games:
        raise CliError(f"--max-games {max_games} is fewer than the first round's -n {games}")


def report_figures(paths: list[Path], as_arms: bool = False) -> dict[str, Any]:
    """The report's figures as data (``candlebox report --json``)."""
    return sim.summary.report_json(read_tables(paths, as_arms), [str(path) for path in paths])
