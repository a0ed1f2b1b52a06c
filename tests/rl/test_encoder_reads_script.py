"""bench/encoder_reads.py: an encoder's cost per read, measured on the vector env's workload (N games
stepped in turn, each read after its step by the seat to act)."""

from __future__ import annotations

import importlib
import subprocess
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.rl.deps import require_rl

require_rl()

from candlebox.rl import Spec  # noqa: E402

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "encoder_reads.py"


@pytest.fixture
def script(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(SCRIPT.parent))  # bench/, as when it runs as a script
    return importlib.import_module(SCRIPT.stem)


def test_every_game_is_read_after_each_step_by_its_seat_to_act(script: ModuleType) -> None:
    spec = Spec.make("candelabria", 3, "standard", max_turns=3)  # short games: some are replaced
    reads: list[tuple[Any, int]] = []

    def read(state: Any, seat: int, row: Any) -> None:
        assert len(row) == spec.observation_size
        assert not state.is_over and seat == state.to_act[0]
        reads.append((state, seat))

    per_step = script.steps_per_read(spec, read, games=3, steps=40, seed=1)
    assert per_step > 0
    assert len(reads) == 3 + 3 * 40  # the deals, then one read a step
    assert len({id(state) for state, _seat in reads}) > 3, "no game ended and was replaced"


def test_a_small_run_gives_each_count_of_games_its_row(script: ModuleType) -> None:
    rows = script.measure("candelabria", 3, "standard", games=[1, 2], steps=4, repeats=1)
    assert [row["games"] for row in rows] == [1, 2]
    assert [row["steps"] for row in rows] == [4, 4]
    for row in rows:
        assert row["step_with_read_us"] > 0 and row["step_alone_us"] > 0
        assert row["read_us"] == row["step_with_read_us"] - row["step_alone_us"]


@pytest.mark.parametrize("games", ["0", "1,x", ""])
def test_bad_game_counts_are_refused_by_name(script: ModuleType, games: str) -> None:
    with pytest.raises(SystemExit):
        script.parse_args(["--games", games])


def test_an_encoder_at_a_git_revision_is_measured_in_the_same_rounds(script: ModuleType) -> None:
    """``--against REV``: the encoder's files at REV imported under another name, so both encoders
    run in one process; the committed code reads what the working tree's reads."""
    root = SCRIPT.parents[1]
    if subprocess.run(
        ["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True
    ).returncode:
        pytest.skip("not a git checkout: no revision to read the encoder from")
    module = "candlebox.games.candelabria.encoder"
    other = script.encoder_module_at(module, "HEAD")
    assert other.__name__ != module and other.__name__.startswith("encoder_at_")
    spec = Spec.make("candelabria", 3, "standard")
    theirs = other.encoder(spec.config)
    assert type(theirs).__module__.startswith(other.__name__)  # not the working tree's class
    state = spec.config.new_game(4)
    seat = state.to_act[0]
    assert (theirs.encode_state(state, seat) == spec.encoder.encode_state(state, seat)).all()
    rows = script.measure(
        "candelabria", 3, "standard", games=[2], steps=40, repeats=3, against="HEAD"
    )
    assert len(rows[0]["ratio"]) == 3  # the median and quartiles of the per-round ratios
    assert rows[0]["against_read_us"] != rows[0]["read_us"]  # timed on its own, not a copy
