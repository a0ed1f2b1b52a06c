"""``candlebox games`` and ``candlebox bots``: what can be played, with which options, by which bots."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table

import candlebox
from candlebox import bots
from candlebox.engine import Option, Variant
from candlebox.engine.discovery import DISTRIBUTION
from candlebox.engine.registry import game_origin


def option_kind(option: Option) -> str:
    return "|".join(option.choices) if option.choices else option.kind


def option_default(value: object) -> str:
    return "—" if value is None else str(value)


def variants_table(variants: list[Variant]) -> Table:
    table = Table(header_style="bold", box=None, padding=(0, 1, 0, 2))
    table.add_column("variant")
    table.add_column("players")
    table.add_column("about")
    for variant in variants:
        table.add_row(
            variant.name, f"{variant.min_players}–{variant.max_players}", escape(variant.doc)
        )
    return table


def options_table(variants: list[Variant]) -> Table:
    """Each option once, with the variants that have it (most options are shared by all); an option
    whose meaning differs between variants once per meaning."""
    table = Table(header_style="bold", box=None, padding=(0, 1, 0, 2))
    for column in ("option", "kind", "default", "meaning"):
        table.add_column(column, overflow="fold")
    seen: dict[tuple[str, str], list[str]] = {}
    options: dict[tuple[str, str], Option] = {}
    for variant in variants:
        for option in variant.options:
            key = (option.name, option.doc)
            seen.setdefault(key, []).append(variant.name)
            options.setdefault(key, option)
    for key, option in options.items():
        meaning = escape(option.doc)
        if len(seen[key]) < len(variants):
            meaning += f" [dim]({', '.join(seen[key])} only)[/]"
        table.add_row(
            option.name, option_kind(option), escape(option_default(option.default)), meaning
        )
    return table


def print_games(console: Console) -> None:
    for game_id in candlebox.game_ids():
        info = candlebox.game_info(game_id)
        variants = candlebox.variants(game_id)
        origin = game_origin(game_id)
        source = "" if origin in (None, DISTRIBUTION) else f", a plug-in from {origin}"
        console.rule(f"[bold]{escape(info.title)}[/]  ({game_id}{escape(source)})")
        console.print(variants_table(variants))
        console.print()
        console.print(options_table(variants))
        console.print(f"[dim]  e.g. {escape(example(game_id, variants[0]))}[/]\n")
    for problem in candlebox.plugin_problems():
        console.print(f"[bold red]not loaded:[/] {escape(str(problem))}")


def example(game_id: str, variant: Variant) -> str:
    """A command that plays the game (an option shown only where the game has it)."""
    players = max(variant.min_players, min(3, variant.max_players))
    turns = " --option max_turns=100" if any(o.name == "max_turns" for o in variant.options) else ""
    return f"candlebox play {game_id} -p {players}{turns}"


def print_bots(console: Console) -> None:
    table = Table(header_style="bold", box=None, padding=(0, 2, 0, 0))
    table.add_column("bot")
    table.add_column("plays")
    for name in bots.available():
        table.add_row(name, escape(bots.describe(name)))
    console.print(table)
    console.print("[dim]Parameters go after the name: --bots NAME:key=value,NAME...[/]")
