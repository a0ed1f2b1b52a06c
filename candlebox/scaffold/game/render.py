"""Blind Bids at the terminal (rich): the prize, the scores, who has bid and the seat's own hand.
It reads the seat's typed view only, so it shows exactly what the seat may know."""

from __future__ import annotations

from typing import Any

from rich.markup import escape
from rich.table import Table

from candlebox.engine.plugin import Renderer, winners_text

from .views import BidsView


def code(text: str) -> str:
    """A bid card's number as markup."""
    return f"[bold cyan]{escape(text)}[/]"


def action(text: str) -> str:
    verb, _, card = text.partition(" ")
    return f"{escape(verb)} {code(card)}" if card else escape(text)


def render(view: BidsView, console: Any, prompt: str) -> None:
    if view.prize:
        console.print(
            f"Round {view.round} of {view.rounds}: the prize is worth [bold]{view.prize}[/] "
            f"({view.prizes_left} still face down)"
        )
    else:
        console.print(f"[bold]Game over[/]: {winners_text({'winners': view.winners})}")
    table = Table(box=None, header_style="bold", padding=(0, 2, 0, 0))
    for column in ("seat", "points", "this round", "last bid"):
        table.add_column(column)
    for seat in view.seats:
        mine = " (you)" if seat.seat == view.seat else ""
        status = "—" if not view.prize else "has bid" if seat.has_bid else "choosing"
        last = code(str(seat.last_bid)) if seat.last_bid else "—"
        table.add_row(f"seat {seat.seat}{mine}", str(seat.points), status, last)
    console.print(table)
    if view.seat is not None:
        hand = " ".join(code(str(card)) for card in view.hand) or "—"
        console.print(f"Your hand: {hand}")
        if view.my_bid:
            console.print(f"Your bid: {code(str(view.my_bid))}")
    console.print(f"▶ {escape(prompt)}")


RENDERER = Renderer(render=render, code=code, action=action)
