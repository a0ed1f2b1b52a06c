"""bench/strength.py (issue 16's strength tables): a row's file gains one line per finished game, a
rerun plays only the seeds it lacks, and the report's shares and verdicts follow from the lines."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import candlebox
from candlebox import sim

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "strength.py"


@pytest.fixture
def strength(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    # Imported by name from bench/ (as the script imports itself in its worker processes, which
    # start with this process's sys.path).
    monkeypatch.syspath_prepend(str(SCRIPT.parent))
    return importlib.import_module(SCRIPT.stem)


def tuned_game(strength: ModuleType) -> str:
    """A game whose search has hooks, at 2 players (the cross-check needs one)."""
    return next(
        game
        for game in candlebox.game_ids()
        if strength.has_hooks(game) and 2 in strength.player_counts(game)
    )


def small_row(strength: ModuleType, kind: str, target: int) -> Any:
    game = tuned_game(strength)
    info = candlebox.game_info(game)
    seats = (strength.ismcts(3), strength.ismcts(3, hooks="generic"))
    return strength.Row(kind, game, str(info.default_variant(2)), 2, seats, target, 900)


def test_a_rerun_plays_only_the_missing_seeds(
    strength: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(strength, "RESULTS", tmp_path)
    row = small_row(strength, "cross", 2)
    strength.run([row], jobs=1, until=None)
    first = strength.played(row.path)
    assert sorted(line["seed"] for line in first) == [900, 901]
    longer = small_row(strength, "cross", 3)
    strength.run([longer], jobs=1, until=None)
    lines = strength.played(longer.path)
    assert lines[:2] == first  # kept as they were, not played again
    assert sorted(line["seed"] for line in lines) == [900, 901, 902]
    for line in lines:
        # The line-up rotates: game i moves it i seats on.
        shift = line["seed"] - 900
        assert line["bots"] == [row.seats[(s + shift) % 2].shown for s in range(2)]
        assert set(line["order"]) == {0, 1}
        assert line["winners"] == [] or line["order"][0] in line["winners"]
        for tally in line["ismcts"]:
            assert tally["iterations"] == 3 * tally["decisions"]
            assert tally["cpu_seconds"] >= 0
    # A line cut short by a crash is skipped, not fatal.
    with longer.path.open("a") as handle:
        handle.write('{"seed": 9')
    assert len(strength.played(longer.path)) == 3


def test_the_report_follows_from_the_lines(
    strength: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(strength, "RESULTS", tmp_path)
    ours = strength.ismcts(3)
    seats = (ours,) + (sim.Seat("heuristic"),) * 3
    row = strength.Row("largest", tuned_game(strength), "standard", 4, seats, 40, 0)

    def line(seed: int, winner: int, ours_at: int) -> dict[str, Any]:
        bots = ["heuristic"] * 4
        bots[ours_at] = ours.shown
        tally = {"bot": ours.shown, "decisions": 10, "cpu_seconds": 5.0, "iterations": 30}
        return {
            "seed": seed,
            "players": 4,
            "bots": bots,
            "winners": [winner],
            "ismcts": [tally],
            "cpu_seconds": 9.0,
        }

    # The ISMCTS seat wins 16 of 20 games: 80%, each heuristic seat 4 of 20 / 3 (6.7%), its interval
    # following from ISMCTS's.
    lines = [line(seed, seed % 4 if seed < 16 else (seed + 1) % 4, seed % 4) for seed in range(20)]
    row.path.write_text("".join(json.dumps(entry) + "\n" for entry in lines))
    summary = strength.summarise(row)
    assert summary.games == 20 and summary.target == 40
    assert summary.measured == sim.stats.wilson(16, 20).text()
    ours_rate = sim.stats.wilson(16, 20)
    assert (
        summary.others
        == f"{4 / 60:.1%} [{(1 - ours_rate.high) / 3:.1%}, {(1 - ours_rate.low) / 3:.1%}]"
    )
    assert summary.verdict == "best seat: shown (short of the target by 20 games)"
    assert summary.cpu_per_decision == pytest.approx(0.5)
    assert summary.cpu_hours_missing == pytest.approx(20 * 9.0 / 3600)
    # Losing every game: not the best seat.
    lost = [line(seed, (seed + 1) % 4, seed % 4) for seed in range(20)]
    row.path.write_text("".join(json.dumps(entry) + "\n" for entry in lost))
    assert strength.summarise(row).verdict.startswith("not the best seat: shown (short")
    # Too few games to tell either way.
    row.path.write_text("".join(json.dumps(entry) + "\n" for entry in lost[:1]))
    assert strength.summarise(row).verdict.startswith("not the best seat: point estimate only")


@pytest.mark.parametrize(
    ("wins", "verdict"),
    [
        (17, "ahead of the {}: shown"),
        (12, "ahead of the {}: point estimate only"),
        (10, "not ahead of the {} (within the interval of even)"),
        (3, "behind the {}: shown"),
    ],
)
@pytest.mark.parametrize(
    ("kind", "other", "name"),
    [
        ("cross", {"hooks": "generic"}, "generic search"),
        ("rollouts", {"rollout": "random"}, "random-rollout search"),
    ],
)
def test_a_cross_check_asks_whether_the_game_search_wins_more_than_half(
    strength: ModuleType,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    wins: int,
    verdict: str,
    kind: str,
    other: dict[str, str],
    name: str,
) -> None:
    """Against another search the question is more than half, not the heuristic rows' 65%: 17
    of 20 (85% [64%, 95%]) shows it, 12 of 20 is a point estimate, 3 of 20 shows the contrary."""
    monkeypatch.setattr(strength, "RESULTS", tmp_path)
    ours, rival = strength.ismcts(3), strength.ismcts(5, **other)
    row = strength.Row(kind, tuned_game(strength), "standard", 2, (ours, rival), 20, 0)
    lines = []
    for seed in range(20):
        bots = [ours.shown, rival.shown] if seed % 2 == 0 else [rival.shown, ours.shown]
        at = bots.index(ours.shown)
        tallies = [
            {"bot": bot, "decisions": 10, "cpu_seconds": 5.0, "iterations": 30} for bot in bots
        ]
        winner = at if seed < wins else 1 - at
        lines.append(
            {"seed": seed, "players": 2, "bots": bots, "winners": [winner], "ismcts": tallies,
             "cpu_seconds": 10.0}
        )  # fmt: skip
    row.path.write_text("".join(json.dumps(entry) + "\n" for entry in lines))
    assert strength.summarise(row).verdict == verdict.format(name)


def test_a_rollouts_row_gives_each_search_its_own_budget(
    strength: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The random-rollout searcher is cheaper per iteration: it gets its own measured 1 s count
    (budget.json's "2:rollout=random"), and once the row has games, the count they were played at."""
    monkeypatch.setattr(strength, "RESULTS", tmp_path)
    monkeypatch.setattr(strength, "BUDGET", tmp_path / "budget.json")
    game = tuned_game(strength)
    budgets = {"2": {"iterations": 600}, "2:rollout=random": {"iterations": 2600}}
    (tmp_path / "budget.json").write_text(json.dumps({"games": {game: budgets}}))
    (row,) = strength.rows_for(game, ["rollouts"])
    assert [seat.shown for seat in row.seats] == [
        "ismcts:iterations=600",
        "ismcts:iterations=2600:rollout=random",
    ]
    assert row.seats[1].params == {"iterations": 2600, "rollout": "random"}
    # A file already played at other counts keeps them, whatever budget.json now says.
    tallies = [
        {"bot": "ismcts:iterations=2000:rollout=random", "iterations_per_decision_budget": 2000},
        {"bot": "ismcts:iterations=500", "iterations_per_decision_budget": 500},
    ]
    row.path.write_text(json.dumps({"seed": 800_001, "ismcts": tallies}) + "\n")
    (again,) = strength.rows_for(game, ["rollouts"])
    assert [seat.params["iterations"] for seat in again.seats] == [500, 2000]
    # No measured count: the script says which to measure instead of guessing.
    (tmp_path / "budget.json").write_text(json.dumps({"games": {game: {"2": budgets["2"]}}}))
    row.path.unlink()
    with pytest.raises(SystemExit, match="--rollout random"):
        strength.rows_for(game, ["rollouts"])
