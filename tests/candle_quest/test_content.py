"""The candle data file: schema, the rulebook's numbers, and clear errors for a bad file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from candlebox.games.candle_quest.candles import (
    CANDLE_FILE,
    CANDLES,
    CONTENT,
    read_candle_file,
    schema,
)


def test_shipped_schema_matches_the_loader() -> None:
    assert json.loads((CONTENT / "candles.schema.json").read_text()) == schema()


def test_sixty_candles_with_the_rulebook_totals() -> None:
    types = CANDLES.types
    full = [types[t] for t in CANDLES.full_set]
    assert len(full) == 60
    lit = [c for c in full if c.kind.name == "LIT"]
    assert sum(5 <= c.face <= 8 for c in lit if c.colour >= 4) == 24
    assert sum(2 <= c.face <= 6 for c in lit if c.colour < 4) == 24
    assert sorted(c.face for c in full if c.kind.name == "DANCING") == [9, 9, 9, 10, 10, 10]
    assert sorted(c.face for c in full if c.kind.name == "UNLIT") == [4, 4, 4, 6, 6, 6]
    assert all(c.sell == c.face // 2 for c in full if c.kind.name != "UNLIT")
    assert json.loads(CANDLE_FILE.read_text())["reconstructed"] is True


def _write(tmp_path: Path, change) -> Path:  # type: ignore[no-untyped-def]
    data = json.loads(CANDLE_FILE.read_text())
    change(data)
    path = tmp_path / "candles.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["colours"].pop(), "8 colours"),
        (lambda d: d["colours"][0]["candles"].pop(), "six candles"),
        (lambda d: d["colours"][0]["candles"][0].update(face=9), "outside 2–6"),
        (
            lambda d: d["colours"][4].update(cost="low", candles=d["colours"][0]["candles"]),
            "4 low-cost and 4 expensive",
        ),
        (lambda d: d["dancing"][0].update(face=8), "Dancing"),
        (lambda d: d["unlit"].pop(), "Unlit"),
        (lambda d: d["colours"][1].update(code="Y"), "codes must differ"),
        (lambda d: d["colours"][0]["candles"][0].update(face="two"), "Expected `int`"),
        (lambda d: d.update(extra=1), "unknown field"),
    ],
)
def test_a_bad_candle_file_is_refused_with_the_reason(tmp_path: Path, change, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match=message):
        read_candle_file(_write(tmp_path, change))
