"""pyproject.toml's invariants: every requirement of an extra has an upper bound (a new release of a
dependency cannot break an install), each requirement sits in one place (an extra needing another's
names it as ``candlebox[...]``), the version is written once, and every extra an install command in
the repository names exists."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement

import candlebox

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _requirements() -> dict[str, list[Requirement]]:
    """Each group's requirements: the dependencies and every extra, by the extra's name."""
    project: dict[str, Any] = PROJECT["project"]
    groups = {"dependencies": project["dependencies"], **project["optional-dependencies"]}
    return {name: [Requirement(text) for text in texts] for name, texts in groups.items()}


def _self(requirement: Requirement) -> bool:
    return requirement.name == PROJECT["project"]["name"]


def test_every_requirement_has_an_upper_bound() -> None:
    unbounded = [
        f"{group}: {requirement}"
        for group, found in _requirements().items()
        for requirement in found
        if not _self(requirement)
        and not any(spec.operator == "<" for spec in requirement.specifier)
    ]
    assert not unbounded, f"no '<' bound (a range, never a pin): {unbounded}"


def test_no_requirement_sits_in_two_groups() -> None:
    groups: dict[str, list[str]] = {}
    for group, found in _requirements().items():
        for requirement in found:
            if not _self(requirement):
                groups.setdefault(requirement.name.lower().replace("_", "-"), []).append(group)
    twice = {name: places for name, places in groups.items() if len(places) > 1}
    assert not twice, f"name the other extra as candlebox[...] instead: {twice}"


def test_an_extra_names_only_extras_that_exist() -> None:
    extras = set(PROJECT["project"]["optional-dependencies"])
    for group, found in _requirements().items():
        for requirement in found:
            if _self(requirement):
                assert requirement.extras <= extras, f"{group}: {requirement}"


def test_the_version_is_written_once() -> None:
    project = PROJECT["project"]
    assert "version" not in project and "version" in project["dynamic"]
    assert PROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "candlebox.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", candlebox.__version__)
    written = [
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "candlebox").rglob("*.py")
        if re.search(r"^__version__\s*=", path.read_text(encoding="utf-8"), re.M)
    ]
    assert written == ["candlebox/__init__.py"]


# An install command with extras in quotes (.[a,b]) in the docs, scripts and error messages.
INSTALL = re.compile(r"pip install[^\n'\"]*['\"]\.\[([^\]]+)\]['\"]")
SOURCES = ("README.md", "docs", "bench", "examples", "candlebox", "tests", ".ci", "deploy")


def test_every_install_command_names_extras_that_exist() -> None:
    extras = set(PROJECT["project"]["optional-dependencies"])
    files = [
        path
        for source in SOURCES
        for path in ([ROOT / source] if (ROOT / source).is_file() else (ROOT / source).rglob("*"))
        if path.is_file() and path.suffix in {"", ".md", ".py", ".txt", ".toml", ".sh"}
    ]
    seen = 0
    unknown = []
    for path in files:
        for match in INSTALL.finditer(path.read_text(encoding="utf-8", errors="replace")):
            seen += 1
            named = {name.strip() for name in match.group(1).split(",")}
            if named - extras:
                unknown.append(f"{path.relative_to(ROOT)}: {match.group(0)}")
    assert seen > 20  # the pattern still finds the commands
    assert not unknown, f"no such extra: {unknown}"


def test_what_the_default_run_leaves_out_runs_in_ci_s_second_step() -> None:
    """Coverage is moved, never lost: every marker the README's test command leaves out
    (pyproject's addopts), but the long fuzzing runs of ``slow``, is one .ci/run's second step
    selects, and each is declared."""
    options = PROJECT["tool"]["pytest"]["ini_options"]
    left_out = set(re.findall(r"not (\w+)", options["addopts"])) - {"slow"}
    steps = re.findall(r"python -m pytest -n auto -m '([^']+)'", (ROOT / ".ci" / "run").read_text())
    assert len(steps) == 1, steps
    assert left_out == set(steps[0].split(" or ")), (left_out, steps[0])
    declared = {marker.split(":")[0] for marker in options["markers"]}
    assert left_out | {"slow"} <= declared
