"""Blind Bids' component words (``candlebox.components``): every bid card a configuration can show,
with its name and what it does. Codes are ``bid:N``, as the action ``bid N`` names card N."""

from __future__ import annotations

from typing import Any

from .state import MAX_PLAYERS, deck_size


def components(
    variant: str, options: dict[str, Any], players: int | None = None
) -> dict[str, dict[str, str]]:
    """The bid cards of the configuration (of its largest table when ``players`` is None)."""
    seats = players if players is not None else MAX_PLAYERS
    return {
        f"bid:{card}": {
            "name": f"Bid card {card}",
            "text": f"A bid worth {card}: the highest bid of a round takes its prize.",
        }
        for card in range(1, deck_size(seats, options["hand"]) + 1)
    }
