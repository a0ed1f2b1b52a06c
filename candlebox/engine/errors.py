"""Errors raised across the engine contract."""


class IllegalAction(ValueError):
    """An action that is malformed or not legal in the current state; the state is left untouched."""


class MalformedAction(IllegalAction):
    """Text that is no action at all in the game's notation (not merely illegal now)."""
