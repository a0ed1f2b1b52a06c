"""``candlebox simulate``: the JSON summary, its arithmetic, and determinism."""

from __future__ import annotations

import json

import pytest

from tests.cli.conftest import run

QUICK = ["-o", "max_turns=40"]
KEYS = {
    "game",
    "variant",
    "players",
    "games",
    "seed",
    "bots",
    "wins_by_seat",
    "win_rate_by_seat",
    "win_rate_by_bot",
    "mean_steps",
    "mean_turns",
    "truncated",
    "mean_score_by_seat",
}


def summary(*args: str) -> dict:
    result = run("simulate", "candle-quest", *args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_json_summary_fields() -> None:
    data = summary("-n", "8", "-p", "3", "--bots", "heuristic", "--seed", "4", *QUICK)
    assert set(data) >= KEYS
    assert data["game"] == "candle-quest" and data["variant"] == "basic"
    assert data["players"] == 3 and data["games"] == 8 and data["seed"] == 4
    assert data["bots"] == ["heuristic"] * 3
    assert len(data["wins_by_seat"]) == len(data["win_rate_by_seat"]) == 3
    assert len(data["mean_score_by_seat"]) == 3
    assert 0 < data["mean_turns"] <= 40
    assert data["mean_turns"] <= data["mean_steps"]
    assert 0 <= data["truncated"] <= 8


def test_win_rates_add_up() -> None:
    data = summary("-n", "10", "--bots", "random,heuristic", *QUICK)
    # Every Candle Quest game has a winner, and a shared win is split, so the seat rates add to 1.
    assert sum(data["win_rate_by_seat"]) == pytest.approx(1.0)
    assert sum(data["wins_by_seat"]) == pytest.approx(10)
    assert data["win_rate_by_bot"] == pytest.approx(
        {"random": data["win_rate_by_seat"][0], "heuristic": data["win_rate_by_seat"][1]}
    )


def test_one_bot_in_several_seats_is_averaged_per_seat() -> None:
    data = summary("-n", "6", "-p", "3", "--bots", "random,random,heuristic", *QUICK)
    rates = data["win_rate_by_seat"]
    assert data["win_rate_by_bot"]["random"] == pytest.approx((rates[0] + rates[1]) / 2)


def test_same_seed_same_summary() -> None:
    args = ("-n", "5", "--bots", "random", "--seed", "7", *QUICK)
    assert summary(*args) == summary(*args)


def test_truncated_games_are_counted() -> None:
    data = summary("-n", "3", "--bots", "random", "-o", "max_turns=5")
    assert data["truncated"] == 3
    assert data["mean_turns"] == 5
    assert data["end_reasons"] == {"max-turns": 3}


def test_table_output() -> None:
    result = run("simulate", "candle-quest", "-n", "3", "--bots", "heuristic,random", *QUICK)
    assert result.exit_code == 0, result.output
    for text in ("win rate", "heuristic", "mean length", "truncated"):
        assert text in result.stdout
