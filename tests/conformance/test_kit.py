"""The conformance kit itself (``candlebox.testing``, ``candlebox check``): it checks a game registered
after import (a plug-in's) from its id alone, passes a sound one, and names what is wrong in a broken
one — a resample that leaks, a failing invariant — with a non-zero exit at the terminal."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest
from typer.testing import CliRunner

from candlebox import testing
from candlebox.cli import app
from candlebox.engine import Capabilities, Lazy, State, register, unregister
from candlebox.engine.plugin import Conformance

pytest.importorskip("numpy", reason="the test game's encoder needs numpy (the rl extra)")

from tests.rl import secret_game

GAME = secret_game.GAME_ID
SOUND_RESAMPLE = secret_game.SecretState._resample


def past_round_two(state: State) -> None:
    assert state.to_json()["state"]["round"] < 2, "the game went past round 2"


STRICT = Conformance(invariant=past_round_two)


@pytest.fixture
def secret_numbers() -> Iterator[str]:
    secret_game.register_game()
    try:
        yield GAME
    finally:
        secret_game.unregister_game()


@pytest.fixture
def strict_numbers() -> Iterator[str]:
    """The test game with an invariant it breaks (three rounds, where the invariant allows two)."""
    capabilities = Capabilities(
        encoding=Lazy("tests.rl.secret_game", "ENCODING"),
        conformance=STRICT,
    )
    register(dataclasses.replace(secret_game.INFO, capabilities=capabilities))
    try:
        yield GAME
    finally:
        unregister(GAME)


def leaky_resample(self: Any, seat: int, seed: int) -> State:
    """A resample that deals the seat's own pick anew too: a world the seat can tell apart."""
    twin = SOUND_RESAMPLE(self, seat, seed)
    assert isinstance(twin, secret_game.SecretState)
    if twin.picks[seat]:
        twin.picks[seat] = 1 + twin.picks[seat] % 3
    return twin


def failures(report: testing.Report) -> list[str]:
    return [
        f"{o.case.part}: {o.case.name}: {o.detail}" for o in report.outcomes if o.status == "failed"
    ]


def test_a_sound_game_registered_after_import_passes(secret_numbers: str) -> None:
    report = testing.check(secret_numbers)
    assert report.ok, failures(report)
    passed = {o.case.part for o in report.outcomes if o.status == "passed"}
    assert {"contract", "terminal", "standings", "encoder"} <= passed
    skipped = {o.case.part: o.detail for o in report.outcomes if o.status == "skipped"}
    assert "no typed view" in skipped["views"] and "no perft counts" in skipped["perft"]


def test_a_resample_that_leaks_is_named(
    secret_numbers: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(secret_game.SecretState, "_resample", leaky_resample)
    report = testing.check(secret_numbers, parts=["contract"], quick=True)
    assert not report.ok
    assert any("resample keeps the seat's view" in line for line in failures(report))


def test_a_broken_invariant_is_named(strict_numbers: str) -> None:
    report = testing.check(strict_numbers, parts=["contract"], quick=True)
    assert not report.ok
    assert all("the game went past round 2" in line for line in failures(report))
    assert "FAILS" in report.summary()


def test_candlebox_check_reports_and_exits_non_zero_on_a_failure(
    secret_numbers: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = CliRunner()
    passed = runner.invoke(app, ["check", secret_numbers, "--part", "contract", "--quick"])
    assert passed.exit_code == 0, passed.output
    assert "ok contract: random standard-2p" in passed.output
    assert "secret-numbers passes the conformance kit" in passed.output
    monkeypatch.setattr(secret_game.SecretState, "_resample", leaky_resample)
    failed = runner.invoke(app, ["check", secret_numbers, "--part", "contract", "--quick"])
    assert failed.exit_code == 1, failed.output
    assert "FAILED contract: random standard-2p" in failed.output
    assert "resample keeps the seat's view" in failed.output
    assert "secret-numbers FAILS the conformance kit" in failed.output


def test_an_unknown_game_or_part_is_refused_by_name() -> None:
    runner = CliRunner()
    unknown = runner.invoke(app, ["check", "chess"])
    assert unknown.exit_code == 2 and "unknown game 'chess'" in unknown.output, unknown.output
    bad_part = runner.invoke(app, ["check", "candle-quest", "--part", "everything"])
    assert bad_part.exit_code == 2 and "unknown part 'everything'" in bad_part.output
    with pytest.raises(ValueError, match="unknown part 'everything'; parts: contract, words"):
        testing.cases("candle-quest", parts=["everything"])
