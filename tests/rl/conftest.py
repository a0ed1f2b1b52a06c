"""Shared fixtures of the RL adapter tests (which skip without the ``rl`` group: see deps.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture
def secret_numbers() -> Iterator[str]:
    """The test-only game with simultaneous secret choices, registered for one test."""
    from tests.rl import secret_game

    secret_game.register_game()
    try:
        yield secret_game.GAME_ID
    finally:
        secret_game.unregister_game()
