"""Rules inside the app: each game's "How to play" text, which section every decision and move kind
rests on, the rulings that apply to a configuration, and the learn mode's explanations.

All of it is data in the game's package (``content/how_to_play.md``, ``content/learn.json`` and
``content/rulings.json``, the last generated from docs/rulings.md by ``python -m tests.learn.rulings
--write``); this module only reads it, so the terminal, the server and outside tools share one source.
Section anchors are the slugs of the how-to-play headings, which use the rulebook's section words.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

from candlebox.engine.registry import Variant, game_info, resolve
from candlebox.engine.state import State
from candlebox.engine.words import WordsError, components

_HEADING = re.compile(r"^(#{2,3}) +(.+?) *$")
_TICKED = re.compile(r"`([a-z_]+)`")


def slug(title: str) -> str:
    """A heading's anchor: lower case words joined by hyphens ("Guarding Your Menorah" →
    ``guarding-your-menorah``)."""
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


@dataclass(frozen=True)
class Section:
    anchor: str
    title: str


@dataclass(frozen=True)
class Ruling:
    """One ruling of docs/rulings.md: its number, title, the part of the game's chapter it is in,
    and its decision and reasons (markdown, without the rulebook quotes)."""

    id: str
    title: str
    part: str
    text: str

    def options(self, names: set[str]) -> list[str]:
        """The game's options the ruling's title names (``— option `bank```)."""
        return [name for name in _TICKED.findall(self.title) if name in names]


@dataclass(frozen=True)
class LearnSetup:
    """The first game the learn mode offers: a variant, two players, and why that variant."""

    variant: str
    players: int
    bot: str
    why: str


@dataclass(frozen=True)
class LearnOption:
    """One legal action explained: its notation, its label, what it does and the rule behind it."""

    action: str
    label: str
    does: str  # what this kind of move does
    anchor: str
    section: str
    # the components the action names, each {"code", "name", "text"}
    components: list[dict[str, str]] = field(default_factory=list)

    def explained(self) -> str:
        """What it does, then each component's text, as one paragraph (the terminal's)."""
        parts = [self.does] + [f"{c['name']}: {c['text']}" for c in self.components]
        return " ".join(p for p in parts if p)


@dataclass(frozen=True)
class HowTo:
    game_id: str
    markdown: str
    sections: dict[str, Section]
    decisions: dict[str, str]  # pending decision (or "name?field=value") → anchor
    moves: dict[str, str]  # move kind (verb) → anchor
    does: dict[str, str]  # move kind → what that kind of move does, for a learner
    # variant → move kind → what it does there, where the variant changes it (the junior game's flip)
    does_in: dict[str, dict[str, str]]
    explain: dict[str, str]  # log event → why a player makes that kind of move
    quiet: frozenset[str]  # log events that need no reason (the game's own bookkeeping)
    learn: LearnSetup
    # a component kind → codes to explain with it ("{code}": its code), e.g. a house's powers
    related: dict[str, list[str]]
    scope: dict[str, dict[str, Any]]  # ruling id or part → {"variants": [...]} / {"option": name}
    rulings: tuple[Ruling, ...]

    def does_of(self, verb: str, variant: str) -> str:
        """What a move kind does in a variant: the variant's own words, else the game's."""
        return self.does_in.get(variant, {}).get(verb) or self.does.get(verb, "")

    @property
    def summary(self) -> str:
        """What the game is about, in a few lines: the page's first paragraph under its title (for
        the lobby, before anyone opens the rules)."""
        lines: list[str] = []
        for line in self.markdown.splitlines():
            if _HEADING.match(line) or line.startswith("#"):
                if lines:
                    break
                continue
            if line.strip():
                lines.append(line.strip())
            elif lines:
                break
        return " ".join(lines)

    # ------------------------------------------------------------------ links
    def section(self, anchor: str | None) -> Section | None:
        return None if anchor is None else self.sections.get(anchor)

    def rule_of_pending(self, pending: dict[str, Any] | None) -> Section | None:
        """The section behind a pending decision (a refinement by one of its fields first)."""
        if not pending:
            return None
        name = str(pending.get("decision", ""))
        for key, value in pending.items():
            if isinstance(value, str | int | bool):
                anchor = self.decisions.get(f"{name}?{key}={_plain(value)}")
                if anchor is not None:
                    return self.section(anchor)
        return self.section(self.decisions.get(name))

    def rule_of_action(self, action: str) -> Section | None:
        return self.section(self.moves.get(action.split(" ", 1)[0]))

    def section_text(self, anchor: str) -> str:
        """The how-to-play text of one section (its heading and its body, subsections included) as
        plain markdown; "" for an unknown anchor."""
        out: list[str] = []
        level = 0
        for line in self.markdown.splitlines():
            match = _HEADING.match(line)
            if match and level and len(match.group(1)) <= level:
                break
            if match and slug(match.group(2)) == anchor:
                level = len(match.group(1))
            if level:
                out.append(line)
        return "\n".join(out).strip()

    def why(self, entry: dict[str, Any]) -> str | None:
        """Why a player makes the kind of move this log entry records (None: bookkeeping)."""
        return self.explain.get(str(entry.get("event", "")))

    # ------------------------------------------------------------------ rulings
    def applies(self, ruling: Ruling, variant: str, options: dict[str, Any]) -> bool:
        for key in (ruling.id, ruling.part):
            rule = self.scope.get(key)
            if rule is None:
                continue
            if "variants" in rule and variant not in rule["variants"]:
                return False
            if "option" in rule and not options.get(rule["option"]):
                return False
        return True

    def rulings_for(
        self, variant: str, options: dict[str, Any]
    ) -> list[tuple[Ruling, dict[str, Any]]]:
        """The rulings that apply to the variant and options, each with the values of the options
        its title names (the configuration's, defaults filled in)."""
        names = set(options)
        return [
            (ruling, {name: options[name] for name in ruling.options(names)})
            for ruling in self.rulings
            if self.applies(ruling, variant, options)
        ]


def _plain(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _content(game_id: str, name: str) -> str:
    """One file of the game's declared ``how_to`` folder (OSError when it has none or lacks it)."""
    folder = game_info(game_id).how_to()
    if folder is None:
        raise FileNotFoundError(f"{game_id}: no how_to capability")
    return folder.read_text(name)


def sections_of(markdown: str) -> dict[str, Section]:
    out: dict[str, Section] = {}
    for line in markdown.splitlines():
        match = _HEADING.match(line)
        if match:
            title = match.group(2)
            out[slug(title)] = Section(slug(title), title)
    return out


@cache
def how_to_play(game_id: str) -> HowTo:
    """The game's how-to-play data (ValueError for an unknown game, as ``game_info``); for a game
    that declares no ``how_to`` folder, one generated from its variants, options and words."""
    if game_info(game_id).how_to() is None:
        return generated_how_to(game_id)
    markdown = _content(game_id, "how_to_play.md")
    data = json.loads(_content(game_id, "learn.json"))
    try:
        rulings = json.loads(_content(game_id, "rulings.json"))
    except (
        OSError
    ):  # a game without rulings of its own (only the built-in games have docs/rulings.md)
        rulings = []
    learn = data["learn"]
    return HowTo(
        game_id=game_id,
        markdown=markdown,
        sections=sections_of(markdown),
        decisions=dict(data["decisions"]),
        moves=dict(data["moves"]),
        does=dict(data["does"]),
        does_in={name: dict(texts) for name, texts in data.get("does_in", {}).items()},
        explain=dict(data["explain"]),
        quiet=frozenset(data["quiet"]),
        learn=LearnSetup(learn["variant"], learn["players"], learn["bot"], learn["why"]),
        related={kind: list(codes) for kind, codes in data.get("related", {}).items()},
        scope=dict(data.get("scope", {})),
        rulings=tuple(Ruling(r["id"], r["title"], r["part"], r["text"]) for r in rulings),
    )


# The learn mode's rival in a generated page: the easiest level, or the random bot for a game
# without a heuristic (the levels play through it).
GENERATED_BOT = "easy"


def generated_how_to(game_id: str) -> HowTo:
    """A how-to page made from what the plug-in declares (its variants and options, each with its
    words, and the summary of its rules in its text capability, if any): a game without a page of
    its own still has one, and ``play --learn`` still plays its first variant at its smallest table."""
    info = game_info(game_id)
    text = info.text()
    first = info.variants[0]
    lines = [f"# {info.title}", ""]
    summary = text.for_variant(text.rules, first.name) if text is not None else ""
    lines += [summary or f"{info.title} is a game for {_players(first)}: {first.doc}.", ""]
    lines += ["## Variants", ""]
    for variant in info.variants:
        lines.append(f"- **{variant.name}** ({_players(variant)}): {variant.doc}")
    for variant in info.variants:
        if variant.options:
            lines += ["", f"## Options of {variant.name}", ""]
            lines += [f"- `{opt.name}`: {opt.doc}" for opt in variant.options]
    lines += ["", "## Moves", ""]
    state = info.create(
        first.name, first.min_players, 0, resolve(game_id, first.min_players, first.name, {})[2]
    )
    kinds = type(state).MOVES
    lines += [f"- `{kind.verb}`: {kind.doc}" for kind in kinds] or [
        "Every legal move is listed in the game."
    ]
    markdown = "\n".join(lines) + "\n"
    return HowTo(
        game_id=game_id,
        markdown=markdown,
        sections=sections_of(markdown),
        decisions={},
        moves={kind.verb: "moves" for kind in kinds},
        does={kind.verb: kind.doc for kind in kinds},
        does_in={},
        explain={},
        quiet=frozenset(),
        learn=LearnSetup(
            first.name,
            first.min_players,
            GENERATED_BOT if info.policy() is not None else "random",
            f"the {first.name} variant at its smallest table ({_players(first)}); "
            "this game has no how-to page of its own, so this one is made from its rules' data",
        ),
        related={},
        scope={},
        rulings=(),
    )


def _players(variant: Variant) -> str:
    low, high = variant.min_players, variant.max_players
    return f"{low} players" if low == high else f"{low}–{high} players"


def configuration(
    game_id: str, variant: str | None, options: dict[str, Any]
) -> tuple[str, dict[str, Any]]:
    """A variant and its options, checked and with defaults filled in, for the rulings page (players
    do not matter to which rulings apply: the variant's smallest count is used). ValueError names
    what is wrong."""
    info = game_info(game_id)
    var = info.variant(variant) if variant is not None else info.variants[0]
    _, checked, opts = resolve(game_id, var.min_players, var.name, dict(options))
    return checked.name, opts


# ----------------------------------------------------------------------------- learn mode
@lru_cache(maxsize=64)
def _words(game_id: str, variant: str, players: int, options: str) -> dict[str, dict[str, str]]:
    try:
        return components(game_id, variant, players=players, **json.loads(options))
    except (WordsError, ValueError, TypeError, ImportError):
        return {}


def state_words(state: State) -> dict[str, dict[str, str]]:
    """Every component of the state's configuration with its name and text."""
    try:
        key = json.dumps(state.options, sort_keys=True)
    except TypeError:  # an option that is no plain data (a content pack object): no words
        return {}
    return _words(state.game_id, state.variant, state.num_players, key)


_CODE_TOKEN = re.compile(r"[A-Za-z0-9:+\-]+")


def codes_in(action: str, label: str, words: dict[str, dict[str, str]]) -> list[str]:
    """The component codes an action names (a bare code, or ``verb:code`` as ``house C`` names
    ``house:C``), else those its label names; in order, each once."""
    verb = action.split(" ", 1)[0]
    for text in (action, label):
        seen: list[str] = []
        for token in _CODE_TOKEN.findall(text):
            for code in (token, f"{verb}:{token}"):
                if code in words and code not in seen:
                    seen.append(code)
        if seen:
            return seen
    return []


def explain_options(state: State, seat: int) -> list[LearnOption]:
    """Every legal action of ``seat`` with its label, what it does (the move kind's explanation and
    the text of each component it names) and the section of the rules behind it."""
    howto = how_to_play(state.game_id)
    words = state_words(state)
    out = []
    for action in state.legal_actions(seat):
        label = state.label(seat, action)
        verb = action.split(" ", 1)[0]
        codes = codes_in(action, label, words)
        for code in list(codes):
            kind, _, bare = code.partition(":")
            for pattern in howto.related.get(kind, []) if bare else []:
                extra = pattern.format(code=bare)
                if extra in words and extra not in codes:
                    codes.append(extra)
        named = [
            {"code": code, "name": words[code]["name"], "text": words[code]["text"]}
            for code in codes
        ]
        section = howto.rule_of_action(action)
        out.append(
            LearnOption(
                action=action,
                label=label,
                does=howto.does_of(verb, state.variant),
                anchor=section.anchor if section else "",
                section=section.title if section else "",
                components=named,
            )
        )
    return out


def rule_link(state: State) -> dict[str, str] | None:
    """The section behind the state's pending decision, as ``{"anchor", "title"}``; None when the
    game is over or the decision has no section (a generated page has none)."""
    section = how_to_play(state.game_id).rule_of_pending(state.pending())
    return None if section is None else {"anchor": section.anchor, "title": section.title}
