"""Text rendering for the adapters: the terminal renderer of candlebox.cli, captured without colour."""

from __future__ import annotations

import io

from candlebox.engine import State


def render_text(state: State, seat: int | None = None, width: int = 100) -> str:
    """What ``seat`` sees (``None``: a spectator), as plain text, with the legal actions of the seats
    to act when ``seat`` is one of them."""
    from rich.console import Console

    from candlebox.cli.render import render_view

    buffer = io.StringIO()
    console = Console(file=buffer, width=width, color_system=None, force_terminal=False)
    render_view(state.game_id, state.view(seat), console)
    text = buffer.getvalue()
    if seat is not None and seat in state.to_act:
        from candlebox.engine import summarize

        text += f"Legal for seat {seat}: {summarize(state.legal_actions(seat))}\n"
    return text
