"""The new-game form says every choice in words: each option with choices (or yes and no) that
``GET /api/meta`` offers carries its game's label, and a label for each of its choices (the form
showed Candle Quest's "tiebreak: shared" and Candelabria's "warrior push: forced")."""

from __future__ import annotations

from typing import Any


def unsaid(option: dict[str, Any]) -> str | None:
    """What the option lacks to be shown in words, or None."""
    if option["kind"] not in ("choice", "bool"):
        return None
    if not option["label"]:
        return "no label"
    if option["kind"] == "bool":
        return None
    said = option["choice_labels"]
    if len(said) != len(option["choices"]) or not all(said):
        return f"choices {option['choices']} said as {said}"
    if len(set(said)) != len(said):
        return f"two choices said alike: {said}"
    return None


def test_every_choice_offered_is_said_in_words(client: Any) -> None:
    missing = [
        f"{game['id']} {variant['name']} {option['name']}: {problem}"
        for game in client.get("/api/meta").json()["games"]
        for variant in game["variants"]
        for option in variant["options"]
        if (problem := unsaid(option))
    ]
    assert missing == []
