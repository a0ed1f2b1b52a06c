"""The ``candlebox`` command: play, simulate, replay, and list games and bots (typer + rich)."""

from candlebox.cli.app import app, main

__all__ = ["app", "main"]
