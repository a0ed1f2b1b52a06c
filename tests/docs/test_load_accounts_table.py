"""docs/deploy.md's accounts load table ("Accounts and rated games under load") is what its results
file says, never typed: bench/load_accounts.py writes both (``--write-docs``). The file kept in git
is the issue's run: 1,000 accounts and 200 rated games at once on two processes, with no error."""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture
def load_accounts(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(BENCH))  # imported by name, as the other bench scripts are
    return importlib.import_module("load_accounts")


def test_the_docs_table_is_the_one_its_results_file_gives(load_accounts: ModuleType) -> None:
    written = load_accounts.documented(load_accounts.DOCS.read_text())
    given = load_accounts.docs_lines(json.loads(load_accounts.RESULTS.read_text()))
    assert written == given, (
        "docs/deploy.md's accounts load table differs from its results file: "
        "run python bench/load_accounts.py --write-docs"
    )


def test_the_kept_run_is_the_issues_load_with_no_error(load_accounts: ModuleType) -> None:
    result = json.loads(load_accounts.RESULTS.read_text())
    assert result["server_processes"] == 2
    assert result["accounts"] >= 1000 and result["sign_in"]["count"] == result["accounts"]
    assert result["games_started"] >= 200
    assert result["games_finished"] == result["games_started"]
    assert result["error_count"] == 0, result["errors"]


def test_a_document_without_the_markers_is_refused_naming_them(
    load_accounts: ModuleType, tmp_path: Path
) -> None:
    doc = tmp_path / "deploy.md"
    doc.write_text("# no generated table here\n")
    with pytest.raises(ValueError, match=re.escape("bench/load_accounts.py --write-docs")):
        load_accounts.write_docs(doc, load_accounts.RESULTS)
    assert doc.read_text() == "# no generated table here\n"  # left as it was
