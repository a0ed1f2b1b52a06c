"""Experiments: arms on common seeds (``simulate --vary``), paired differences, Holm's correction,
findings in words, ``--until-ci`` rounds, and the report's arms (HTML and ``--json``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

import candlebox.games.candelabria as candelabria
from candlebox import sim
from candlebox.sim import compare, experiment
from tests.cli.conftest import run

HEURISTIC_VS_WEAK = (sim.Seat("heuristic"), sim.Seat("heuristic", {"epsilon": 0.5}, "weak"))


def arms(
    key: str, values: list[Any], seats: tuple[sim.Seat, ...] = HEURISTIC_VS_WEAK
) -> list[experiment.Arm]:
    return [
        experiment.Arm(
            f"{key}={value}",
            {key: str(value)},
            sim.Plan("candle-quest", 2, None, {key: value}, seats, 0, seed=7),
        )
        for value in values
    ]


def local(work: list[sim.run.Work]) -> list[list[dict[str, Any]]]:
    return sim.run.play_local(work, jobs=1)


def by_arm(rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    found: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        found.setdefault(row["arm"], []).append(row)
    return found


def simulate(tmp_path: Path, name: str, *args: str) -> tuple[dict[str, Any], Path]:
    out = tmp_path / name
    done = run("simulate", "candle-quest", "--seed", "3", "--out", str(out), "--json", *args)
    assert done.exit_code == 0, done.output
    return json.loads(done.stdout), out


# ----------------------------------------------------------------------------- arms and the table
def test_arms_play_the_same_seeds_into_one_table_with_an_arm_column(tmp_path: Path) -> None:
    summary, out = simulate(
        tmp_path, "arms.csv", "-n", "5", "--bots", "heuristic,random", "--vary", "max_turns=20,40"
    )
    header = out.read_text().splitlines()[0].split(",")
    assert header == [*sim.COLUMNS, "arm", "vary_max_turns"]
    rows = sim.read(out)
    arms_found = by_arm(rows)
    assert list(arms_found) == ["max_turns=20", "max_turns=40"]
    short, long = arms_found.values()
    assert [r["seed"] for r in short] == [r["seed"] for r in long] == [3, 4, 5, 6, 7]
    assert {r["options"]["max_turns"] for r in short} == {20}
    assert {r["vary"]["max_turns"] for r in long} == {"40"}
    # The same seed is the same deal: the start-player draw agrees in both arms.
    assert [r["first_player"] for r in short] == [r["first_player"] for r in long]
    assert [a["arm"] for a in summary["arms"]] == ["max_turns=20", "max_turns=40"]
    assert summary["baseline"] == "max_turns=20" and summary["correction"] == "Holm"
    assert all("ci" in d and len(d["ci"]) == 2 for d in summary["differences"])


def test_an_arm_plays_what_a_plain_run_plays() -> None:
    plan = sim.Plan("candle-quest", 2, None, {"max_turns": 30}, HEURISTIC_VS_WEAK, 4, seed=7)
    found = experiment.run(
        [experiment.Arm("max_turns=30", {"max_turns": "30"}, plan)], 4, local
    ).rows
    plain = sim.run_local(plan)
    assert [{k: v for k, v in r.items() if k not in ("arm", "vary")} for r in found] == plain
    assert {r["arm"] for r in found} == {"max_turns=30"}


def test_a_grid_of_two_varies(tmp_path: Path) -> None:
    summary, out = simulate(
        tmp_path,
        "grid.csv",
        "-n",
        "3",
        "--vary",
        "max_turns=20,40",
        "--vary",
        "bots=heuristic,random|random,heuristic",
    )
    names = [a["arm"] for a in summary["arms"]]
    assert names == [
        "max_turns=20 · bots=heuristic,random",
        "max_turns=20 · bots=random,heuristic",
        "max_turns=40 · bots=heuristic,random",
        "max_turns=40 · bots=random,heuristic",
    ]
    rows = sim.read(out)
    assert out.read_text().splitlines()[0].endswith("arm,vary_max_turns,vary_bots")
    assert len(rows) == 12
    assert {tuple(r["bots"]) for r in rows if r["vary"]["bots"] == "random,heuristic"} == {
        ("random", "heuristic")
    }
    assert {d["arm"] for d in summary["differences"]} == set(names[1:])


def test_table_round_trip_keeps_the_arms(tmp_path: Path) -> None:
    rows = experiment.run(arms("max_turns", [20, 30]), 2, local).rows
    sim.write(rows, tmp_path / "t.csv")
    assert sim.read(tmp_path / "t.csv") == rows


@pytest.mark.parametrize(
    ("vary", "message"),
    [
        ("nosuch=1,2", "--vary nosuch=1: candle-quest (basic) has no option 'nosuch'"),
        ("max_turns=20,many", "--vary max_turns=many: "),
        ("bots=heuristic|nosuchbot", "--vary bots=nosuchbot: unknown bot 'nosuchbot'"),
        ("max_turns=20", "--vary max_turns: give two or more values"),
        ("max_turns=20,20", "--vary max_turns: a value is given twice"),
        ("bank", "--vary takes KEY=A,B"),
    ],
)
def test_a_bad_arm_is_a_one_line_error_before_any_game(
    vary: str, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_game(*args: Any) -> None:
        raise AssertionError("a game was played before every arm was checked")

    monkeypatch.setattr(sim.run, "play", no_game)
    done = run("simulate", "candle-quest", "-n", "2", "--vary", vary)
    assert done.exit_code == 2, done.output
    assert message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_vary_and_option_of_one_key_and_until_without_vary_are_refused() -> None:
    both = run("simulate", "candle-quest", "-o", "max_turns=5", "--vary", "max_turns=20,40")
    assert both.exit_code == 2 and "both set it" in both.stderr
    alone = run("simulate", "candle-quest", "--until-ci", "0.1")
    assert alone.exit_code == 2 and "give --vary too" in alone.stderr


# ----------------------------------------------------------------------------- the statistics
def test_holm_on_a_known_example() -> None:
    # Sorted: 0.005×4 = 0.02, 0.01×3 = 0.03, 0.03×2 = 0.06, 0.04×1 = 0.04 → kept monotone: 0.06.
    assert compare.holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert compare.holm([0.5]) == [0.5]
    assert compare.holm([0.3, 0.6]) == pytest.approx([0.6, 0.6])


def test_a_paired_interval_is_narrower_than_the_unpaired_one_on_the_same_games() -> None:
    rows = experiment.run(arms("max_turns", [25, 60]), 40, local).rows
    found = {(d.key.measure, d.key.group): d for d in compare.arm_differences(by_arm(rows))}
    first = found[(compare.WIN, "place 0")]
    assert first.pairs == 40
    paired = first.high - first.low
    unpaired = first.unpaired_high - first.unpaired_low
    assert paired < 0.5 * unpaired, (paired, unpaired)
    # Both are centred on the same difference of the same games.
    assert (first.low + first.high) / 2 == pytest.approx(
        (first.unpaired_low + first.unpaired_high) / 2
    )


def test_sentences_for_a_planted_difference_and_none_for_noise(tmp_path: Path) -> None:
    planted, _ = simulate(
        tmp_path, "planted.csv", "-n", "20", "--vary", "bots=heuristic,random|random,random"
    )
    assert any(
        sentence.startswith("bots=random,random: Seat 0 wins") and "points less" in sentence
        for sentence in planted["findings"]
    ), planted["findings"]
    # No game of 30-odd turns reaches 500 turns: the arms play the same games, nothing differs.
    noop, _ = simulate(
        tmp_path,
        "noop.csv",
        "-n",
        "20",
        "--bots",
        "heuristic,random",
        "--vary",
        "max_turns=500,1000",
    )
    assert noop["findings"] == []
    assert noop["differences"] and not any(d["significant"] for d in noop["differences"])


def test_one_arm_findings_name_the_strong_bot_and_not_the_noise() -> None:
    seats = (sim.Seat("heuristic"), sim.Seat("random"))
    rows = sim.run_local(
        sim.Plan("candle-quest", 2, None, {"max_turns": 60}, seats, 30, rotate=True)
    )
    found = compare.groups(rows)
    sentences = [compare.group_sentence(g, 2) for g in found if g.significant]
    assert any(
        s.startswith("heuristic wins") and s.endswith("where 50% is even: strong.")
        for s in sentences
    )
    assert any(s.startswith("random wins") and s.endswith(": weak.") for s in sentences)
    # Rotated line-ups: seats and places are even within noise, so no sentence names them.
    assert not any(s.startswith(("Seat", "The first player")) for s in sentences), sentences


# ----------------------------------------------------------------------------- --until-ci
def test_until_ci_plays_rounds_until_the_intervals_are_narrow() -> None:
    rule = experiment.UntilNarrow(0.2, 400)
    done = experiment.run(arms("max_turns", [25, 60]), 10, local, rule)
    assert len(done.rounds) >= 2 and done.rounds[0] == 10
    assert done.widest <= 0.2
    rows = by_arm(done.rows)
    assert [len(r) for r in rows.values()] == [done.rounds[-1]] * 2
    assert compare.widest(compare.arm_differences(rows)) == done.widest
    # One round fewer would not have been narrow enough.
    fewer = {
        name: [r for r in found if r["seed"] < 7 + done.rounds[-2]] for name, found in rows.items()
    }
    assert compare.widest(compare.arm_differences(fewer)) > 0.2
    assert "within ±20 points on at least 30 pairs, at most 400 games per arm" in done.stopping
    assert done.stopping.endswith("every interval within ±20 points")


def test_until_ci_stops_at_the_maximum_and_says_so(tmp_path: Path) -> None:
    summary, out = simulate(
        tmp_path,
        "capped.csv",
        "-n",
        "6",
        "--bots",
        "heuristic,random",
        "--vary",
        "max_turns=25,60",
        "--until-ci",
        "0.01",
        "--max-games",
        "14",
    )
    assert summary["rounds"][-1] == 14
    assert "the maximum reached" in summary["stopping"]
    rows = sim.read(out)
    assert len(rows) == 28 and {r["stopping"] for r in rows} == {summary["stopping"]}
    page = sim.build_report(rows, tmp_path / "report", [str(out)], plots=False).read_text()
    assert "Stopping rule:" in page and "at most 14 games per arm" in page


# ----------------------------------------------------------------------------- the report
def test_the_report_shows_the_arms_side_by_side_and_their_differences(tmp_path: Path) -> None:
    _, out = simulate(
        tmp_path, "r.csv", "-n", "12", "--vary", "bots=heuristic,random|random,random"
    )
    # Plots are left out for speed (tests/sim/test_report.py checks them).
    page = sim.build_report(sim.read(out), tmp_path / "report", [str(out)], plots=False).read_text()
    for text in (
        "experiment: 2 arms",
        "The arms side by side",
        "Differences from the baseline",
        "paired 95%",
        "unpaired 95%",
        "p (Holm)",
        "arm bots=random,random",
        "Findings",
    ):
        assert text in page, text
    figures = json.loads(run("report", str(out), "--json").stdout)
    assert [a["arm"] for a in figures["arms"]] == ["bots=heuristic,random", "bots=random,random"]
    assert figures["correction"] == "Holm"
    seat0 = next(
        d for d in figures["differences"] if d["group"] == "seat 0" and d["measure"] == "win rate"
    )
    low, high = seat0["ci"]
    assert low <= seat0["difference"] <= high < 0
    assert seat0["significant"] and seat0["finding"].startswith("bots=random,random: Seat 0 wins")


def test_processes_do_not_change_an_experiment(tmp_path: Path) -> None:
    args = ["-n", "6", "--bots", "heuristic,random", "--vary", "max_turns=20,40"]
    one, one_out = simulate(tmp_path, "one.csv", *args, "--jobs", "1")
    two, two_out = simulate(tmp_path, "two.csv", *args, "--jobs", "2")
    assert one_out.read_text() == two_out.read_text()
    assert one == two


def test_content_packs_are_arms(tmp_path: Path) -> None:
    shipped = Path(candelabria.__file__).parent / "content"
    packs = [shutil.copytree(shipped, tmp_path / name) for name in ("a", "b")]
    done = run(
        "simulate",
        "candelabria",
        "-p",
        "3",
        "-n",
        "2",
        "--bots",
        "heuristic",
        "--out",
        str(tmp_path / "packs.csv"),
        "--json",
        "--vary",
        f"content={packs[0]},{packs[1]}",
    )
    assert done.exit_code == 0, done.output
    first, second = by_arm(sim.read(tmp_path / "packs.csv")).values()
    assert [r["options"]["content"] for r in first] == [str(packs[0])] * 2

    # The same pack under two names plays the same games, seed by seed.
    def same(row: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in row.items() if k not in ("arm", "vary", "options")}

    assert [same(r) for r in first] == [same(r) for r in second]
    assert json.loads(done.stdout)["findings"] == []
    missing = run(
        "simulate", "candelabria", "-p", "3", "--vary", f"content={packs[0]},{tmp_path / 'none'}"
    )
    assert missing.exit_code == 2
    assert f"--vary arm content={tmp_path / 'none'}: content folder" in missing.stderr


def test_report_arms_makes_each_table_an_arm(tmp_path: Path) -> None:
    for name, bots in (("base", "heuristic,random"), ("weaker", "random,random")):
        done = run(
            "simulate",
            "candle-quest",
            "-n",
            "20",
            "--bots",
            bots,
            "--out",
            str(tmp_path / f"{name}.csv"),
            "--json",
        )
        assert done.exit_code == 0, done.output
    tables = [str(tmp_path / "base.csv"), str(tmp_path / "weaker.csv")]
    pooled = json.loads(run("report", *tables, "--json").stdout)
    assert [a["arm"] for a in pooled["arms"]] == [""] and pooled["differences"] == []
    figures = json.loads(run("report", *tables, "--arms", "--json").stdout)
    assert [a["arm"] for a in figures["arms"]] == ["base", "weaker"]
    seat0 = next(d for d in figures["differences"] if d["group"] == "seat 0")
    assert seat0["pairs"] == 20 and seat0["significant"]
    assert seat0["finding"].startswith("weaker: Seat 0 wins")
    again = run("report", str(tmp_path / "base.csv"), "--arms", "--json")
    assert again.exit_code == 0
    experiment_table = tmp_path / "x.csv"
    sim.write(experiment.run(arms("max_turns", [20, 30]), 2, local).rows, experiment_table)
    refused = run("report", str(experiment_table), "--arms")
    assert refused.exit_code == 2 and "already an experiment's table" in refused.stderr
