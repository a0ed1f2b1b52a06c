"""No bare code at the terminal (issue 14): along seeded random games of every game and variant, with
its smallest and largest player count (and the options that add components, as in test_texts.py), the
board ``candlebox play`` prints (``render_state``: the game's RENDERER, for the seat to act and for a
spectator) shows no component code without its name.

What "a bare code" is, precisely: a *line* is one line of the board as printed to a console wide
enough that nothing wraps (a printed line, or one line of a table row: a cell holding several
components puts each on its own line). A *code* is a token of the line (letters, digits, ``!`` and
``-``) that is a key of ``candlebox.components(game, variant, players=..., **options)`` for the game's
configuration (``R7``, ``G6-K1``, ``1I1X``, ``C-1X1V``, ``1-castle``, ``4c``, ``K1``). It is *bare* when
that component's name (the ``name`` of its entry, the one the pages and the log use) is not on the
same line; a name that holds another code (``Cinis Clan tactic 1X1V``) names that code too. This is
the rule test_texts.py holds prompts, labels and log sentences to (``bare_codes``). Namespaced keys
(``house:S``, ``role:P``) are words for letters inside other notation and are not looked for.

The check is the conformance kit's (candlebox/testing/words.py, ``board_names_every_code``), run here
on every registered game at each variant's smallest and largest player count (and the options that
add components, as in test_texts.py).
"""

from __future__ import annotations

from typing import Any

import pytest

from candlebox.engine import game_ids
from candlebox.engine.words import components
from candlebox.testing import words
from candlebox.testing.words import bare_codes
from tests.deep import first_of

CONFIGS = [(game, *config) for game in game_ids() for config in words.board_configurations(game)]


def _id(config: tuple[str, str, int, dict[str, Any]]) -> str:
    game, variant, players, options = config
    extra = ",".join(f"{k}={v}" for k, v in options.items())
    return f"{game}-{variant}-{players}p" + (f"-{extra}" if extra else "")


# each variant and option set at its fewest players by default; the other counts: -m deep (CI)
@pytest.mark.parametrize("config", first_of(CONFIGS, lambda c: (*c[:2], repr(c[3]))), ids=_id)
def test_the_board_names_every_code(config: tuple[str, str, int, dict[str, Any]]) -> None:
    words.board_names_every_code(*config)


def test_a_bare_code_is_found() -> None:
    """The check itself: a code alone is bare, beside its name it is not."""
    table = components("sixteen-candies")
    assert bare_codes("Discard pile (top last): G6-C1", table) == ["G6-C1"]
    named = f"Discard pile (top last): {table['G6-C1']['name']} (G6-C1)"
    assert bare_codes(named, table) == []
