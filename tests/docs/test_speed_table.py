"""docs/rl.md's speed table (section "JAX", "Speed") is what bench/results/adapters.json says, never
typed by hand: ``python bench/peers.py --write-docs`` writes it from the file that ``--adapters
--json bench/results/adapters.json`` measured. These tests only read the file and compare."""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture
def peers(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    # Imported by name from bench/, as tests/docs/test_baselines_table.py imports its script.
    monkeypatch.syspath_prepend(str(BENCH))
    return importlib.import_module("peers")


def test_the_docs_table_is_the_one_its_file_gives(peers: ModuleType) -> None:
    written = peers.documented(peers.DOCS.read_text(encoding="utf-8"))
    given = peers.speed_part(json.loads(peers.ADAPTER_RESULTS.read_text(encoding="utf-8")))
    assert written == given, (
        "docs/rl.md's speed table differs from bench/results/adapters.json: run "
        "python bench/peers.py --write-docs"
    )


def test_the_file_measures_every_jax_game_in_one_run(peers: ModuleType) -> None:
    """Each game with JAX rules has its JAX figure next to its vector env's, from the same run."""
    report = json.loads(peers.ADAPTER_RESULTS.read_text(encoding="utf-8"))
    measured = {row["config"].split("/")[0] for row in report["adapters"] if row.get("jax")}
    assert {"candle-quest", "sixteen-candies"} <= measured
    for row in report["adapters"]:
        if row.get("jax"):
            assert row["jax_of_vector"] == pytest.approx(row["jax"] / row["vector"])


def test_a_document_without_the_markers_is_refused_naming_them(
    peers: ModuleType, tmp_path: Path
) -> None:
    doc = tmp_path / "rl.md"
    doc.write_text("# no generated part here\n")
    with pytest.raises(ValueError, match=re.escape("bench/peers.py --write-docs: speed")):
        peers.write_docs(doc)
    assert doc.read_text() == "# no generated part here\n"  # left as it was


def test_a_game_without_jax_rules_keeps_its_vector_env_row(peers: ModuleType) -> None:
    """The vector env's goal (75% of its cap) holds in every game, Candelabria included, so the
    table shows each measured game's vector env and cap, its JAX columns n/a where it has none."""
    report = json.loads(peers.ADAPTER_RESULTS.read_text(encoding="utf-8"))
    jax_row = next(row for row in report["adapters"] if row.get("jax"))
    plain = {
        **jax_row,
        "config": "candelabria/standard/3p",
        "jax": None,
        "jax_of_vector": None,
        "jax_unobserved": None,
        "jax_unobserved_of_vector": None,
    }
    lines = peers.speed_part({**report, "adapters": [jax_row, plain]})
    (row,) = [line for line in lines if line.startswith("| The Curse of Candelabria")]
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[4] == f"{100 * plain['vector_of_cap']:.0f}%"
    assert cells[5:] == ["n/a"] * 4
