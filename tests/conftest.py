"""Session-wide hooks and settings. The tests a run leaves out (by marker or keyword) are kept aside, so that
tests/conformance/test_ci_steps.py can check that every collected test runs in one of CI's two
steps."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, settings

# Hypothesis's time limits (a deadline per example, a health check that gives up when making
# examples is slow) measure the machine, not the code: at load 43 one gave up on a shuffle test.
# The tests must pass on a loaded machine, so neither applies; examples and their count stay.
settings.register_profile(
    "loaded-machine", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("loaded-machine")

DESELECTED = pytest.StashKey[list[pytest.Item]]()


def pytest_deselected(items: Sequence[pytest.Item]) -> None:
    for item in items:
        item.config.stash.setdefault(DESELECTED, []).append(item)
