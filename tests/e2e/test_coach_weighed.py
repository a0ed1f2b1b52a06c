"""The review of a Candelabria game in a real browser (js/hint.js): at a decision of many moves the
search weighs the move played against the few the heuristic picks first, so nearly every decision
gets a chance in figures, and the panel says where it weighed only a few. Screenshots at a phone's,
a laptop's and a large screen's size (review-candelabria-*)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import SIZES, api, shot
from tests.e2e.test_coach import CHANCE_WORDS, reviewed
from tests.server.live import ServerProcess


@pytest.fixture
def short_reviews(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server whose reviews search 0.1 s of CPU a decision (0.5 s at most by default): a short
    game's review in a few seconds, with no more tries than a long game's share gives."""
    process = ServerProcess(
        f"sqlite:///{tmp_path / 'reviews.sqlite3'}",
        tmp_path / "server.log",
        env={"CANDLEBOX_REVIEW_SECONDS": "0.1"},
        bot_delay=0,
    )
    process.start()
    try:
        yield process
    finally:
        process.stop()


def test_a_candelabria_review_gives_its_decisions_a_chance(
    browser: Any, short_reviews: ServerProcess
) -> None:
    server = short_reviews
    with reviewed(browser, server, "candelabria") as (page, created):
        weighed = page.inner_text(".coach-weighed")
        listed = page.locator(".coach-marks li").all_inner_texts()
        for name, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            page.locator(".coach-weighed").scroll_into_view_if_needed()  # the note, on a phone too
            shot(page, f"review-candelabria-{name}")
    url = f"{server.base}/api/games/{created['id']}/review?seat={created['seat']}"
    answer = api.get(url, timeout=30).json()
    decisions = answer["review"]["decisions"]
    few = answer["few_tries"]
    told = [
        d
        for d in decisions
        if d["best_visits"] >= few and (d["chosen"] == d["best"] or d["chosen_visits"] >= few)
    ]
    assert len(told) >= 0.8 * len(decisions), decisions
    narrowed = [d for d in decisions if d["legal"] > d["weighed"]]
    assert narrowed, "a Candelabria game has decisions of many moves"
    assert re.match(
        rf"At {len(narrowed)} of these decisions|At each of these decisions", weighed
    ), weighed
    assert "your move against the two that sound rules of thumb pick first" in weighed, weighed
    for text in listed:
        assert re.search(CHANCE_WORDS, text), text
