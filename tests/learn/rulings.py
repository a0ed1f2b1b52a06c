"""The rulings each game's pages show, generated from docs/rulings.md (the one source of rulings).

``content/rulings.json`` of every game holds its chapter's rulings: number, title, the part of the
chapter they are in, and their decision and reasons (the rulebook quotes left out: the pages use our
own words), and without the paragraphs that begin "**In the code.**" (files, loaders, tests: for developers,
not for a player reading the rules). A test checks the files agree with docs/rulings.md; after editing
the rulings:

    python -m tests.learn.rulings --write
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rulings.md"
CHAPTERS = {
    "Candle Quest": "candle_quest",
    "16 Candies": "sixteen_candies",
    "The Curse of Candelabria": "candelabria",
}
_RULING = re.compile(r"^#{3,4} ([A-Z]{2}-[A-Z0-9]*\d+) (.+?)\s*$")


def parse(text: str) -> dict[str, list[dict[str, Any]]]:
    """Each game package's rulings from the text of docs/rulings.md."""
    out: dict[str, list[dict[str, Any]]] = {pkg: [] for pkg in CHAPTERS.values()}
    package: str | None = None
    part = ""
    current: dict[str, Any] | None = None
    body: list[str] = []

    def close() -> None:
        if current is not None and package is not None:
            current["text"] = _for_players("\n".join(body))
            out[package].append(current)

    for line in text.splitlines():
        if line.startswith("## "):
            close()
            current, body = None, []
            package = CHAPTERS.get(line[3:].strip())
            part = ""
            continue
        match = _RULING.match(line)
        if match:
            close()
            current, body = {"id": match.group(1), "title": match.group(2), "part": part}, []
            continue
        if line.startswith("### ") or line == "---":
            close()
            current, body = None, []
            part = line[4:].strip() if line.startswith("### ") else part
            continue
        if current is not None and not line.startswith(">"):
            body.append(line)
    close()
    return out


CODE_NOTE = "**In the code.**"


def _for_players(text: str) -> str:
    """A ruling's text without its paragraphs for developers (those beginning with CODE_NOTE)."""
    paragraphs = re.split(r"\n\s*\n", text.strip())
    return "\n\n".join(p for p in paragraphs if not p.lstrip().startswith(CODE_NOTE))


def target(package: str) -> Path:
    return ROOT / "candlebox" / "games" / package / "content" / "rulings.json"


def dump(rulings: list[dict[str, Any]]) -> str:
    return json.dumps(rulings, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite every game's rulings.json")
    args = parser.parse_args(argv)
    stale = []
    for package, rulings in parse(DOC.read_text(encoding="utf-8")).items():
        path = target(package)
        if args.write:
            path.write_text(dump(rulings), encoding="utf-8")
        elif not path.exists() or path.read_text(encoding="utf-8") != dump(rulings):
            stale.append(str(path))
    for path in stale:
        print(f"out of date: {path}", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
