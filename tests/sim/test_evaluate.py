"""An outside agent against the levels: ``candlebox evaluate`` and ``candlebox.sim.evaluate``."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from candlebox.cli import app
from candlebox.sim import evaluate as harness
from candlebox.sim.stats import wilson
from tests.sim import evaluate_agents

SHORT = {"max_turns": 20}


def test_the_agent_sits_in_every_seat_in_turn() -> None:
    agent = evaluate_agents.FirstLegal()
    harness.evaluate("candle-quest", lambda: agent, 3, 1, ["beginner"], options=SHORT)
    assert set(agent.seats) == {0}  # game 0: seat 0
    agent.seats.clear()
    found = harness.evaluate("candle-quest", lambda: agent, 3, 3, ["beginner"], options=SHORT)
    assert set(agent.seats) == {0, 1, 2}
    assert [record.games for record in found.levels] == [3]


def test_each_level_gets_its_games_and_a_wilson_interval() -> None:
    found = harness.evaluate(
        "candle-quest", "tests.sim.evaluate_agents:heuristic", 2, 12, ["beginner", "medium"]
    )
    assert [record.level for record in found.levels] == ["beginner", "medium"]
    assert [record.bot for record in found.levels] == ["random", "heuristic"]
    beginner, medium = found.levels
    for record in found.levels:
        assert record.games == 12 and 0 <= record.wins <= 12
        assert record.rate == wilson(record.wins, 12)
    # the heuristic beats random play; against itself it is no longer ahead by as much
    assert beginner.rate.low > 0.5
    assert medium.wins < beginner.wins
    again = harness.evaluate(
        "candle-quest", evaluate_agents.heuristic, 2, 12, ["beginner", "medium"]
    )
    assert [r.wins for r in again.levels] == [r.wins for r in found.levels]  # seeded: the same
    data = found.to_json()
    assert data["fair_share"] == 0.5 and data["levels"][0]["low95"] == beginner.rate.low


@pytest.mark.parametrize(
    "agent,message",
    [
        ("evaluate_agents", "MODULE:FACTORY"),
        ("tests.sim.no_such_module:make", "cannot be imported"),
        ("tests.sim.evaluate_agents:missing", "no callable 'missing'"),
        ("tests.sim.evaluate_agents:NOT_A_FACTORY", "no callable 'NOT_A_FACTORY'"),
        ("tests.sim.evaluate_agents:no_choose", "has no choose"),
        ("tests.sim.evaluate_agents:Cheater", "'take every candle' in seat 0, not a legal"),
    ],
)
def test_a_bad_agent_is_refused_naming_what_is_wrong(agent: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        harness.evaluate("candle-quest", agent, 2, 1, ["beginner"], options=SHORT)


def test_a_bad_table_or_level_is_refused_before_the_agent_is_made() -> None:
    made = []
    with pytest.raises(ValueError, match="players"):
        harness.evaluate("sixteen-candies", lambda: made.append(1), 9, 1)
    with pytest.raises(ValueError, match="the level is one of"):
        harness.evaluate("candle-quest", lambda: made.append(1), 2, 1, ["grandmaster"])
    with pytest.raises(ValueError, match="games is a whole number"):
        harness.evaluate("candle-quest", lambda: made.append(1), 2, 0)
    assert made == []


def test_the_command_prints_a_table_or_json() -> None:
    runner = CliRunner()
    common = ["evaluate", "candle-quest", "--agent", "tests.sim.evaluate_agents:first_legal"]
    common += ["--players", "3", "--games", "3", "--levels", "beginner,easy", "-o", "max_turns=20"]
    result = runner.invoke(app, [*common, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["players"] == 3 and data["agent"] == "tests.sim.evaluate_agents:first_legal"
    assert [level["level"] for level in data["levels"]] == ["beginner", "easy"]
    assert [level["games"] for level in data["levels"]] == [3, 3]
    table = runner.invoke(app, common)
    assert table.exit_code == 0, table.output
    assert "beginner" in table.stdout and "95% interval" in table.stdout
    assert table.stdout.startswith("tests.sim.evaluate_agents:first_legal in candle-quest")
    bad = runner.invoke(app, [*common[:2], "--agent", "nowhere_at_all:make"])
    assert bad.exit_code == 2
    assert "agent module 'nowhere_at_all' cannot be imported" in bad.output
