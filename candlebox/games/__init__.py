"""One package per game; importing this registers them all with the engine."""

# isort: off
from candlebox.games import (
    candle_quest,  # noqa: F401  (registers "candle-quest")
    sixteen_candies,  # noqa: F401  (registers "sixteen-candies")
)
from candlebox.games import candelabria  # noqa: F401  (registers "candelabria"; listed last)
# isort: on
