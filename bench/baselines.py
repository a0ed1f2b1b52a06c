"""The baselines to beat: each shipped policy bot against random, heuristic and ISMCTS-Easy.

For every game and player count with a shipped policy (candlebox/bots/policies/: ``<game>.npz`` for
2 players, ``<game>-<n>p.npz`` for n; or ``--games`` and ``--players``), the default variant and
options for that count: the ``policy`` bot (greedy, ``temperature=0``) at one seat against the random
bot at every other seat (``--n-random``, 200 games at 2 players), the heuristic bot likewise
(``--n-heuristic``, 200) and, at 2 players only, ISMCTS-Easy, the ISMCTS bot at a small fixed budget
(``--easy``, ``iterations=50`` by default; 100 games). With n players a match plans ``2/n`` of those
games (a game there costs about n/2 times a 2-player one), and even is ``1/n``, not one half. The
policy's seat moves on one from game to game, games are seeded (game ``i``: seed ``--seed + i``); win
rates have Wilson 95% intervals (a tie pays each winner its share). Each match's result is appended to ``--json`` as one JSON line as soon as
the match ends; ``--minutes`` bounds each match (the games played by then are what is reported, and the
line says how many were planned). Run it under ``nice -n 19`` on a shared machine.

    nice -n 19 python bench/baselines.py --json bench/results/baselines.jsonl
    python bench/baselines.py --games candle-quest --n-random 20 --n-heuristic 20 --n-ismcts 10
    python bench/baselines.py --report          # docs/rl.md's tables, from the files
    python bench/baselines.py --write-docs      # ... written into docs/rl.md

The tables of docs/rl.md are generated, never typed: the baselines from the results file
(bench/results/baselines.jsonl, kept in git; the last line of each game and opponent counts) and the
training runs from the logs beside the shipped files (candlebox/bots/policies/<game>.train.jsonl).
The policies for more than 2 players
are trained by imitation (``python -m candlebox.rl.imitation GAME --players N``), logged beside their
files (``<game>-<n>p.train.jsonl``), and have a table of their own.
tests/docs/test_baselines_table.py fails when docs/rl.md differs from what the files give, or when a
result was measured with a policy file other than the one shipped.

Not measured here: the policy as the ISMCTS bot's prior (``ismcts:guide=policy``), which
``candlebox simulate`` measures against the heuristic's guide (docs/rl.md, "The policy as the
search's prior").
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import sys
import textwrap
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import candlebox
from candlebox import sim
from candlebox.bots.policy import shipped_path
from candlebox.cli.config import parse_bot
from candlebox.cli.errors import CliError

BENCH = Path(__file__).resolve().parent
RESULTS = BENCH / "results" / "baselines.jsonl"
DOCS = BENCH.parent / "docs" / "rl.md"
# The generated parts of docs/rl.md sit between these lines ({} is the part's name).
BEGIN = "<!-- bench/baselines.py --write-docs: {} (generated from the files; do not edit) -->"
END = "<!-- bench/baselines.py --write-docs: end of {} -->"
PARTS = ("baselines", "training", "imitation")
WIDTH = 100  # the docs' prose lines


def player_counts(game: str) -> list[int]:
    """The player counts the game plays with a shipped policy file, ascending."""
    info = candlebox.game_info(game)
    counts = {n for v in info.variants for n in range(v.min_players, v.max_players + 1)}
    return [n for n in sorted(counts) if shipped_path(game, n).is_file()]


def planned(games: int, players: int) -> int:
    """A match's games at ``players``: ``games`` at 2 players, 2/n of them at n (at least 1)."""
    return max(1, round(games * 2 / players))


def match(
    game: str,
    players: int,
    first: sim.Seat,
    second: sim.Seat,
    n: int,
    seed: int,
    minutes: float | None,
) -> dict[str, Any]:
    """``first`` against ``second`` at every other seat, ``first``'s seat moving on one each game,
    up to ``n`` games or ``minutes``."""
    lineup = (first,) + (second,) * (players - 1)
    plan = sim.Plan(game, players, None, {}, lineup, n, seed, True)
    start = time.perf_counter()
    rows: list[dict[str, Any]] = []
    for game_seed in plan.seeds:
        rows.append(sim.game.play(plan, game_seed))
        print(f"  {len(rows)}/{n}", end="\r", file=sys.stderr, flush=True)
        if minutes is not None and time.perf_counter() - start > minutes * 60:
            break
    wall = time.perf_counter() - start
    rate = sim.stats.by_bot(rows)[first.shown]
    played = len(rows)
    return {
        "game": game,
        "variant": rows[0]["variant"],
        "players": players,
        "bot": first.shown,
        "against": second.shown,
        "games": played,
        "planned": n,
        "wins": rate.wins,
        "win_rate": rate.rate,
        "low95": rate.low,
        "high95": rate.high,
        "mean_steps": sum(r["steps"] for r in rows) / played,
        "truncated": sum(r["truncated"] for r in rows),
        "wall_seconds": round(wall, 1),
        "load_average": os.getloadavg(),
        "measured": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "nice": os.nice(0),
        "cpus": os.cpu_count(),
        "policy_sha256": policy_digest(game, players),
    }


def policy_digest(game: str, players: int = 2) -> str:
    """The shipped network's SHA-256: a result belongs to the policy file it was measured with
    (the docs test refuses a table measured with a policy since retrained)."""
    return hashlib.sha256(shipped_path(game, players).read_bytes()).hexdigest()


@dataclass(frozen=True)
class Baseline:
    """One match of the results file: the policy of ``game`` against ``against``."""

    game: str
    variant: str
    against: str
    games: int
    planned: int
    wins: float
    measured: str  # ISO 8601, UTC, when the match ended
    load_average: float  # over the last minute, when the match ended
    nice: int | None  # the process's niceness (None in lines written before it was recorded)
    cpus: int | None  # the machine's (likewise)
    policy_sha256: str
    players: int = 2

    @classmethod
    def of(cls, line: dict[str, Any]) -> Baseline:
        return cls(
            line["game"],
            line["variant"],
            line["against"],
            line["games"],
            line["planned"],
            line["wins"],
            line["measured"],
            line["load_average"][0],
            line.get("nice"),
            line.get("cpus"),
            line["policy_sha256"],
            line.get("players", 2),
        )

    @property
    def rate(self) -> sim.stats.Rate:
        return sim.stats.wilson(self.wins, self.games)

    @property
    def rival_rank(self) -> int:
        """random, the heuristic, then ISMCTS-Easy: the table's order within a game."""
        return {"random": 0, "heuristic": 1}.get(self.against, 2)


def load(path: Path = RESULTS) -> list[Baseline]:
    return [Baseline.of(json.loads(line)) for line in path.read_text().splitlines() if line.strip()]


def current(baselines: Iterable[Baseline]) -> list[Baseline]:
    """The last line of each game, player count and opponent (a rerun supersedes), in the games'
    order, then by player count."""
    last = {(b.game, b.players, b.against): b for b in baselines}
    order = candlebox.game_ids()
    return sorted(
        last.values(), key=lambda b: (order.index(b.game), b.players, b.rival_rank, b.against)
    )


def game_title(game: str, variant: str) -> str:
    return f"{candlebox.game_info(game).title} ({variant})"


def rival_title(against: str) -> str:
    return against if against in ("random", "heuristic") else f"ISMCTS-Easy (`{against}`)"


def reading(rate: sim.stats.Rate, players: int = 2) -> str:
    """What the interval says about the policy against that opponent: beside even, 1/players."""
    even = 1 / players
    if rate.low > even:
        return "ahead"
    if rate.high < even:
        return "behind"
    return "level (the interval holds even)"


def even_share(players: int) -> str:
    return f"1/{players} ({1 / players:.1%})"


def span(values: Iterable[str]) -> str:
    found = sorted(set(values))
    return found[0] if len(found) == 1 else f"{found[0]} to {found[-1]}"


def baselines_part(baselines: list[Baseline]) -> list[str]:
    """How and when the results were measured, then the table."""
    rows = current(baselines)
    if not rows:
        raise ValueError("no baselines in the results file")
    loads = sorted(b.load_average for b in rows)
    niceness = sorted({b.nice for b in rows if b.nice is not None})
    cut = [b for b in rows if b.games < b.planned]
    stopped = (
        "; stopped at the `--minutes` bound: "
        + ", ".join(
            f"{candlebox.game_info(b.game).title} ({b.players} players) against "
            f"{rival_title(b.against)} after "
            f"{b.games} of {b.planned} games"
            for b in cut
        )
        if cut
        else "; every match played its planned games"
    )
    nice = f" under `nice -n {', '.join(map(str, niceness))}`" if niceness else ""
    cpus = sorted({b.cpus for b in rows if b.cpus is not None})
    machine = f" on {', '.join(map(str, cpus))} CPUs" if cpus else ""
    said = (
        f"Measured {span(b.measured[:10] for b in rows)} (UTC){machine}{nice} with the policy files "
        f"shipped (each match records its file's SHA-256), load average over the last minute "
        f"{loads[0]:.1f}–{loads[-1]:.1f} when a match ended{stopped}."
    )
    lines = [
        *textwrap.wrap(said, WIDTH),
        "",
        "| game | players | against (every other seat) | games | policy's win rate "
        "| 95% interval | even | the policy is |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for b in rows:
        rate = b.rate
        games = str(b.games) if b.games == b.planned else f"{b.games} of {b.planned} planned"
        lines.append(
            f"| {game_title(b.game, b.variant)} | {b.players} | {rival_title(b.against)} "
            f"| {games} | **{rate.rate:.1%}** | {rate.low:.1%}–{rate.high:.1%} "
            f"| {even_share(b.players)} | {reading(rate, b.players)} |"
        )
    return lines


@dataclass(frozen=True)
class TrainingRun:
    """What a shipped file's training log says about the run that made it."""

    game: str
    trained: str
    load_average: float  # over the last minute, when the run started
    seed: int
    learning_rate: float
    imitation_decisions: int
    imitation_games: int
    imitation_cpu_seconds: float
    cross_entropy: float  # the warm start's last epoch
    steps: int
    cpu_seconds: float
    wall_seconds: float
    selection_games: int
    selected_win_rate: float
    bytes: int

    @classmethod
    def of(cls, path: Path) -> TrainingRun:
        lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        head, summary = lines[0], lines[-1]
        imitation = next(line["imitation"] for line in lines if "imitation" in line)
        return cls(
            summary["game"],
            summary["trained"],
            head["load_average"][0],
            summary["seed"],
            summary["learning_rate"],
            imitation["decisions"],
            imitation["games"],
            imitation["cpu_seconds"],
            imitation["last_epoch_loss"],
            summary["steps"],
            summary["cpu_seconds"],
            summary["wall_seconds"],
            head["selection_games"],
            summary["selected_win_rate"],
            summary["bytes"],
        )


def training_log(game: str) -> Path:
    return shipped_path(game).with_suffix(".train.jsonl")


def training_runs() -> list[TrainingRun]:
    return [
        TrainingRun.of(training_log(g)) for g in candlebox.game_ids() if training_log(g).is_file()
    ]


def minutes(seconds: float) -> str:
    return f"{seconds / 60:.0f} min"


def training_part(runs: list[TrainingRun]) -> list[str]:
    """The command and the load, then each run's table row."""
    if not runs:
        raise ValueError("no training logs beside the shipped policies")
    seeds = ", ".join(sorted({str(r.seed) for r in runs}))
    rates = ", ".join(sorted({f"{r.learning_rate:g}" for r in runs}))
    loads = sorted(r.load_average for r in runs)
    said = (
        f"Trained {span(r.trained for r in runs)} by `python -m candlebox.rl.train GAME --seed "
        f"{seeds}` (learning rate {rates}), load average over the last minute {loads[0]:.1f}–"
        f"{loads[-1]:.1f} when a run started; each run's log is beside its file, "
        "`candlebox/bots/policies/<game id>.train.jsonl`:"
    )
    lines = [
        *textwrap.wrap(said, WIDTH),
        "",
        "| game | warm start (heuristic's decisions) | its last cross-entropy | PPO steps "
        "| CPU time (of it the warm start's) | on the clock | kept network's selection games won "
        "| file |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in runs:
        lines.append(
            f"| {candlebox.game_info(r.game).title} "
            f"| {r.imitation_decisions:,} ({r.imitation_games:,} games) | {r.cross_entropy:.2f} "
            f"| {r.steps:,} | {minutes(r.cpu_seconds)} ({minutes(r.imitation_cpu_seconds)}) "
            f"| {minutes(r.wall_seconds)} | {r.selected_win_rate:.0%} of {r.selection_games} "
            f"| {r.bytes / 1024:.0f} KB |"
        )
    return lines


@dataclass(frozen=True)
class ImitationRun:
    """What the log beside a file trained by imitation (candlebox.rl.imitation) says of its run."""

    game: str
    players: int
    trained: str
    load_average: float  # over the last minute, when the run started
    seed: int
    decisions: int
    games: int
    epochs: float  # a part of the last one when a time bound stopped it
    cross_entropy: float  # the last epoch's, on the training decisions
    held_out: int
    agreement_before: float  # the untrained network's, on the held-out decisions
    agreement: float
    collect_cpu_seconds: float
    cpu_seconds: float
    wall_seconds: float
    bytes: int
    budget: dict[str, Any]  # the command's bounds, as the log's first line records them
    file: str
    learner: dict[str, Any] | None  # the policy that played the heuristic's seat (DAgger), if any

    @classmethod
    def of(cls, path: Path) -> ImitationRun:
        lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        head, summary = lines[0], lines[-1]
        collected = next(line for line in lines if "collected" in line)
        return cls(
            summary["game"],
            summary["players"],
            summary["trained"],
            head["load_average"][0],
            summary["seed"],
            summary["decisions"],
            summary["games"],
            summary["epochs"],
            summary["last_loss"],
            summary["held_out"]["decisions"],
            summary["held_out"]["agreement_before"],
            summary["held_out"]["agreement"],
            collected["cpu_seconds"],
            summary["cpu_seconds"],
            summary["wall_seconds"],
            summary["bytes"],
            head["budget"],
            summary["out"],
            head.get("learner"),
        )

    @property
    def command(self) -> str:
        """The command that made the file, from its log (the defaults left out)."""
        words = [
            f"python -m candlebox.rl.imitation {self.game} --players {self.players}",
            f"--seed {self.seed}",
            f"--decisions {self.budget['decisions']}",
            f"--epochs {self.budget['epochs']}",
        ]
        for key in ("minutes", "wall_minutes"):
            if self.budget.get(key) is not None:
                words.append(f"--{key.replace('_', '-')} {self.budget[key]:g}")
        memory = self.budget.get("memory_mb")
        if memory is not None and memory != IMITATION_MEMORY_MB:
            words.append(f"--memory-mb {memory}")
        if self.learner is not None:
            words.append(f"--learner first.npz --learner-share {self.learner['share']:g}")
        return " ".join(words)

    @property
    def first(self) -> str:
        """How the learner file of a DAgger run was made (its own meta), or ""."""
        if self.learner is None:
            return ""
        made = self.learner["made_by"]
        before = made.get("learner")
        how = f"with `--learner` (SHA-256 `{before[:12]}…`)" if before else "without `--learner`"
        return (
            f"`first.npz` (SHA-256 `{self.learner['sha256'][:12]}…`) came from a run {how}, "
            f"`--seed {made['seed']}`, that collected {made['decisions']:,} decisions and trained "
            f"{made['epochs']:g} epochs"
        )


# candlebox.rl.imitation's default --memory-mb (its MEMORY, in megabytes); bench/ imports no
# numpy-only module just for it (the --report path must run without numpy).
IMITATION_MEMORY_MB = 1000


def imitation_runs() -> list[ImitationRun]:
    """The runs behind the files for more than 2 players, in the games' order, then by count."""
    logs = [
        shipped_path(game, n).with_suffix(".train.jsonl")
        for game in candlebox.game_ids()
        for n in player_counts(game)
        if n != 2
    ]
    return [ImitationRun.of(log) for log in logs if log.is_file()]


def imitation_part(runs: list[ImitationRun]) -> list[str]:
    """The command, budget and load, then each run's row."""
    if not runs:
        raise ValueError("no imitation logs beside the shipped policies for more than 2 players")
    loads = sorted(r.load_average for r in runs)
    said = (
        f"Trained {span(r.trained for r in runs)} by `python -m candlebox.rl.imitation` (numpy; "
        "each file's command is listed below the table: a time bound, `--minutes` of CPU or "
        "`--wall-minutes` on the clock, is half for collecting the heuristic's decisions and half "
        f"for the training, each part stopping at its half), load average over the last minute "
        f"{loads[0]:.1f}–{loads[-1]:.1f} when a run started; each run's log is beside its file, "
        "`candlebox/bots/policies/<game id>-<n>p.train.jsonl`. Agreement: how often the "
        "network's choice is the heuristic's on the held-out games' decisions (the last tenth), "
        "untrained and trained:"
    )
    lines = [
        *textwrap.wrap(said, WIDTH),
        "",
        "| game | players | heuristic's decisions (games) | epochs | last cross-entropy "
        "| agreement held out | CPU time (of it collecting) | on the clock | file |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in runs:
        lines.append(
            f"| {candlebox.game_info(r.game).title} | {r.players} "
            f"| {r.decisions:,} ({r.games:,} games) | {r.epochs:g} | {r.cross_entropy:.2f} "
            f"| {r.agreement_before:.0%} → **{r.agreement:.0%}** of {r.held_out:,} "
            f"| {r.cpu_seconds:.0f} s ({r.collect_cpu_seconds:.0f} s) "
            f"| {minutes(r.wall_seconds)} | {r.bytes / 1024:.0f} KB |"
        )
    lines += ["", "The command behind each file (its seed fixed):", ""]
    lines += [f"- `{r.file}`: `{r.command}`" + (f"; {r.first}" if r.first else "") for r in runs]
    return lines


def parts(results: Path = RESULTS) -> dict[str, list[str]]:
    """docs/rl.md's generated parts, by name."""
    return {
        "baselines": baselines_part(load(results)),
        "training": training_part(training_runs()),
        "imitation": imitation_part(imitation_runs()),
    }


def documented(text: str, name: str) -> list[str]:
    """The lines of part ``name`` in a document, between its BEGIN and END lines."""
    lines = text.splitlines()
    begin, end = BEGIN.format(name), END.format(name)
    if lines.count(begin) != 1 or lines.count(end) != 1:
        raise ValueError(f"the document needs one line {begin!r} and one line {end!r}")
    first, last = lines.index(begin), lines.index(end)
    if last < first:
        raise ValueError(f"{end!r} comes before {begin!r}")
    return lines[first + 1 : last]


def write_docs(path: Path = DOCS, results: Path = RESULTS) -> None:
    """Replace each generated part of ``path`` with what the files give."""
    text = path.read_text()
    for name in PARTS:
        documented(text, name)  # both marker lines, in order, or a ValueError naming them
    for name, lines in parts(results).items():
        head, rest = text.split(BEGIN.format(name) + "\n")
        _, tail = rest.split(END.format(name))
        text = head + BEGIN.format(name) + "\n" + "\n".join(lines) + "\n" + END.format(name) + tail
    path.write_text(text)


def seat(bot: str, params: str) -> sim.Seat:
    """A bot with parameters written ``key=value,...``, checked as ``candlebox simulate --bots``
    checks them (an unknown bot or parameter stops the script before any game)."""
    pairs = [pair.strip() for pair in params.split(",") if pair.strip()]
    spec = parse_bot(":".join([bot, *pairs]))
    return sim.Seat(spec.name, spec.params, spec.label)


def show(result: dict[str, Any]) -> None:
    cut = "" if result["games"] == result["planned"] else f" (of {result['planned']} planned)"
    print(
        f"{result['game']:<16} {result['players']}p {result['bot']} vs {result['against']:<22} "
        f"{result['win_rate']:6.1%}  [{result['low95']:.1%}, {result['high95']:.1%}]  "
        f"n={result['games']}{cut}  {result['wall_seconds']:.0f} s",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    shipped = [g for g in candlebox.game_ids() if player_counts(g)]
    parser.add_argument("--games", default=",".join(shipped), help="game ids, comma-separated")
    parser.add_argument(
        "--players",
        help="player counts, comma-separated (default: every count with a shipped policy)",
    )
    parser.add_argument("--n-random", type=int, default=200, help="games at 2 players (n: 2/n)")
    parser.add_argument("--n-heuristic", type=int, default=200, help="likewise")
    parser.add_argument("--n-ismcts", type=int, default=100, help="games, at 2 players only")
    parser.add_argument("--easy", default="iterations=50", help="ISMCTS-Easy's parameters")
    parser.add_argument("--policy", default="", help="the policy bot's parameters: key=value,...")
    parser.add_argument("--seed", type=int, default=50_000)
    parser.add_argument("--minutes", type=float, help="stop each match after this long")
    parser.add_argument("--json", type=Path, help="append each match's result here (JSON lines)")
    parser.add_argument(
        "--report", action="store_true", help="print docs/rl.md's tables from the files; no games"
    )
    parser.add_argument(
        "--write-docs", action="store_true", help="write those tables into docs/rl.md; no games"
    )
    parser.add_argument("--results", type=Path, default=RESULTS, help="the results file read")
    args = parser.parse_args()

    if args.report or args.write_docs:
        try:
            if args.write_docs:
                write_docs(DOCS, args.results)
            for name, lines in parts(args.results).items():
                print(f"{BEGIN.format(name)}\n" + "\n".join(lines) + f"\n{END.format(name)}\n")
        except (OSError, ValueError, KeyError) as exc:
            parser.exit(2, f"{parser.prog}: error: {exc}\n")
        return

    try:
        policy = seat("policy", args.policy)
    except CliError as exc:
        parser.error(f"--policy: {str(exc).removeprefix('--bots: ')}")
    try:
        easy = seat("ismcts", args.easy)
    except CliError as exc:
        parser.error(f"--easy: {str(exc).removeprefix('--bots: ')}")
    rivals = [
        (sim.Seat("random"), args.n_random, False),
        (sim.Seat("heuristic"), args.n_heuristic, False),
        (easy, args.n_ismcts, True),
    ]
    tables = tables_asked(parser, args.games, args.players)
    print(f"load average before: {os.getloadavg()}", flush=True)
    for game, players in tables:
        for rival, n, two_only in rivals:
            if n <= 0 or (two_only and players != 2):
                continue
            result = match(
                game, players, policy, rival, planned(n, players), args.seed, args.minutes
            )
            show(result)
            if args.json:
                with args.json.open("a") as handle:
                    handle.write(json.dumps(result) + "\n")
    print(f"load average after: {os.getloadavg()}", flush=True)


def tables_asked(
    parser: argparse.ArgumentParser, games: str, players: str | None
) -> list[tuple[str, int]]:
    """The (game, player count) pairs to play: each asked count must have a shipped policy."""
    tables = []
    for game in games.split(","):
        if game not in candlebox.game_ids():
            parser.error(f"--games: unknown game {game!r}")
        shipped = player_counts(game)
        if players is None:
            tables += [(game, n) for n in shipped]
            continue
        for word in players.split(","):
            if not word.strip().isdigit():
                parser.error(f"--players: {word!r} is not a player count")
            if int(word) not in shipped:
                parser.error(f"--players: no policy ships for {game} with {word} players")
            tables.append((game, int(word)))
    return tables


if __name__ == "__main__":
    main()
