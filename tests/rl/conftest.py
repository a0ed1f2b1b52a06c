"""Shared fixtures of the RL adapter tests (which skip without the ``rl`` group: see deps.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture
def secret_numbers() -> Iterator[str]:
    """The test-only game with simultaneous secret choices, registered for one test."""
    from candlebox.rl import core
    from tests.rl import secret_game

    secret_game.register()
    core.GAME_MODULES[secret_game.GAME_ID] = "tests.rl.secret_game"
    try:
        yield secret_game.GAME_ID
    finally:
        core.GAME_MODULES.pop(secret_game.GAME_ID, None)
        secret_game.unregister()
