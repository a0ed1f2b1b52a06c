"""Typed views (issue 13) and standings (issue 14), checked along seeded games of a game.

- ``typed_view_is_the_view``: a game that declares a view type builds its view as that typed
  structure, and ``view(seat)`` is exactly its plain form, for every seat and the spectator, all
  along a game (bots, with one move in three at random in the second game).
- ``finished_game_has_typed_views``: so does a whole game's end; along it, the view function the
  plug-in declares (``GameInfo.typed_view``) gives the state's typed view.
- ``standings_agree``: each seat's parts sum to its score; at the end the scores are the engine's
  ``scores`` and the seats ranked first are exactly its ``winners``; rows come in rank order, and the
  summary names the winner.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterable
from typing import Any

import msgspec

import candlebox
from candlebox import bots
from candlebox.engine import Rng, State, game_info
from candlebox.engine.standings import Standings

VIEW_STEPS = 400  # enough for several rounds and, with the bots, the end of most games
STANDINGS_EVERY = 23  # decisions between two looks at the current standings

Configuration = tuple[str, int, dict[str, Any]]  # variant, players, options


def check_views(state: State) -> None:
    view_type = game_info(state.game_id).view_type()
    assert view_type is not None
    for seat in [None, *range(state.num_players)]:
        typed = state.typed_view(seat)
        assert isinstance(typed, view_type)
        plain = state.view(seat)
        assert msgspec.to_builtins(typed) == plain
        # The same keys in the same order, so the JSON a page receives is unchanged too.
        assert json.dumps(msgspec.to_builtins(typed)) == json.dumps(plain)


def _next_action(state: State, robots: list[bots.Bot], rng: Rng, mix: int) -> tuple[int, str]:
    seat = state.to_act[0]
    actions = state.legal_actions(seat)
    if mix and rng.below(mix) == 0:
        return seat, actions[rng.below(len(actions))]
    return seat, robots[seat].choose(state, seat)


def typed_view_is_the_view(game: str, variant: str, players: int) -> None:
    """Two games, the second with one move in three at random; a game without a heuristic moves
    at random throughout."""
    bot = "heuristic" if game_info(game).policy() is not None else "random"
    for seed, mix in ((1, 0), (2, 3)):
        state = candlebox.new_game(game, players=players, variant=variant, seed=seed)
        robots = [bots.make(bot, seed=seed + seat) for seat in range(players)]
        rng = Rng(seed)
        for _ in range(VIEW_STEPS):
            check_views(state)
            if state.is_over:
                break
            state.apply(*_next_action(state, robots, rng, mix))


def _declared_view_agrees(state: State, seats: Iterable[int | None]) -> None:
    """The view function the plug-in declares (``GameInfo.typed_view``) gives the state's view."""
    declared = game_info(state.game_id).typed_view
    if declared is None:
        return
    for seat in seats:
        assert declared(state, seat) == state.typed_view(seat), f"GameInfo.typed_view, seat {seat}"


def finished_game_has_typed_views(game: str) -> None:
    info = game_info(game)
    players = min(variant.min_players for variant in info.variants)  # at its default variant
    bot = bots.make("heuristic" if info.policy() is not None else "random", seed=5)
    state = candlebox.new_game(game, players=players, seed=5)
    while not state.is_over:
        seat = state.to_act[0]
        _declared_view_agrees(state, (None, seat))
        state.apply(seat, bot.choose(state, seat))
    check_views(state)
    _declared_view_agrees(state, (None, *range(state.num_players)))
    assert state.typed_view(None).winners == list(state.winners)


def standings_configurations(game: str) -> list[Configuration]:
    """Every variant at every player count, then the option sets that change the scoring."""
    found: list[Configuration] = [
        (variant.name, players, {})
        for variant in game_info(game).variants
        for players in variant.players
    ]
    return found + [
        (variant, players, dict(options))
        for variant, players, options in game_info(game).conformance().scoring_options
    ]


def check_standings(state: State, standings: Standings) -> None:
    rows = standings.rows
    assert sorted(row.seat for row in rows) == list(range(state.num_players))
    for row in rows:
        assert sum(part.points for part in row.parts) == row.score, row
        assert all(part.source and not part.source.isspace() for part in row.parts)
    ranks = [row.rank for row in rows]
    assert ranks[0] == 1 and ranks == sorted(ranks)
    for before, after in itertools.pairwise(rows):
        assert before.score >= after.score
    assert standings.final == state.is_over
    assert standings.summary.endswith((".", ")", ".\u201d"))  # a quoted rule ends in its quote
    if state.is_over:
        assert [row.score for row in sorted(rows, key=lambda r: r.seat)] == list(state.scores)
        assert {row.seat for row in rows if row.rank == 1} == set(state.winners)
        assert {row.seat for row in rows if row.winner} == set(state.winners)
        names = [f"P{seat}name" for seat in range(state.num_players)]
        assert all(names[seat] in state.standings(names).summary for seat in state.winners)


def standings_agree(game: str, variant: str, players: int, options: dict[str, Any]) -> None:
    info = game_info(game)
    policy, viewer = info.policy(), info.viewer()
    for seed in (0, 1):
        state = candlebox.new_game(game, players=players, variant=variant, seed=seed, **options)
        choose = random.Random(seed)
        rng = Rng(seed)
        step = 0
        while not state.is_over:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            # The heuristic finishes games (a Menorah completed); random play reaches the rest.
            if policy is not None and (seed == 0 or choose.random() < 0.5):
                action = policy(viewer(state, seat), legal, rng)
            else:
                action = choose.choice(legal)
            state.apply(seat, action)
            step += 1
            if step % STANDINGS_EVERY == 0:
                check_standings(state, state.standings())
        check_standings(state, state.standings())
