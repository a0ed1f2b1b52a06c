"""Game options declared as data: name, type, default, check, and how to read one from text.

Every game declares the options of each variant with these; ``new_game`` validates what it is given
against them, and the CLI parses ``--option KEY=VALUE`` with the same declarations.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


@dataclass(frozen=True)
class Option:
    name: str
    kind: str  # "int", "bool", "choice", "codes" (card codes), "codes-map" ({name: codes}), "path"
    default: Any
    doc: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = True  # None means "not set" (use the game's own behaviour)
    check: Callable[[Any], str | None] | None = field(default=None, compare=False)
    # the option and each of its choices (by position) in a player's words, for the new-game form;
    # empty: the name is shown as it is
    label: str = ""
    choice_labels: tuple[str, ...] = ()

    def validate(self, value: Any) -> Any:
        """Return the value, normalised; raise ValueError naming the option when it is bad."""
        if value is None:
            if self.nullable or self.default is None:
                return None
            raise ValueError(f"option {self.name!r} cannot be None")
        normal = self._normalise(value)
        if self.check is not None:
            problem = self.check(normal)
            if problem:
                raise ValueError(f"option {self.name!r}: {problem}")
        return normal

    def _normalise(self, value: Any) -> Any:
        normalise = _NORMALISE.get(self.kind)
        if normalise is None:
            raise AssertionError(f"unknown option kind {self.kind}")
        return normalise(self, value)

    def _as_int(self, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"option {self.name!r} takes a whole number, got {value!r}")
        if self.minimum is not None and value < self.minimum:
            raise ValueError(f"option {self.name!r} must be at least {self.minimum}, got {value}")
        if self.maximum is not None and value > self.maximum:
            raise ValueError(f"option {self.name!r} must be at most {self.maximum}, got {value}")
        return value

    def _as_bool(self, value: Any) -> bool:
        if not isinstance(value, bool):
            raise ValueError(f"option {self.name!r} takes true or false, got {value!r}")
        return value

    def _as_choice(self, value: Any) -> Any:
        if value not in self.choices:
            raise ValueError(
                f"option {self.name!r} takes one of {', '.join(self.choices)}; got {value!r}"
            )
        return value

    def _as_codes(self, value: Any) -> list[str]:
        if isinstance(value, str) or not isinstance(value, Sequence):
            raise ValueError(f"option {self.name!r} takes a list of card codes, got {value!r}")
        if not all(isinstance(code, str) for code in value):
            raise ValueError(f"option {self.name!r}: every card code must be text")
        return list(value)

    def _as_codes_map(self, value: Any) -> dict[str, Any]:
        if not isinstance(value, Mapping):
            raise ValueError(
                f"option {self.name!r} takes a mapping of names to card code lists, got {value!r}"
            )
        return {
            str(key): Option(f"{self.name}[{key!r}]", "codes", None, "").validate(codes)
            for key, codes in value.items()
        }

    def _as_path(self, value: Any) -> str:
        if not isinstance(value, str | os.PathLike):
            raise ValueError(f"option {self.name!r} takes a path, got {value!r}")
        return os.fspath(value)

    def parse(self, text: str) -> Any:
        """Read a value written at the command line (``KEY=VALUE``)."""
        text = text.strip()
        if text.lower() in ("none", "null", ""):
            return self.validate(None)
        if self.kind == "int":
            try:
                number = int(text)
            except ValueError:
                raise ValueError(
                    f"option {self.name!r} takes a whole number, got {text!r}"
                ) from None
            return self.validate(number)
        if self.kind == "bool":
            low = text.lower()
            if low in _TRUE:
                return True
            if low in _FALSE:
                return False
            raise ValueError(f"option {self.name!r} takes true or false, got {text!r}")
        if self.kind == "codes":
            return self.validate(_codes(text))
        if self.kind == "codes-map":  # name:A,B;other:C
            decks = {}
            for part in filter(None, (p.strip() for p in text.split(";"))):
                name, colon, codes = part.partition(":")
                if not colon:
                    raise ValueError(
                        f"option {self.name!r}: write NAME:CODE,CODE;NAME:..., got {part!r}"
                    )
                decks[name.strip()] = _codes(codes)
            return self.validate(decks)
        return self.validate(text)


# How a value of each kind is checked and normalised (Option.kind -> the method).
_NORMALISE: dict[str, Callable[[Option, Any], Any]] = {
    "int": Option._as_int,
    "bool": Option._as_bool,
    "choice": Option._as_choice,
    "codes": Option._as_codes,
    "codes-map": Option._as_codes_map,
    "path": Option._as_path,
}


def _codes(text: str) -> list[str]:
    return [code for code in text.replace(",", " ").split() if code]


@dataclass(frozen=True)
class Fixed:
    """An option a variant does not offer, at the value it effectively has there (another variant of
    the game offers it). Asking for that value — or None, "not set" — is accepted and changes nothing,
    so a configuration written for every variant (``decay=False``) works in each; asking for another
    value is refused with the reason."""

    option: Option  # as the variants that offer it declare it: it reads and checks the value given
    value: Any
    reason: str


def validate_options(
    declared: Sequence[Option], given: dict[str, Any], fixed: Sequence[Fixed] = ()
) -> dict[str, Any]:
    """All declared options with their values: the given ones validated, the rest at their defaults.

    A ``fixed`` option given at its value is accepted and left out of the result (the variant has no
    such option to record)."""
    by_name = {opt.name: opt for opt in declared}
    pinned = {f.option.name: f for f in fixed if f.option.name not in by_name}
    unknown = sorted(set(given) - set(by_name) - set(pinned))
    if unknown:
        known = ", ".join(sorted(by_name)) or "none"
        raise ValueError(f"unknown option {', '.join(map(repr, unknown))}; known options: {known}")
    for name in sorted(set(given) & set(pinned)):
        pin = pinned[name]
        value = pin.option.validate(given[name])
        if value is not None and value != pin.value:
            raise ValueError(
                f"option {name!r} can only be {pin.value!r} in this variant: {pin.reason}"
            )
    return {
        opt.name: opt.validate(given[opt.name]) if opt.name in given else opt.default
        for opt in declared
    }
