"""Nothing falls out of CI unseen: every collected test runs in the README's test command (pyproject's
addopts: ``-m 'not slow and not ...'``) or in .ci/run's second step (``-m 'browser_games or ...'``).
A marker the README's command leaves out but the second step does not pick up fails here, naming
the tests it would have dropped. The one exception is ``slow`` (long fuzzing and timing runs, by
hand: ``python -m pytest -m slow``, README's Development section)."""

from __future__ import annotations

import shlex
import tomllib
from collections.abc import Iterable
from itertools import pairwise
from pathlib import Path

import pytest
from _pytest.mark.expression import Expression

from tests.conftest import DESELECTED

ROOT = Path(__file__).resolve().parents[2]
BY_HAND = "slow"  # run by hand only, and said so in the README


def marker_option(words: list[str]) -> str:
    """The value of a pytest command's ``-m`` (pytest's own, not ``python -m pytest``'s)."""
    if "pytest" in words:
        words = words[words.index("pytest") + 1 :]
    found = [value for option, value in pairwise(words) if option == "-m"]
    assert found, f"no -m in {shlex.join(words)}"
    return found[-1]


def pyproject() -> dict[str, object]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def readme_run() -> str:
    """The markers expression of the README's test command (pyproject.toml's addopts)."""
    options = pyproject()["tool"]["pytest"]["ini_options"]  # type: ignore[index]
    return marker_option(shlex.split(options["addopts"]))


def second_step() -> str:
    """The markers expression of .ci/run's second step (its pytest command that has ``-m``)."""
    for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines():
        words = shlex.split(line, comments=True)
        if "pytest" in words and "-m" in words[words.index("pytest") + 1 :]:
            return marker_option(words)
    raise AssertionError(".ci/run has no pytest command with -m")


def selects(expression: str, marks: set[str]) -> bool:
    return Expression.compile(expression).evaluate(lambda name, /, **_: name in marks)


def left_out(tests: Iterable[tuple[str, set[str]]], readme: str, ci: str) -> list[str]:
    """The tests (name, marker names) that neither CI step runs, by hand-only ones apart."""
    return [
        name
        for name, marks in tests
        if not selects(readme, marks) and not selects(ci, marks) and BY_HAND not in marks
    ]


def test_every_collected_test_runs_in_one_of_cis_steps(request: pytest.FixtureRequest) -> None:
    items = [*request.session.items, *request.config.stash.get(DESELECTED, [])]
    tests = [(item.nodeid, {mark.name for mark in item.iter_markers()}) for item in items]
    dropped = left_out(tests, readme_run(), second_step())
    assert not dropped, f"in neither the README's run nor .ci/run's second step: {dropped[:20]}"


def test_a_marker_only_the_readme_run_leaves_out_is_named() -> None:
    """The check itself: a marker left out of the README's run and missing from the second step."""
    readme, ci = "not slow and not deep and not heavy", "deep"
    tests = [("a", set()), ("b", {"deep"}), ("c", {"heavy"}), ("d", {"slow"}), ("e", {"x"})]
    assert left_out(tests, readme, ci) == ["c"]


def test_the_steps_name_only_registered_markers() -> None:
    options = pyproject()["tool"]["pytest"]["ini_options"]  # type: ignore[index]
    registered = {line.split(":")[0] for line in options["markers"]}
    for expression in (readme_run(), second_step()):
        words = set(expression.replace("(", " ").replace(")", " ").split())
        assert words - {"and", "or", "not"} <= registered, expression


def test_the_readme_says_how_to_run_the_tests_left_to_hand() -> None:
    assert f"python -m pytest -m {BY_HAND}" in (ROOT / "README.md").read_text(encoding="utf-8")
