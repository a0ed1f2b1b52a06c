"""User errors: one clear line on stderr and an exit code, never a traceback."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

USAGE = 2  # bad command line or unreadable input, as click uses for usage errors
FAILED = 1  # the command ran but the answer is "no" (e.g. a save file that does not replay)


class CliError(Exception):
    """A problem with what the user asked for; the command prints it and exits with ``code``."""

    def __init__(self, message: str, code: int = USAGE) -> None:
        super().__init__(message)
        self.code = code


@contextmanager
def user_errors(prefix: str = "") -> Iterator[None]:
    """Turn the engine's ValueErrors (bad game, option, player count...) into a CliError.

    Only wrap code that checks what the user typed: a ValueError later on is a bug and should show
    its traceback.
    """
    try:
        yield
    except CliError:
        raise
    except ValueError as exc:
        raise CliError(f"{prefix}{exc}") from None
