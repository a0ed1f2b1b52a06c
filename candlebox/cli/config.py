"""Turning command-line text into a game and its bots: ``--option KEY=VALUE``, ``--bots a,b:k=v``
(a bot by name with its parameters, or one of the game's levels by name: ``--bots easy,hard``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import candlebox
from candlebox import bots
from candlebox.cli.errors import CliError, user_errors
from candlebox.engine import State
from candlebox.engine.levels import Level
from candlebox.engine.plugin import ContentPacks


@dataclass(frozen=True)
class BotSpec:
    """One ``--bots`` entry: ``name`` or ``name:key=value:key=value``."""

    name: str
    params: dict[str, Any] = field(default_factory=dict)
    text: str = ""

    @property
    def label(self) -> str:
        return self.text or self.name


def number_or_text(value: str) -> Any:
    """Bot parameters look like ``depth=3`` or ``c=1.4``: numbers become numbers, the rest stays text."""
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


def game_levels(game_id: str | None) -> dict[str, Level]:
    """The game's levels by name (none without a game, or for a name that is also a bot's)."""
    if game_id is None:
        return {}
    known = bots.available()
    return {
        level.name: level
        for level in candlebox.game_info(game_id).levels
        if level.name not in known and level.bot in known
    }


def parse_bot(text: str, game_id: str | None = None) -> BotSpec:
    """``name`` or ``name:key=value...``; with ``game_id``, a name may be one of its levels."""
    name, *pairs = text.strip().split(":")
    levels = game_levels(game_id)
    choices = f"bots: {', '.join(bots.available())}" + (
        f"; levels: {', '.join(levels)}" if levels else ""
    )
    if not name:
        raise CliError(f"--bots: empty bot name in {text!r}; {choices}")
    if name in levels:
        if pairs:
            raise CliError(f"--bots: {name} is a level, set as it is: drop {':'.join(pairs)}")
        level = levels[name]
        return BotSpec(level.bot, dict(level.params), name)
    if name not in bots.available():
        raise CliError(f"--bots: unknown bot {name!r}; {choices}")
    params: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise CliError(f"--bots: bot parameters are written name:key=value, got {text!r}")
        params[key.strip()] = number_or_text(value.strip())
    spec = BotSpec(name, params, text.strip())
    with user_errors("--bots: "):
        bots.make(spec.name, seed=0, **spec.params)  # fail now, not in the middle of a game
    return spec


def bot_names(specs: dict[int, BotSpec], game_id: str) -> dict[int, str]:
    """What each bot seat is called while it thinks: "Hard bot" for a level, else "heuristic bot"."""
    levels = game_levels(game_id)
    return {
        seat: f"{spec.text.capitalize()} bot" if spec.text in levels else f"{spec.name} bot"
        for seat, spec in specs.items()
    }


def parse_bots(text: str, seats: list[int], game_id: str | None = None) -> dict[int, BotSpec]:
    """The bot for each of ``seats``: one name for all of them, or one per seat in order (with
    ``game_id``: bot names or the game's level names)."""
    specs = [parse_bot(part, game_id) for part in text.split(",")]
    if len(specs) == 1:
        return dict.fromkeys(seats, specs[0])
    if len(specs) != len(seats):
        raise CliError(
            f"--bots: give one bot for all seats or exactly {len(seats)} (one per seat "
            f"{', '.join(map(str, seats))}); got {len(specs)}"
        )
    return dict(zip(seats, specs, strict=True))


def check_table(specs: dict[int, BotSpec], state: State) -> None:
    """Every bot plays the table of ``state`` (a policy trained for two players does not play three):
    refused before the first move, naming what the bot plays."""
    for spec in {spec.label: spec for spec in specs.values()}.values():
        with user_errors(f"--bots: {spec.label}: "):
            bots.check_table(spec.name, state, **spec.params)


def bot_seed(game_seed: int, seat: int) -> int:
    """Bots' seeds follow from the game's, so a seeded game with seeded bots replays exactly."""
    return game_seed * 100 + seat


def make_bots(specs: dict[int, BotSpec], game_seed: int) -> dict[int, bots.Bot]:
    with user_errors("--bots: "):
        return {
            seat: bots.make(spec.name, seed=bot_seed(game_seed, seat), **spec.params)
            for seat, spec in specs.items()
        }


def variant_for(game_id: str, players: int, variant: str | None) -> candlebox.Variant:
    with user_errors():
        info = candlebox.game_info(game_id)
        return info.variant(variant if variant is not None else info.default_variant(players))


def parse_options(
    game_id: str, players: int, variant: str | None, pairs: list[str]
) -> dict[str, Any]:
    """``KEY=VALUE`` texts parsed with the variant's own option declarations."""
    declared = variant_for(game_id, players, variant)
    known = {opt.name: opt for opt in declared.options}
    # An option the variant lacks is read all the same: new_game accepts it at its fixed value.
    fixed = {pin.option.name: pin.option for pin in declared.fixed if pin.option.name not in known}
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise CliError(f"--option takes KEY=VALUE, got {pair!r}")
        if key in declared.retired:  # accepted and ignored, as new_game does (e.g. 'dancing')
            continue
        if key not in known and key not in fixed:
            names = ", ".join(known) or "none"
            raise CliError(
                f"--option: {game_id} ({declared.name}) has no option {key!r}; options: {names}"
            )
        with user_errors("--option: "):
            options[key] = (known.get(key) or fixed[key]).parse(value)
    return options


def start_game(
    game_id: str, players: int, variant: str | None, seed: int | None, options: dict[str, Any]
) -> State:
    with user_errors():
        return candlebox.new_game(game_id, players=players, variant=variant, seed=seed, **options)


def content_packs(game_id: str) -> ContentPacks:
    """The game's content packs (``candlebox content``), or a CliError naming the game."""
    check_game(game_id)
    packs = candlebox.game_info(game_id).content_packs()
    if packs is None:
        raise CliError(f"{game_id} has no content packs")
    return packs


def design_option(game_id: str) -> str:
    """``--design``: the ``KEY=true`` option that plays the game's content pack in design mode."""
    packs = content_packs(game_id)
    if packs.design_option is None:
        raise CliError(
            f"--design: {game_id} does not play content packs yet (candlebox content check "
            f"{game_id} DIR --design checks one)"
        )
    return f"{packs.design_option}=true"


def check_game(game_id: str) -> None:
    with user_errors():
        candlebox.game_info(game_id)
