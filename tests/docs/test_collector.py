"""The docs check itself: a stale example of each kind turns it red, and the opt-outs work."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.docs import examples

FENCE = "```"


def check(tmp_path: Path, markdown: str) -> int:
    path = tmp_path / "page.md"
    path.write_text(markdown)
    return examples.check_file(path, tmp_path, markdown)


def block(lang: str, code: str, marker: str = "") -> str:
    before = f"<!-- docs-check: {marker} -->\n" if marker else ""
    return f"Some text.\n\n{before}{FENCE}{lang}\n{code}\n{FENCE}\n\nMore text.\n"


def test_good_examples_pass_and_share_one_namespace(tmp_path: Path) -> None:
    text = (
        block("python", "import candlebox\nstate = candlebox.new_game('candle-quest', seed=1)")
        + block(
            "python",
            ">>> state.to_act\n(...,)\n>>> sorted(state.legal_actions(state.to_act[0]))\n['flip']",
        )
        + block("bash", "candlebox games && candlebox bots   # two listings")
        + block(
            "sh",
            "candlebox simulate candle-quest -n 500 --jobs 4 --out g.csv\ncandlebox report g.csv",
        )
        + block("text", "not code at all")
    )
    assert check(tmp_path, text) == 4
    assert (tmp_path / "g.csv").exists(), "the shell commands ran in the scratch folder"


@pytest.mark.parametrize(
    ("snippet", "message"),
    [
        (block("python", "import candlebox\ncandlebox.no_such_function()"), "no_such_function"),
        (block("python", ">>> 1 + 1\n3"), "a doctest failed"),
        (
            block(
                "python",
                "import candlebox\ncandlebox.new_game('candle-quest', dancing='x', colour=1)",
            ),
            "colour",
        ),
        (block("bash", "candlebox play candle-quest --no-such-flag"), "does not parse"),
        (block("bash", "pip install -e . && candlebox simulat candle-quest"), "does not parse"),
        (block("bash", "candlebox play candle-quest --players many"), "does not parse"),
        (block("bash", "candlebox serve --colour red"), "does not parse"),
        (block("bash", "candlebox simulate candle-quest -n 3 --bots genius"), r"failed \(exit 2\)"),
        (block("sh", "candlebox replay missing.json"), "failed"),
    ],
)
def test_a_stale_example_fails(tmp_path: Path, snippet: str, message: str) -> None:
    with pytest.raises(Exception, match=message):
        check(tmp_path, snippet)


def test_opt_outs(tmp_path: Path) -> None:
    parse_only = block("bash", "candlebox simulate candle-quest --bots genius", "parse-only")
    assert check(tmp_path, parse_only) == 1, "parsed, not run"
    assert check(tmp_path, block("bash", "candlebox serve --port 1")) == 1, "serve is never started"
    assert check(tmp_path, block("python", "this is not Python", "skip")) == 0
    with pytest.raises(AssertionError, match="does not parse"):
        check(tmp_path, block("bash", "candlebox simulate candle-quest --nonsense", "parse-only"))


def test_a_deep_block_runs_only_in_the_deep_case(tmp_path: Path) -> None:
    """``deep``: a slow block (JAX compiling) is only compiled by the README's test command and runs
    in CI's second step (the file's ``deep`` case); a block after it still runs in both."""
    text = block("python", "raise RuntimeError('ran the deep block')", "deep") + block(
        "python", "after = True"
    )
    path = tmp_path / "page.md"
    path.write_text(text)
    assert examples.check_file(path, tmp_path, text) == 2
    with pytest.raises(RuntimeError, match="ran the deep block"):
        examples.check_file(path, tmp_path, text, deep=True)
    with pytest.raises(SyntaxError):
        examples.check_file(path, tmp_path, block("python", "not Python at all", "deep"))
    assert examples.has_deep_blocks(path, text)
    assert not examples.has_deep_blocks(path, block("python", "x = 1"))
