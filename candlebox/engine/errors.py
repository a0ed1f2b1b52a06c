"""Errors raised across the engine contract."""


class IllegalAction(ValueError):
    """An action that is malformed or not legal in the current state; the state is left untouched."""
