"""A typed lazy reference: an object named by its module and attribute, imported on first use.

A game's plug-in names its heavy capabilities this way (rich for the renderer, numpy for the
encoder), so that importing the game imports none of them::

    heuristic=Lazy("candlebox.games.candle_quest.heuristic", "policy")

``Lazy[T]`` is typed ``T`` for the type checker: ``load()`` returns a ``T``, and where a capability
slot expects, say, a ``Lazy[Policy[View]]``, the reference is one (docs/architecture.md). The checker
cannot see into the module the reference names: the registry checks the object it imports against
the capability's type, once loaded (``GameInfo``'s accessors, engine/registry.py).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

# Covariant: a reference only gives its object, so a Lazy[Policy[View]] is a Lazy[Callable[..., str]].
T_co = TypeVar("T_co", covariant=True)

# Every object a reference has imported, by (module, attribute): each is imported once per process.
_FOUND: dict[tuple[str, str], Any] = {}


class LazyError(ImportError):
    """A lazy reference's module or attribute could not be imported (the message says which)."""


@dataclass(frozen=True, slots=True)
class Lazy(Generic[T_co]):
    """The object ``attribute`` (dotted for an attribute of an attribute) of the module ``module``,
    imported the first time ``load()`` is called."""

    module: str
    attribute: str

    def __post_init__(self) -> None:
        for name in ("module", "attribute"):
            value = getattr(self, name)
            if not isinstance(value, str) or not _dotted(value):
                raise ValueError(
                    f"a lazy reference's {name} must be a dotted Python name, got {value!r}"
                )

    @classmethod
    def path(cls, text: str) -> Lazy[Any]:
        """The reference written ``"package.module:ATTRIBUTE"`` (the form entry points use)."""
        module, colon, attribute = text.partition(":")
        if not colon:
            raise ValueError(f"{text!r} is not 'package.module:ATTRIBUTE' (no colon)")
        return cls(module.strip(), attribute.strip())

    def load(self) -> T_co:
        """The object, imported on the first call (LazyError naming what was not found)."""
        key = (self.module, self.attribute)
        if key in _FOUND:
            return cast(T_co, _FOUND[key])
        try:
            found: Any = importlib.import_module(self.module)
        except ImportError as exc:
            raise LazyError(
                f"{self}: the module {self.module!r} cannot be imported: {exc}"
            ) from exc
        for part in self.attribute.split("."):
            try:
                found = getattr(found, part)
            except AttributeError:
                raise LazyError(f"{self}: {self.module!r} has no attribute {part!r}") from None
        _FOUND[key] = found
        return cast(T_co, found)

    def __str__(self) -> str:
        return f"{self.module}:{self.attribute}"


def _dotted(name: str) -> bool:
    return all(part.isidentifier() for part in name.split("."))
