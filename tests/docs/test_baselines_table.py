"""docs/rl.md's baseline and training tables are what their files say, never typed by hand.

bench/baselines.py writes both (``--write-docs``): the baselines from bench/results/baselines.jsonl
(the matches it played), the training runs from the logs beside the shipped policies. These tests only
read the files and compare (no game is played), so a table that drifts from its measurement, or a
measurement of a policy that is no longer the one shipped, fails here.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from types import ModuleType

import pytest

import candlebox
from candlebox.bots.policy import shipped_path

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture
def baselines(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    # Imported by name from bench/, as tests/sim/test_strength_script.py imports its script.
    monkeypatch.syspath_prepend(str(BENCH))
    return importlib.import_module("baselines")


def shipped_games() -> list[str]:
    return [game for game in candlebox.game_ids() if shipped_path(game).is_file()]


@pytest.mark.parametrize("part", ["baselines", "training"])
def test_the_docs_table_is_the_one_its_files_give(baselines: ModuleType, part: str) -> None:
    written = baselines.documented(baselines.DOCS.read_text(), part)
    given = baselines.parts()[part]
    assert written == given, (
        f"docs/rl.md's {part} part differs from its files: run python bench/baselines.py --write-docs"
    )


def test_every_shipped_policy_is_measured_against_each_opponent_as_shipped(
    baselines: ModuleType,
) -> None:
    """A retrained policy makes its old figures another file's: the match must be played again."""
    rows = baselines.current(baselines.load())
    for game in shipped_games():
        played = {row.against: row for row in rows if row.game == game}
        assert {"random", "heuristic"} <= played.keys(), (game, sorted(played))
        assert any(name.startswith("ismcts") for name in played), (game, sorted(played))
        digest = baselines.policy_digest(game)
        for row in played.values():
            assert row.policy_sha256 == digest, (
                f"{game} against {row.against} was measured with another policy file: "
                "play the match again (bench/baselines.py)"
            )
            assert 0 < row.games <= row.planned and 0 <= row.wins <= row.games


def test_each_training_log_is_the_shipped_files(baselines: ModuleType) -> None:
    """The log beside a file is that file's run: the size it wrote is the file's size."""
    runs = {run.game: run for run in baselines.training_runs()}
    for game in shipped_games():
        assert game in runs, f"{game}'s policy ships without its training log"
        assert runs[game].bytes == shipped_path(game).stat().st_size, game


def test_a_document_without_the_parts_markers_is_refused_naming_them(
    baselines: ModuleType, tmp_path: Path
) -> None:
    doc = tmp_path / "rl.md"
    doc.write_text("# no generated parts here\n")
    with pytest.raises(ValueError, match=re.escape("bench/baselines.py --write-docs: baselines")):
        baselines.write_docs(doc)
    assert doc.read_text() == "# no generated parts here\n"  # left as it was
