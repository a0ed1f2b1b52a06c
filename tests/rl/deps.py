"""The RL adapter tests need the optional group; without it each test module skips, saying so."""

from __future__ import annotations

import pytest

NEEDED = (
    ("numpy", "numpy"),
    ("gymnasium", "gymnasium"),
    ("pettingzoo", "pettingzoo"),
    ("pyspiel", "open_spiel"),
)


def require_rl() -> None:
    """Skip the calling test module unless the ``rl`` group is installed."""
    for module, package in NEEDED:
        pytest.importorskip(
            module,
            reason=f"{package} is not installed: the RL adapters need pip install -e '.[rl]'",
        )
