"""docs/rl.md's baseline and training tables are what their files say, never typed by hand.

bench/baselines.py writes them (``--write-docs``): the baselines from bench/results/baselines.jsonl
(the matches it played, every game and player count with a shipped policy), the training runs from
the logs beside the shipped policies (PPO's for 2 players, the imitation trainer's for more). These tests only
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


def shipped_tables(baselines: ModuleType) -> list[tuple[str, int]]:
    return [(game, n) for game in candlebox.game_ids() for n in baselines.player_counts(game)]


@pytest.mark.parametrize("part", ["baselines", "training", "imitation"])
def test_the_docs_table_is_the_one_its_files_give(baselines: ModuleType, part: str) -> None:
    written = baselines.documented(baselines.DOCS.read_text(), part)
    given = baselines.parts()[part]
    assert written == given, (
        f"docs/rl.md's {part} part differs from its files: run python bench/baselines.py --write-docs"
    )


def test_every_shipped_policy_is_measured_against_each_opponent_as_shipped(
    baselines: ModuleType,
) -> None:
    """A retrained policy makes its old figures another file's: the match must be played again.
    Every game and player count with a file is measured against random and the heuristic, and at
    2 players against ISMCTS-Easy too."""
    rows = baselines.current(baselines.load())
    tables = shipped_tables(baselines)
    assert {n for _, n in tables} >= {2, 3, 4, 5}, tables
    for game, players in tables:
        played = {row.against: row for row in rows if (row.game, row.players) == (game, players)}
        assert {"random", "heuristic"} <= played.keys(), (game, players, sorted(played))
        if players == 2:
            assert any(name.startswith("ismcts") for name in played), (game, sorted(played))
        digest = baselines.policy_digest(game, players)
        for row in played.values():
            assert row.policy_sha256 == digest, (
                f"{game} ({players} players) against {row.against} was measured with another "
                "policy file: play the match again (bench/baselines.py)"
            )
            assert 0 < row.games <= row.planned and 0 <= row.wins <= row.games


def test_each_training_log_is_the_shipped_files(baselines: ModuleType) -> None:
    """The log beside a file is that file's run: the size it wrote is the file's size."""
    runs = {run.game: run for run in baselines.training_runs()}
    for game in shipped_games():
        assert game in runs, f"{game}'s policy ships without its training log"
        assert runs[game].bytes == shipped_path(game).stat().st_size, game
    imitated = {(run.game, run.players): run for run in baselines.imitation_runs()}
    for game, players in shipped_tables(baselines):
        if players == 2:
            continue
        assert (game, players) in imitated, f"{game}-{players}p ships without its training log"
        size = shipped_path(game, players).stat().st_size
        assert imitated[game, players].bytes == size, (game, players)


def test_a_document_without_the_parts_markers_is_refused_naming_them(
    baselines: ModuleType, tmp_path: Path
) -> None:
    doc = tmp_path / "rl.md"
    doc.write_text("# no generated parts here\n")
    with pytest.raises(ValueError, match=re.escape("bench/baselines.py --write-docs: baselines")):
        baselines.write_docs(doc)
    assert doc.read_text() == "# no generated parts here\n"  # left as it was


def test_every_shipped_policy_beats_random_by_its_measured_interval(
    baselines: ModuleType,
) -> None:
    """A baseline that loses to random is not a baseline: against the random bot at every other
    seat, each shipped file's 95% interval lies above even (1/players)."""
    rows = baselines.current(baselines.load())
    for game, players in shipped_tables(baselines):
        row = next(r for r in rows if (r.game, r.players, r.against) == (game, players, "random"))
        assert row.rate.low > 1 / players, (
            f"{game} ({players} players) wins {row.rate.rate:.1%} against random, interval "
            f"{row.rate.low:.1%}–{row.rate.high:.1%}: not above even ({1 / players:.1%})"
        )
