"""One package per game; importing this registers them all with the engine."""

from candlebox.games import candle_quest  # noqa: F401  (registers "candle-quest")
