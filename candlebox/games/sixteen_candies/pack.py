"""16 Candies as a content pack: ``candlebox content export sixteen-candies DIR`` writes the deck (with
its schema, the words and a README); ``candlebox content check`` checks a pack against the rulebook's
numbers (or, with ``--design``, its structure only). The option ``content`` plays a pack: the state
holds the pack's tables (``cards.Tables``) and action texts (``notation.Notation``), built once per
pack and process."""

from __future__ import annotations

from pathlib import Path

from candlebox.engine.packs import PackFile, export, readme
from candlebox.engine.plugin import ContentPacks
from candlebox.games.sixteen_candies.cards import CONTENT, DeckFile, build_deck, read_deck_file

FILES = (
    PackFile(
        "deck.json",
        "the deck: the four candy types, every numbered card's two halves, and the Wild",
        DeckFile,
        {
            "reconstructed": "true while the values are our reconstruction rather than the printed ones",
            "about": "what this file is and where its values come from (free text)",
            "candies[].code": "one capital letter, used in card codes (G6-K1)",
            "candies[].name": "the candy's name (the rulebook's four must be there)",
            "candies[].colour": "the colour the pages draw it in",
            "cards[].halves": "the card's two halves; only the half on top counts",
            "cards[].halves[].candy": "a candy code",
            "cards[].halves[].count": "how many candies the half shows, 1–6",
            "cards[].halves[].penalty": "the penalty candies the half costs its holder",
            "wild.code": "the Wild's code",
            "wild.count": "how many of the declared candy it counts as (3 as printed)",
            "wild.penalty": "its penalty (2 as printed)",
            "wild.copies": "how many Wilds the deck holds",
        },
    ),
)
EXTRA = ("words.json",)

INTRO = """
Exported by `candlebox content export sixteen-candies`. Check an edited pack with `candlebox content
check sixteen-candies THIS_FOLDER`: the file is decoded through its schema (`deck.schema.json`) and
held to every number the rulebook gives; an error names the file and the field. With `--design` the
penalties and the Wild's count and penalty may differ from the rulebook's, while the structure stays:
codes, two halves of different candies on every card, counts of 1–6, halves of 4, 5 and 6 of every
candy (the Instant Round Win), enough cards to deal four hands. Play it with `candlebox simulate sixteen-candies --content
THIS_FOLDER` (add `--design` for a design pack), `candlebox play ... --content THIS_FOLDER`, or a
practice table on a server that offers it. The rules, the bots and the hands' values and penalties use
the pack's numbers; the card faces drawn at the terminal and in the browser are the printed ones, and
the learning encoders (RL) know the printed card codes only.
"""


def export_pack(folder: str) -> list[str]:
    return export(folder, CONTENT, FILES, EXTRA, readme("16 Candies", INTRO, FILES))


def check_pack(folder: str, design: bool) -> None:
    """Decode and check a pack's deck (a ValueError naming the file and the field)."""
    data = read_deck_file(Path(folder).expanduser() / "deck.json", design)
    try:
        build_deck(data)
    except ValueError as exc:
        raise ValueError(f"deck.json: {exc}") from None


PACKS = ContentPacks(
    files={f.name: f.about for f in FILES},
    export=export_pack,
    check=check_pack,
    design_option="design",
)
