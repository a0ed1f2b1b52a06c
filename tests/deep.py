"""The ``deep`` marker: a parametrised family's cases split between the README's test command, which
keeps a few that reach every game and variant, and CI's second step (``-m deep``), which runs the
rest. Nothing is dropped, only moved (pyproject.toml's markers, .ci/run)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

import pytest

T = TypeVar("T")

DEEP = pytest.mark.deep


def split(values: Iterable[T], keep: Callable[[T], bool], unpack: bool = False) -> list[Any]:
    """``values`` as parameters, those ``keep`` refuses marked ``deep``; ``unpack``: each value is
    a tuple of several arguments (``parametrize(("a", "b"), ...)``)."""
    found: list[Any] = []
    for value in values:
        if keep(value):
            found.append(value)
        else:
            args = tuple(value) if unpack else (value,)  # type: ignore[arg-type]
            found.append(pytest.param(*args, marks=DEEP))
    return found


def ends(
    configs: Sequence[T], variant_of: Callable[[T], Any], players_of: Callable[[T], int]
) -> list[T]:
    """The configurations at each variant's fewest and most players: the conformance kit's quick
    selection (``candlebox check --quick``), which the default run keeps."""
    counts: dict[Any, list[int]] = {}
    for config in configs:
        counts.setdefault(variant_of(config), []).append(players_of(config))
    return [
        config
        for config in configs
        if players_of(config) in (min(counts[variant_of(config)]), max(counts[variant_of(config)]))
    ]


def first_of(values: Iterable[T], key: Callable[[T], Any], unpack: bool = False) -> list[Any]:
    """``values`` as parameters, all but the first of each ``key`` marked ``deep``: one case per
    game (or per game and variant) in the README's run, every case in CI's second step."""
    seen: set[Any] = set()

    def first(value: T) -> bool:
        found = key(value) not in seen
        seen.add(key(value))
        return found

    return split(values, first, unpack)
