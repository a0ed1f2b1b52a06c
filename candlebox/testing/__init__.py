"""The conformance kit: the whole conformance suite as a function of a game id.

``check(game_id)`` runs every check on a registered game — seeded random and heuristic games at every
variant and player count (the engine contract, refusals, saving and loading, secrecy through resampled
twins, the same seed replaying the same game), words and texts, the terminal board, typed views,
standings, RL encoders, perft counts and take-backs — and returns a :class:`Report`. What is particular to a game
(its invariants, the story its events tell, how to read the codes it shows, its test data) comes from
its plug-in: the ``conformance`` capability, a :class:`candlebox.engine.plugin.Conformance`. A part
the game lacks the capability for is skipped and says why. ``candlebox check GAME`` prints the
report and exits non-zero on a failure; the repository's tests call the same functions for every
registered game (tests/conformance).

>>> from candlebox import testing
>>> report = testing.check("candle-quest", parts=["perft"], quick=True)
>>> report.ok
True
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from types import ModuleType
from typing import Any

from candlebox.engine import game_info
from candlebox.testing import contract, perft, undo, views, words

PARTS = ("contract", "words", "texts", "terminal", "views", "standings", "encoder", "perft", "undo")


class Skip(Exception):
    """A case that does not apply to the game (a capability it lacks); the text says why."""


@dataclass(frozen=True)
class Case:
    """One check of one configuration: ``run()`` raises AssertionError (or any error) on failure."""

    part: str
    name: str
    run: Callable[[], object]


@dataclass(frozen=True)
class Outcome:
    case: Case
    status: str  # "passed", "failed" or "skipped"
    detail: str  # why it failed or was skipped ("" when it passed)
    seconds: float


@dataclass
class Report:
    game: str
    outcomes: list[Outcome] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(1 for outcome in self.outcomes if outcome.status == status)

    @property
    def ok(self) -> bool:
        """Nothing failed, and something was checked."""
        return self.count("failed") == 0 and self.count("passed") > 0

    def summary(self) -> str:
        seconds = sum(outcome.seconds for outcome in self.outcomes)
        verdict = "passes" if self.ok else "FAILS"
        return (
            f"{self.game} {verdict} the conformance kit: {self.count('passed')} passed, "
            f"{self.count('failed')} failed, {self.count('skipped')} skipped ({seconds:.1f}s)"
        )


def _skip(reason: str) -> None:
    raise Skip(reason)


def _skipped(part: str, reason: str) -> list[Case]:
    return [Case(part, "(all)", partial(_skip, reason))]


def _label(variant: str, players: int, options: dict[str, Any] | None = None) -> str:
    extra = ",".join(f"{k}={v}" for k, v in (options or {}).items())
    return f"{variant}-{players}p" + (f"-{extra}" if extra else "")


def _ends(found: list[Any], players_of: Callable[[Any], int]) -> list[Any]:
    """Only the configurations at each variant's fewest and most players (the quick check)."""
    by_variant: dict[Any, list[int]] = {}
    for config in found:
        by_variant.setdefault(config[0], []).append(players_of(config))
    return [c for c in found if players_of(c) in (min(by_variant[c[0]]), max(by_variant[c[0]]))]


def _contract(game: str, quick: bool) -> list[Case]:
    seeds = (0,) if quick else contract.SEEDS
    configs = contract.configurations(game)
    if quick:
        configs = _ends(configs, lambda c: c[1])
    found = [Case("contract", "registry facts", partial(contract.registry_facts, game))]
    found += [
        Case(
            "contract", f"random {_label(v, p)}", partial(contract.random_games, game, v, p, seeds)
        )
        for v, p in configs
    ]
    if game_info(game).policy() is None:
        return found + _skipped("contract", "no heuristic: games to their natural end not played")
    return found + [
        Case(
            "contract",
            f"heuristic {_label(v, p)}",
            partial(contract.heuristic_games, game, v, p, seeds),
        )
        for v, p in configs
    ]


def _words(game: str, quick: bool) -> list[Case]:
    if game_info(game).conformance().shown_codes is None:
        return _skipped("words", "the game declares no shown_codes (Conformance)")
    configs = words.word_configurations(game)
    seeds = (1,) if quick else (1, 2)
    if quick:
        configs = _ends(configs, lambda c: c[1])
    return [
        Case("words", _label(v, p, o), partial(words.shown_words, game, v, p, o, seeds))
        for v, p, o in configs
    ]


def _texts(game: str, quick: bool) -> list[Case]:
    if game_info(game).text() is None:
        return _skipped("texts", "no text capability: the generic sentences are used")
    configs = words.text_configurations(game)
    seeds = (0,) if quick else (0, 1)
    if quick:
        configs = _ends(configs, lambda c: c[1])
    return [
        Case(
            "texts", _label(v, p, o), partial(words.prompts_labels_sentences, game, v, p, o, seeds)
        )
        for v, p, o in configs
    ]


def _terminal(game: str, quick: bool) -> list[Case]:
    configs = words.board_configurations(game)
    if quick:
        configs = configs[:1]
    return [
        Case("terminal", _label(v, p, o), partial(words.board_names_every_code, game, v, p, o))
        for v, p, o in configs
    ] + (
        [Case("terminal", "40 columns", partial(words.narrow_terminal_cuts_nothing, game))]
        if game_info(game).renderer() is not None
        else []
    )


def _views(game: str, quick: bool) -> list[Case]:
    if game_info(game).view_type() is None:
        return _skipped("views", "no typed view: the plain view is the view")
    configs = contract.configurations(game)
    if quick:
        configs = configs[:1]
    found = [
        Case("views", _label(v, p), partial(views.typed_view_is_the_view, game, v, p))
        for v, p in configs
    ]
    return [
        *found,
        Case("views", "a finished game", partial(views.finished_game_has_typed_views, game)),
    ]


def _standings(game: str, quick: bool) -> list[Case]:
    configs = views.standings_configurations(game)
    if quick:
        configs = configs[:1]
    return [
        Case("standings", _label(v, p, o), partial(views.standings_agree, game, v, p, o))
        for v, p, o in configs
    ]


def encoders_module() -> ModuleType:
    """The encoder checks (numpy and the RL adapters: the ``rl`` extra), imported when used."""
    return importlib.import_module("candlebox.testing.encoders")


def _encoder(game: str, quick: bool) -> list[Case]:
    if game_info(game).capabilities.encoding is None:
        return _skipped("encoder", "no encoding capability: the RL adapters do not list the game")
    try:
        module = encoders_module()
    except ModuleNotFoundError as exc:
        return _skipped("encoder", f"{exc.name} is not installed (pip install 'candlebox[rl]')")
    configs = module.configurations(game)
    seeds = range(1) if quick else range(3)
    if quick:
        configs = configs[:1]
    found = [
        Case(
            "encoder",
            _label(v, p),
            partial(module.numbering_masks_and_observations, game, v, p, None, seeds),
        )
        for v, p in configs
    ]
    v, p = configs[-1]
    return [
        *found,
        Case(
            "encoder",
            f"twins {_label(v, p)}",
            partial(module.observation_depends_on_the_view_alone, game, v, p),
        ),
    ]


def _perft(game: str, quick: bool) -> list[Case]:
    if perft.counts_file(game) is None:
        return _skipped("perft", "the game keeps no perft counts (Conformance.perft_counts)")
    entries = perft.load(game)
    if quick:
        entries = [e for e in entries if e["seed"] == perft.SEEDS[0] and e["steps"] <= 10]
    found = [Case("perft", "every position has counts", partial(perft.check_coverage, game))]
    return found + [
        Case("perft", perft.entry_key(e), partial(perft.check_entry, e)) for e in entries
    ]


def _undo(game: str, quick: bool) -> list[Case]:
    seeds = undo.SEEDS[:1] if quick else undo.SEEDS
    configs = contract.configurations(game)
    if quick:
        configs = _ends(configs, lambda c: c[1])
    return [
        Case("undo", _label(v, p), partial(undo.take_backs, game, v, p, seeds)) for v, p in configs
    ]


BUILDERS: dict[str, Callable[[str, bool], list[Case]]] = {
    "contract": _contract,
    "words": _words,
    "texts": _texts,
    "terminal": _terminal,
    "views": _views,
    "standings": _standings,
    "encoder": _encoder,
    "perft": _perft,
    "undo": _undo,
}


def cases(game: str, parts: Iterable[str] | None = None, quick: bool = False) -> list[Case]:
    """The checks ``check`` runs, in order (``quick``: fewer seeds and configurations)."""
    game_info(game)  # an unknown game is refused here, naming the registered ones
    chosen = list(PARTS if parts is None else parts)
    unknown = [part for part in chosen if part not in BUILDERS]
    if unknown:
        raise ValueError(f"unknown part {unknown[0]!r}; parts: {', '.join(PARTS)}")
    return [case for part in chosen for case in BUILDERS[part](game, quick)]


def run(case: Case) -> Outcome:
    start = time.perf_counter()
    try:
        case.run()
    except Skip as exc:
        return Outcome(case, "skipped", str(exc), time.perf_counter() - start)
    except Exception as exc:  # a failing check is reported, and the next one runs
        detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        return Outcome(case, "failed", detail, time.perf_counter() - start)
    return Outcome(case, "passed", "", time.perf_counter() - start)


def check(
    game: str,
    parts: Sequence[str] | None = None,
    quick: bool = False,
    progress: Callable[[Outcome], None] | None = None,
) -> Report:
    """Run the conformance kit on a registered game; ``progress`` hears each outcome as it comes."""
    report = Report(game)
    for case in cases(game, parts, quick):
        outcome = run(case)
        report.outcomes.append(outcome)
        if progress is not None:
            progress(outcome)
    return report


__all__ = ["PARTS", "Case", "Outcome", "Report", "Skip", "cases", "check", "run"]
