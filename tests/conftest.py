"""Session-wide hooks. The tests a run leaves out (by marker or keyword) are kept aside, so that
tests/conformance/test_ci_steps.py can check that every collected test runs in one of CI's two
steps."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

DESELECTED = pytest.StashKey[list[pytest.Item]]()


def pytest_deselected(items: Sequence[pytest.Item]) -> None:
    for item in items:
        item.config.stash.setdefault(DESELECTED, []).append(item)
