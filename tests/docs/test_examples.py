"""Every example in README.md and docs/ runs against the real code, and so do the docstrings' doctests.

How the Markdown examples are found and run, and how a block opts out: tests/docs/examples.py.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path
from typing import Any

import pytest

import candlebox
from tests.docs import examples

# Packages of the optional extras (pyproject.toml): an example or module needing a missing one skips.
OPTIONAL = {
    "numpy",
    "gymnasium",
    "pettingzoo",
    "pyspiel",
    "open_spiel",
    "ray",
    "sb3_contrib",
    "stable_baselines3",
    "torch",
    "matplotlib",
    "openskill",
    "pyarrow",
    "fastapi",
    "sqlalchemy",
    "uvicorn",
    "httpx",
    "jax",
}


def _skip_if_optional(exc: ModuleNotFoundError) -> None:
    if (exc.name or "").split(".")[0] in OPTIONAL:
        pytest.skip(f"{exc.name} is not installed (an optional extra)")


def _markdown_cases() -> list[Any]:
    """Each file; a file with ``deep`` blocks once more with them run: ``-m deep`` (CI's second step)."""
    cases: list[Any] = []
    for path in examples.markdown_files():
        name = str(path.relative_to(examples.ROOT))
        cases.append(pytest.param(path, False, id=name))
        if examples.has_deep_blocks(path):
            cases.append(pytest.param(path, True, id=f"{name}-deep", marks=pytest.mark.deep))
    return cases


@pytest.mark.parametrize(("path", "deep"), _markdown_cases())
def test_markdown_examples_run(path: Path, deep: bool, tmp_path: Path) -> None:
    try:
        examples.check_file(path, tmp_path, deep=deep)
    except ModuleNotFoundError as exc:
        _skip_if_optional(exc)
        raise


def _modules() -> list[str]:
    found = pkgutil.walk_packages(candlebox.__path__, "candlebox.")
    return ["candlebox", *sorted(info.name for info in found if not info.name.endswith("__main__"))]


def _with_doctests() -> list[str]:
    """The modules whose source has a doctest (found by text, so none is imported to collect)."""
    found = []
    for name in _modules():
        spec = importlib.util.find_spec(name)
        origin = spec.origin if spec else None
        if origin and origin.endswith(".py") and ">>>" in Path(origin).read_text(encoding="utf-8"):
            found.append(name)
    return found


def test_every_module_with_a_doctest_is_found() -> None:
    assert "candlebox" in _with_doctests(), "the package's own docstring has an example"


@pytest.mark.parametrize("name", _with_doctests())
def test_docstring_examples_run(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # examples that write files write them here
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        _skip_if_optional(exc)
        raise
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report: list[str] = []
    tests = finder.find(module, name)
    assert tests, f"{name} has '>>>' in its source but no doctest was found"
    for test in tests:
        try:
            runner.run(test, out=report.append)
        except ModuleNotFoundError as exc:
            _skip_if_optional(exc)
            raise
    assert not runner.failures, "".join(report)
