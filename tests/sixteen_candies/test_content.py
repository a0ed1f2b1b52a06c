"""The deck data file: schema, the rulebook's numbers, and clear errors for a bad file."""

from __future__ import annotations

import json
from collections.abc import Callable
from itertools import combinations, product
from pathlib import Path
from typing import Any

import pytest

import candlebox
from candlebox.games.sixteen_candies.cards import (
    CONTENT,
    DECK,
    DECK_FILE,
    FULL_SET,
    PRINTED,
    WILD,
    read_deck_file,
    schema,
)
from candlebox.games.sixteen_candies.instant_win import shows_four_five_six
from candlebox.games.sixteen_candies.wild import hand_penalty, hand_value


def test_shipped_schema_matches_the_loader() -> None:
    assert json.loads((CONTENT / "deck.schema.json").read_text()) == schema()


def test_the_reconstructed_deck() -> None:
    data = json.loads(DECK_FILE.read_text())
    assert data["reconstructed"] is True
    assert [c["name"] for c in data["candies"]] == [
        "Gummy Bears",
        "Chocolate",
        "Candy Corn",
        "Heart Candies",
    ]
    assert len(FULL_SET) == 40 and FULL_SET.count(WILD) == 4
    for card in data["cards"]:
        a, b = card["halves"]
        assert a["count"] + b["count"] == 7 and a["candy"] != b["candy"]
        assert a["penalty"] + b["penalty"] == 4
        for half in (a, b):
            assert half["penalty"] == {1: 3, 2: 3, 3: 2, 4: 2, 5: 1, 6: 1}[half["count"]]
    pairs = [(c["halves"][0]["candy"], c["halves"][1]["candy"]) for c in data["cards"]]
    assert len(pairs) == 36 and all(pairs.count(p) == 3 for p in set(pairs))
    assert data["wild"] == {"code": "W", "count": 3, "penalty": 2, "copies": 4}
    facts = candlebox.game_info("sixteen-candies").facts
    assert facts["deck_size"] == 40 and len(facts["cards"]) == 37
    assert facts["cards"]["G6-K1"]["halves"][1] == {
        "code": "K1",
        "candy": "K",
        "count": 1,
        "penalty": 3,
    }


def _hands() -> list[tuple[int, int, bool]]:
    """(value, penalty, instant) of every three-card hand in every orientation."""
    types = sorted(set(FULL_SET))
    result = []
    for hand in combinations(types, 3):
        for ups in product(*((0,) if t == WILD else (0, 1) for t in hand)):
            halves = [2 * t + o for t, o in zip(hand, ups, strict=True)]
            value, _ = hand_value(PRINTED, halves)
            result.append(
                (value, hand_penalty(PRINTED, halves), shows_four_five_six(PRINTED, halves))
            )
    return result


def test_every_number_of_the_rulebook_can_be_shown() -> None:
    """13 (not an instant win) with three cards; 8 with a penalty of 4; 9 with a penalty of 4 (paying
    4 + 1 = 5); a hand with a penalty of 6; 4, 5 and 6 of one candy."""
    hands = _hands()
    assert any(v == 13 and not i for v, p, i in hands)
    assert any(v == 8 and p == 4 for v, p, i in hands)
    assert any(v == 9 and p == 4 for v, p, i in hands)
    assert any(p == 6 for v, p, i in hands)
    assert sum(i for v, p, i in hands) == 4 * 3 * 3 * 3, (
        "each candy's 4, 5, 6 from three cards each"
    )
    assert DECK.candy_codes == ("G", "C", "K", "H")


def _write(tmp_path: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    data = json.loads(DECK_FILE.read_text())
    change(data)
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(data))
    return path


BAD = [
    (lambda d: d["candies"].pop(), "missing: ['Heart Candies']"),
    (lambda d: d["candies"][0].update(code="GB"), "one capital letter"),
    (lambda d: d["candies"][1].update(code="G"), "candy codes must differ"),
    (lambda d: d["cards"][0]["halves"][0].update(count=7), "count 7 outside 1–6"),
    (lambda d: d["cards"][0]["halves"][0].update(candy="Z"), "unknown candy 'Z'"),
    (lambda d: d["cards"][0]["halves"][0].update(penalty=-1), "negative penalty"),
    (lambda d: d["cards"][0]["halves"].pop(), "two halves"),
    (lambda d: d["cards"][0]["halves"][1].update(candy="G"), "both halves show G"),
    (lambda d: d["cards"].append(d["cards"][0]), "appears twice"),
    (lambda d: d["wild"].update(count=4), "counts as three"),
    (lambda d: d["wild"].update(penalty=3), "penalty is 2"),
    (lambda d: d["wild"].update(copies=-1), "negative number of Wilds"),
    (lambda d: d["wild"].update(code="G"), "not the Wild's"),
    (lambda d: d.update(cards=d["cards"][:9], wild=dict(d["wild"], copies=0)), "Instant Round Win"),
    (lambda d: d.update(extra=1), "unknown field"),
    (lambda d: d["cards"][0].update(halves="G6"), "Expected `array`"),
]


@pytest.mark.parametrize(("change", "message"), BAD)
def test_a_bad_deck_file_is_refused_clearly(
    tmp_path: Path, change: Callable[[dict[str, Any]], None], message: str
) -> None:
    with pytest.raises(ValueError) as refused:
        read_deck_file(_write(tmp_path, change))
    assert message in str(refused.value)


def test_a_deck_too_small_for_four_players_is_refused(tmp_path: Path) -> None:
    def shrink(data: dict[str, Any]) -> None:
        data["cards"] = data["cards"][::3]  # one card for each candy's 6, 5 and 4: twelve
        data["wild"]["copies"] = 0

    with pytest.raises(ValueError, match="cannot deal four players"):
        read_deck_file(_write(tmp_path, shrink))
