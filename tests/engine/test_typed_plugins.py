"""The typed plug-in API (issue 39): ``GameInfo[StateT, ViewT]`` and typed ``Lazy`` references.

- The type checker holds a plug-in to its declared types: mypy passes the game ``candlebox new-game``
  writes, and reports, in that game's own package, a view class that is not what its view function
  returns, and a capability given as itself that is not of its slot's type.
- A ``Lazy`` reference's errors name what is wrong: a module or attribute not found, a malformed name,
  and (through ``GameInfo``) an object of the wrong type, naming the game, the capability and what
  was found. The old ``"module:ATTRIBUTE"`` string still loads, with a DeprecationWarning.
- Importing a game imports none of its lazily declared heavy capabilities (renderer, encoder, JAX
  rules) until asked for.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import re
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import candlebox
from candlebox import testing
from candlebox.engine import (
    Capabilities,
    GameInfo,
    Lazy,
    game_info,
    register,
    registry,
    unregister,
)
from candlebox.engine.lazy import LazyError
from candlebox.engine.plugin import GameText, Renderer
from candlebox.scaffold import write_game
from candlebox.testing import views

ROOT = Path(__file__).resolve().parents[2]
CQ = game_info("candle-quest")


# ----------------------------------------------------------------------------- mypy
def _mypy(project: Path, package: str) -> subprocess.CompletedProcess[str]:
    """mypy on a generated game's package with the project's own settings (strict), reading this
    checkout's candlebox (MYPYPATH; candlebox's own errors are ``mypy candlebox``'s, not shown)."""
    pytest.importorskip("mypy", reason="mypy is not installed (the dev extra)")
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--no-error-summary",
            "--hide-error-context",
            "--show-error-codes",
            "--follow-imports=silent",
            "--cache-dir",
            str(project / ".mypy_cache"),
            "-p",
            package,
        ],
        cwd=project,
        env={**os.environ, "MYPYPATH": str(ROOT)},
        capture_output=True,
        text=True,
    )


def _errors(done: subprocess.CompletedProcess[str], package: str) -> list[str]:
    return [line for line in done.stdout.splitlines() if line.startswith(f"{package}/")]


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{path.name} no longer has {old!r}"
    path.write_text(text.replace(old, new))


@pytest.mark.deep  # two runs of mypy: half a minute (CI's second step)
def test_mypy_holds_a_plugin_to_its_view_type(tmp_path: Path) -> None:
    project = tmp_path / "duel"
    write_game("lantern-duel", project)
    package = project / "lantern_duel"
    good = _mypy(project, "lantern_duel")
    assert good.returncode == 0, good.stdout + good.stderr

    # The declared view class is another than the one the view function returns.
    _edit(package / "__init__.py", "        view=BidsView,", "        view=SeatView,")
    _edit(
        package / "__init__.py",
        "from .views import BidsView",
        "from .views import BidsView, SeatView",
    )
    # ... a capability given as itself is not of its slot's type, and the old string form (which
    # still loads) is no longer of the type either.
    _edit(
        package / "__init__.py",
        "        how_to=HOW_TO,",
        '        how_to=HOW_TO,\n        scoring=HOW_TO,\n        uses="lantern_duel.words:components",',
    )
    bad = _mypy(project, "lantern_duel")
    errors = _errors(bad, "lantern_duel")
    assert bad.returncode == 1, bad.stdout + bad.stderr
    view_error = [line for line in errors if "SeatView" in line]
    assert view_error and all("lantern_duel/__init__.py" in line for line in view_error), errors
    assert any('"scoring"' in line and '"PackageData"' in line for line in errors), errors
    assert any('"uses"' in line and '"str"' in line for line in errors), errors


def test_the_kit_holds_the_declared_view_function_to_the_states_view(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What the type checker cannot see: the view function a plug-in declares must give the
    state's own typed view (here one that shows every seat the spectator's view)."""
    views.finished_game_has_typed_views("candle-quest")
    spectators = dataclasses.replace(CQ, typed_view=lambda state, seat: state.typed_view(None))
    monkeypatch.setitem(registry._GAMES, "candle-quest", spectators)
    with pytest.raises(AssertionError, match=r"GameInfo\.typed_view, seat \d"):
        views.finished_game_has_typed_views("candle-quest")


def test_the_new_game_passes_the_conformance_kit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``candlebox check`` on the game ``candlebox new-game`` writes (registered by hand here; the
    installed trial is tests/plugins): its typed declaration loads and the whole kit passes."""
    write_game("kit-trial", tmp_path / "trial")
    monkeypatch.syspath_prepend(str(tmp_path / "trial"))
    try:
        plugin = importlib.import_module("kit_trial")
        register(plugin.INFO)
        report = testing.check("kit-trial")
        failed = [
            f"{o.case.part}: {o.case.name}: {o.detail}"
            for o in report.outcomes
            if o.status == "failed"
        ]
        assert report.ok, failed
    finally:
        unregister("kit-trial")
        for name in [name for name in sys.modules if name.split(".")[0] == "kit_trial"]:
            del sys.modules[name]


# ----------------------------------------------------------------------------- Lazy
def test_a_lazy_reference_imports_on_first_use_and_is_kept() -> None:
    text: Lazy[GameText] = Lazy("candlebox.games.candle_quest.text", "TEXT")
    assert str(text) == "candlebox.games.candle_quest.text:TEXT"
    assert text.load() is text.load() is CQ.text()
    assert Lazy.path(" candlebox.engine.plugin : PLAIN ") == Lazy(
        "candlebox.engine.plugin", "PLAIN"
    )
    assert Lazy("candlebox.engine.plugin", "PLAIN.code").load()("x") == "x"  # a dotted attribute


@pytest.mark.parametrize(
    ("module", "attribute", "words"),
    [
        (
            "candlebox.no_such_module",
            "X",
            "the module 'candlebox.no_such_module' cannot be imported",
        ),
        ("candlebox.engine.plugin", "NoSuchThing", "has no attribute 'NoSuchThing'"),
        ("candlebox.engine.plugin", "PLAIN.nothing", "has no attribute 'nothing'"),
    ],
)
def test_a_lazy_reference_not_found_says_what(module: str, attribute: str, words: str) -> None:
    with pytest.raises(LazyError, match=re.escape(words)) as raised:
        Lazy(module, attribute).load()
    assert f"{module}:{attribute}" in str(raised.value)
    assert isinstance(raised.value, ImportError)


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: Lazy("candlebox engine", "X"), "module must be a dotted Python name"),
        (lambda: Lazy("candlebox.engine", ""), "attribute must be a dotted Python name"),
        (lambda: Lazy("candlebox.engine", 3), "attribute must be a dotted Python name, got 3"),
        (lambda: Lazy.path("candlebox.engine.plugin.PLAIN"), "no colon"),
    ],
)
def test_a_malformed_lazy_reference_is_refused_when_made(
    make: Callable[[], object], words: str
) -> None:
    with pytest.raises(ValueError, match=re.escape(words)):
        make()


def _with(**capabilities: Any) -> GameInfo[Any, Any]:
    """Candle Quest with only these capabilities."""
    return dataclasses.replace(CQ, capabilities=Capabilities(**capabilities))


def test_a_capability_of_the_wrong_type_names_the_game_the_capability_and_what_was_found() -> None:
    wrong = _with(renderer=Lazy("candlebox.engine.plugin", "PLAIN"))
    with pytest.raises(TypeError) as raised:
        wrong.renderer()
    assert str(raised.value) == (
        "Candle Quest: the renderer capability candlebox.engine.plugin:PLAIN is a Marks, "
        "not a Renderer"
    )
    with pytest.raises(
        TypeError, match=r"the heuristic capability is an int \(42\), not a function"
    ):
        _with(heuristic=42).policy()
    with pytest.raises(TypeError, match=r"the view capability .*:TEXT is a GameText, not a class"):
        _with(view=Lazy("candlebox.games.candle_quest.text", "TEXT")).view_type()
    with pytest.raises(
        ImportError, match=r"Candle Quest: the words capability .*no attribute 'nope'"
    ):
        _with(words=Lazy("candlebox.games.candle_quest.words", "nope")).words()
    with pytest.raises(ValueError, match="'colour' is not a capability"):
        CQ.capability("colour")


def test_a_capability_given_as_itself_is_checked_too() -> None:
    renderer = CQ.renderer()
    assert isinstance(renderer, Renderer)
    assert _with(renderer=renderer).renderer() is renderer
    with pytest.raises(TypeError, match="the text capability is a Renderer, not a GameText"):
        _with(text=renderer).text()


def test_the_old_string_form_still_loads_with_a_deprecation_warning() -> None:
    with pytest.warns(
        DeprecationWarning,
        match=re.escape("declare it as Lazy('candlebox.games.candle_quest.text', 'TEXT')"),
    ):
        old = _with(text="candlebox.games.candle_quest.text:TEXT")
    assert old.capabilities.text == Lazy("candlebox.games.candle_quest.text", "TEXT")
    assert old.text() is CQ.text()
    with pytest.raises(ValueError, match="no colon"):  # a malformed one fails when declared
        _with(text="candlebox.games.candle_quest.text.TEXT")


# ----------------------------------------------------------------------------- laziness
HEAVY = ("renderer", "encoding", "jax")  # rich, numpy, JAX

LAZY_SCRIPT = f"""
import json, sys
import candlebox
from candlebox.engine import Lazy
heavy = {{}}
for game in candlebox.game_ids():
    info = candlebox.game_info(game)
    v = info.variants[0]
    s = candlebox.new_game(game, players=v.min_players, variant=v.name, seed=1)
    s.apply(s.to_act[0], s.legal_actions(s.to_act[0])[0])
    for kind in {HEAVY!r}:
        declared = getattr(info.capabilities, kind)
        if declared is not None:
            heavy[f"{{game}} {{kind}}"] = [isinstance(declared, Lazy), declared.module in sys.modules]
info = candlebox.game_info("candle-quest")
info.renderer()
print(json.dumps({{"heavy": heavy, "loaded": info.capabilities.renderer.module in sys.modules}}))
"""


def test_a_games_heavy_capabilities_are_declared_lazily_and_imported_only_when_asked_for() -> None:
    done = subprocess.run(
        [sys.executable, "-c", LAZY_SCRIPT], capture_output=True, text=True, cwd=ROOT, check=True
    )
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["heavy"], "no game declares a heavy capability"
    assert set(found["heavy"]) >= {f"{game} renderer" for game in candlebox.GAMES}
    loaded_early = {name: seen for name, seen in found["heavy"].items() if seen != [True, False]}
    assert not loaded_early, f"[lazy, imported after a move] for each: {loaded_early}"
    assert found["loaded"], "asking for the renderer imports its module"


def test_candlebox_ships_its_types() -> None:
    """PEP 561: the wheel's package data names ``py.typed`` beside candlebox's modules, so a
    plug-in's type checker reads candlebox's types (the test above reads them from the source)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "py.typed" in project["tool"]["setuptools"]["package-data"]["candlebox"]
    assert (ROOT / "candlebox" / "py.typed").is_file()
