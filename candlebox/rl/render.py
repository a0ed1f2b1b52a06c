"""Text rendering for the adapters: the game's terminal renderer (its ``renderer`` capability),
captured without colour; a game without one is printed from its view's fields."""

from __future__ import annotations

import io
import json

from rich.console import Console

from candlebox.engine import State, game_info, summarize


def render_text(state: State, seat: int | None = None, width: int = 100) -> str:
    """What ``seat`` sees (``None``: a spectator), as plain text, with the legal actions of the seats
    to act when ``seat`` is one of them."""
    info = game_info(state.game_id)
    renderer = info.renderer()
    if renderer is None:
        text = json.dumps(state.view(seat), indent=1, sort_keys=True) + "\n"
    else:
        buffer = io.StringIO()
        console = Console(file=buffer, width=width, color_system=None, force_terminal=False)
        renderer.render(info.viewer()(state, seat), console, state.prompt(seat))
        text = buffer.getvalue()
    if seat is not None and seat in state.to_act:
        text += f"Legal for seat {seat}: {summarize(state.legal_actions(seat))}\n"
    return text
