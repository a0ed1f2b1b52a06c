"""Candle Quest as a content pack: ``candlebox content export candle-quest DIR`` writes the candle
list (with its schema, the words and a README); ``candlebox content check`` checks a pack against the
rulebook's numbers (or, with ``--design``, its structure only); option ``content=DIR`` plays one
(``design=true`` for a pack whose printed values were changed). A state reads its candles through its
``content`` slot (candles.py, ``Candles``)."""

from __future__ import annotations

from pathlib import Path

from candlebox.engine.packs import PackFile, export, readme
from candlebox.engine.plugin import ContentPacks
from candlebox.games.candle_quest.candles import (
    CONTENT,
    DESIGN_FACE,
    CandleFile,
    build_candle_set,
    read_candle_file,
)

FILES = (
    PackFile(
        "candles.json",
        "the 60 candles: eight colours of six Lit candles, six Dancing and six Unlit",
        CandleFile,
        {
            "reconstructed": "true while the values are our reconstruction rather than the printed ones",
            "about": "what this file is and where its values come from (free text)",
            "colours[].code": "one capital letter (not D or U): the candle codes' letter (R7)",
            "colours[].name": "the colour's name",
            "colours[].cost": "low (faces 2–6) or expensive (faces 5–8); four colours of each",
            "colours[].candles[].face": "its face value: what it pays towards a set, and its price",
            "colours[].candles[].sell": "what the bank pays for it, below the face value",
            "dancing[].face": "a Dancing (wild) candle's face: three of 9 and three of 10",
            "dancing[].sell": "its sell value",
            "unlit[].face": "an Unlit candle's face, what a guard costs: three of 4 and three of 6",
        },
    ),
)
EXTRA = ("words.json",)

INTRO = f"""
Exported by `candlebox content export candle-quest`. Check an edited pack with `candlebox content
check candle-quest THIS_FOLDER`: the file is decoded through its schema (`candles.schema.json`) and
held to every number the rulebook gives; an error names the file and the field. With `--design` the
face and sell values (1–{DESIGN_FACE}) and the Dancing and Unlit faces may differ from the rulebook's,
while the structure stays: eight colours of six candles, four of each cost, distinct codes, a sell value
below the face. Play it with `-o content=THIS_FOLDER` (in `candlebox simulate`, `candlebox play`, or
a server's practice tables), adding `--design` (option `design=true`) for a pack whose printed values
were changed. A candle's code is its colour letter and face (`R7`): a changed face changes its code.
"""


def export_pack(folder: str) -> list[str]:
    return export(folder, CONTENT, FILES, EXTRA, readme("Candle Quest", INTRO, FILES))


def check_pack(folder: str, design: bool) -> None:
    """Decode and check a pack's candle list (a ValueError naming the file and the field)."""
    path = Path(folder).expanduser() / "candles.json"
    data = read_candle_file(path, design)
    try:
        build_candle_set(data)
    except ValueError as exc:
        raise ValueError(f"candles.json: {exc}") from None


PACKS = ContentPacks(
    files={f.name: f.about for f in FILES},
    export=export_pack,
    check=check_pack,
    option="content",
    design_option="design",
)
