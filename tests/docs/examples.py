"""Find the examples in the Markdown docs and check them against the real code.

- A ```python block runs; the blocks of one file run in order in one namespace, from a scratch
  directory, so a later block may use what an earlier one made. A block written as a doctest
  (``>>>`` lines) has its printed results compared too.
- A ```bash or ```sh block: each ``candlebox ...`` command in it (also after ``&&`` or ``;``) must parse
  against the real command line (its subcommand and options exist, values have the right type), without
  running. It then really runs, in process, from the file's scratch directory, with small sizes: ``-n``
  becomes at most 2, ``--jobs`` 1, and ``simulate``/``play`` get ``--option max_turns=30`` unless they
  set it, and a searching bot (``ismcts:iterations=...``) thinks for a few iterations; ``play`` has no input, so it stops at the person's first decision (and saves the game).
  Other commands (``pip``, ``python -m pytest``, ``apt-get``) are shell instructions and are skipped.
- Opting out: an HTML comment ``<!-- docs-check: parse-only -->`` on the line before a block keeps its
  commands to the parse check (for what cannot run here: a server that never ends, a Ray cluster);
  ``<!-- docs-check: skip -->`` skips a block entirely (for text that is not meant to run at all);
  ``<!-- docs-check: deep -->`` runs a slow block (JAX compiling for tens of seconds) only in CI's
  second step (the file's ``deep`` case, ``-m deep``) and keeps it to the parse check otherwise.
  ``candlebox serve`` never ends, so it is always parse-only. ``candlebox report`` runs without drawing
  its plots (slow here; tests/sim checks them).
"""

from __future__ import annotations

import contextlib
import dataclasses
import doctest
import os
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

import click
import typer
from typer.testing import CliRunner

from candlebox.cli import app
from candlebox.sim import report

try:  # typer 0.2x carries its own copy of click
    from typer._click.exceptions import ClickException as _VendoredClickException

    USAGE_ERRORS: tuple[type[Exception], ...] = (click.ClickException, _VendoredClickException)
except ImportError:  # pragma: no cover - older typer uses click itself
    USAGE_ERRORS = (click.ClickException,)
EXITS = (click.exceptions.Exit, typer.Exit)

ROOT = Path(__file__).resolve().parents[2]
RUN_LANGUAGES = {
    "python": "python",
    "py": "python",
    "pycon": "python",
    "bash": "shell",
    "sh": "shell",
}
MARKER = re.compile(r"<!--\s*docs-check:\s*(parse-only|skip|deep)\s*-->")
FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<lang>[\w+-]*)[ \t]*$")
NEVER_ENDS = {"serve", "bots-worker"}  # started for real, these would not return: parsed only
SMALL_GAMES = 2
SMALL_TURNS = "max_turns=30"
SMALL_ITERATIONS = 8


@dataclass(frozen=True)
class Block:
    path: Path
    line: int  # the line of the opening fence, from 1
    kind: str  # "python" or "shell"
    code: str
    mode: str  # "run", "parse-only", "skip" or "deep" (run in CI's second step only)

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT) if self.path.is_relative_to(ROOT) else self.path}:{self.line}"


def markdown_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def blocks(path: Path, text: str | None = None) -> list[Block]:
    """The fenced blocks of a Markdown file that are Python or shell, with their opt-out mode."""
    lines = (path.read_text(encoding="utf-8") if text is None else text).splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        start, lang = i, match["lang"].lower()
        i += 1
        body: list[str] = []
        while i < len(lines) and lines[i].strip() != "```":
            body.append(lines[i])
            i += 1
        i += 1  # the closing fence
        kind = RUN_LANGUAGES.get(lang)
        if kind is None:
            continue
        before = next((lines[j] for j in range(start - 1, -1, -1) if lines[j].strip()), "")
        marker = MARKER.search(before)
        indent = len(match["indent"])
        code = "\n".join(line[indent:] for line in body) + "\n"
        found.append(Block(path, start + 1, kind, code, marker[1] if marker else "run"))
    return found


# ----------------------------------------------------------------------------- Python
def run_python(block: Block, namespace: dict[str, Any]) -> None:
    """Run a Python block: as a doctest when it has ``>>>`` lines, as a script otherwise."""
    if re.search(r"^\s*>>>", block.code, re.MULTILINE):
        parser = doctest.DocTestParser()
        test = parser.get_doctest(block.code, namespace, block.where, str(block.path), block.line)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        report: list[str] = []
        runner.run(test, out=report.append, clear_globs=False)
        if runner.failures:
            raise AssertionError(f"{block.where}: a doctest failed\n{''.join(report)}")
        return
    code = compile(block.code, block.where, "exec")
    exec(code, namespace)


# ----------------------------------------------------------------------------- shell
def commands(block: Block) -> list[list[str]]:
    """Every ``candlebox ...`` command of a shell block, as argument lists (without 'candlebox')."""
    found = []
    text = block.code.replace("\\\n", " ")
    for line in text.splitlines():
        try:
            words = shlex.split(line, comments=True)
        except ValueError as exc:
            raise AssertionError(f"{block.where}: cannot read {line!r}: {exc}") from None
        command: list[str] = []
        for word in [*words, "&&"]:
            if word in ("&&", ";", "||", "|"):
                if command and command[0] == "candlebox":
                    found.append(command[1:])
                command = []
            else:
                command.append(word)
    return found


def click_command() -> Any:
    """The command line as a click group (typer's own copy of click, or click itself)."""
    return typer.main.get_command(app)


def parse(args: list[str], where: str) -> str:
    """Check a command line against the real CLI without running it; its subcommand's name."""
    group = click_command()
    try:
        with group.make_context("candlebox", list(args)) as context:
            # click keeps the subcommand and its arguments aside until it invokes the group
            protected = getattr(context, "_protected_args", None)
            if protected is None:
                protected = context.protected_args
            name, sub, rest = group.resolve_command(context, [*protected, *context.args])
            assert sub is not None and name is not None
            with sub.make_context(name, rest, parent=context):
                return name
    except EXITS:  # --help and the like
        return args[0] if args else ""
    except USAGE_ERRORS as exc:
        raise AssertionError(
            f"{where}: `candlebox {shlex.join(args)}` does not parse: {exc.format_message()}"
        ) from None


def small(name: str, args: list[str]) -> list[str]:
    """The same command with small sizes, so the docs run in seconds."""
    out = list(args)
    for flag, most in (("-n", SMALL_GAMES), ("--games", SMALL_GAMES), ("--jobs", 1), ("-j", 1)):
        for i, word in enumerate(out[:-1]):
            if word == flag and out[i + 1].isdigit():
                out[i + 1] = str(min(int(out[i + 1]), most))
    if name in ("simulate", "play") and not any("max_turns=" in word for word in out):
        out += ["--option", SMALL_TURNS]
    # a searching bot thinks briefly: ismcts:iterations=400 -> 8, seconds=1 -> 0.02
    out = [re.sub(r"iterations=\d+", f"iterations={SMALL_ITERATIONS}", word) for word in out]
    return [re.sub(r"seconds=[\d.]+", "seconds=0.02", word) for word in out]


def run_shell(block: Block) -> None:
    for args in commands(block):
        name = parse(args, block.where)
        if block.mode != "run" or name in NEVER_ENDS or "--help" in args:
            continue
        # The report's tables and ratings are built, but its plots are not drawn: matplotlib takes
        # seconds per figure here, and tests/sim/test_report.py checks the plots.
        with mock.patch.object(report, "have_matplotlib", lambda: False):
            result = CliRunner().invoke(app, small(name, args), input="")
        if result.exit_code != 0:
            raise AssertionError(
                f"{block.where}: `candlebox {shlex.join(args)}` failed (exit {result.exit_code}):\n"
                f"{result.output[-2000:]}"
            )


# ----------------------------------------------------------------------------- a file
@contextlib.contextmanager
def inside(directory: Path) -> Iterator[None]:
    old = Path.cwd()
    os.chdir(directory)
    try:
        yield
    finally:
        os.chdir(old)


def has_deep_blocks(path: Path, text: str | None = None) -> bool:
    return any(block.mode == "deep" for block in blocks(path, text))


def check_file(path: Path, scratch: Path, text: str | None = None, deep: bool = False) -> int:
    """Run every example of one Markdown file from ``scratch``; the number of blocks checked. Its
    ``deep`` blocks run only with ``deep`` and are parsed otherwise."""
    namespace: dict[str, Any] = {"__name__": "__docs__"}
    checked = 0
    with inside(scratch):
        for block in blocks(path, text):
            if block.mode == "skip":
                continue
            if block.mode == "deep":
                block = dataclasses.replace(block, mode="run" if deep else "parse-only")
            if block.kind == "python":
                if block.mode == "run":
                    run_python(block, namespace)
                else:
                    compile(block.code, block.where, "exec")
            else:
                run_shell(block)
            checked += 1
    return checked
