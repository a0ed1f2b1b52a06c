"""The engine contract every game meets, checked along seeded games (after OpenSpiel's random_sim_test).

For a game, variant and player count: seeded games played by random (and heuristic) bots, checking at
each step that to_act and legal_actions agree, illegal and malformed actions are refused with the
state untouched, saves and clones round-trip, views and logs are JSON-safe, resample keeps the seat's
view and deals a possible world (secrecy through resampled twins), the same seed replays the same
game, and the game's own invariants and story (its ``Conformance``) hold.

The checks that replay or resample the whole history run at fixed points of a game (every step of
its first ``EARLY`` and then steps a quarter apart, see :data:`ROUND_TRIPS_AT`), so a long game costs
time in proportion to its length, not its square; refusals, which cost a save, every ``REFUSE_EVERY``.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Sequence
from typing import Any

import candlebox
from candlebox import bots
from candlebox.engine import HIDDEN_ACTION, State, game_info
from candlebox.engine.plugin import Conformance

EARLY = 40  # every step of a game's opening gets every check
REFUSE_EVERY = 23  # then the refusals run on every 23rd step
SEEDS = (0, 1, 2)
LONG_SEEDS = tuple(range(1000, 1040))


def _round_trip_points(limit: int = 1_000_000) -> frozenset[int]:
    """The opening, then steps growing by a quarter: the histories replayed sum to about five
    times a game's length, however long it is."""
    points = set(range(EARLY))
    step = float(EARLY)
    while step < limit:
        points.add(int(step))
        step *= 1.25
    return frozenset(points)


ROUND_TRIPS_AT = _round_trip_points()


def configurations(game: str) -> list[tuple[str, int]]:
    """Every variant of the game at every player count it allows."""
    return [
        (variant.name, players)
        for variant in game_info(game).variants
        for players in variant.players
    ]


def refused(
    call: Callable[[], object], kind: type[Exception], match: str | None = None
) -> Exception:
    """The exception ``call`` raises, checked to be a ``kind`` (whose text matches ``match``)."""
    try:
        call()
    except kind as exc:
        if match is not None and not re.search(match, str(exc)):
            raise AssertionError(f"{kind.__name__} {str(exc)!r} does not say {match!r}") from exc
        return exc
    raise AssertionError(f"{kind.__name__} was not raised")


def check_step(state: State, rng: random.Random, seen: set[str], step: int) -> None:
    to_act = state.to_act
    assert to_act, "a game not over has a seat to act"
    assert len(set(to_act)) == len(to_act)
    for seat in range(state.num_players):
        actions = state.legal_actions(seat)
        if seat not in to_act:
            assert actions == [], f"seat {seat} does not act but has {actions}"
            continue
        assert actions, f"seat {seat} acts but has no legal action"
        assert len(set(actions)) == len(actions), f"duplicates in {actions}"
        assert all(isinstance(a, str) and a == a.strip() for a in actions)
        assert state.legal_actions(seat) == actions, "legal_actions is stable"
        # the list the engine keeps (or the game handed it) is what the game computes now
        assert state._legal_for(seat) == actions, "the kept legal list is stale"
        assert all(state.move_kind(a) is not None for a in actions), "an undeclared move kind"
        assert state.explain(seat, actions[-1]) is None
        seen.update(actions)
    if step < EARLY or step % REFUSE_EVERY == 0:
        check_refusals(state, rng, seen)
    if step in ROUND_TRIPS_AT:
        check_round_trips(state, rng)


def check_refusals(state: State, rng: random.Random, seen: set[str]) -> None:
    before = state.to_json()
    seat = state.to_act[0]
    legal = state.legal_actions(seat)
    others = sorted(seen - set(legal))
    attempts: list[tuple[Any, Any]] = [
        (seat, "definitely not an action"),
        (seat, ""),
        (seat, 42),
        (state.num_players, legal[0]),
        (-1, legal[0]),
    ]
    if others:
        attempts.append((seat, rng.choice(others)))
    idle = [s for s in range(state.num_players) if s not in state.to_act]
    if idle:
        attempts.append((idle[0], legal[0]))
    malformed = {"definitely not an action", "", 42}
    for who, action in attempts:
        refusal = refused(lambda: state.apply(who, action), candlebox.IllegalAction)  # noqa: B023
        assert str(refusal), "the refusal says what was wrong"
        assert str(refusal) == state.explain(who, action)
        # Text that is no action is malformed for a game that reads a notation (text is all alike
        # to one that does not); anything but text always is.
        reads_notation = type(state)._malformed is not State._malformed
        if who == seat and action in malformed and (reads_notation or not isinstance(action, str)):
            assert isinstance(refusal, candlebox.MalformedAction), action
        elif isinstance(action, str) and action in seen:
            assert not isinstance(refusal, candlebox.MalformedAction), action
        assert state.to_json() == before, f"refusing {action!r} for {who} changed the state"


def check_round_trips(state: State, rng: random.Random) -> None:
    saved = state.to_json()
    text = json.dumps(saved)
    assert json.loads(text) == saved, "to_json is plain JSON already (no tuples, no objects)"
    restored = candlebox.load(json.loads(text))
    assert restored.to_json() == saved, "to_json/load round trip"
    twin = state.clone()
    assert twin.to_json() == saved, "clone equals the original"
    seat = twin.to_act[0]
    twin.apply(seat, rng.choice(twin.legal_actions(seat)))
    assert state.to_json() == saved, "playing on a clone leaves the original alone"
    conformance = game_info(state.game_id).conformance()
    for viewer in [None, *range(state.num_players)]:
        view, log = state.view(viewer), state.log(viewer)
        json.dumps(view)
        json.dumps(log)
        if conformance.seen is not None:  # what the seat is sent names nothing hidden from it
            conformance.seen(view, log, viewer)
    if conformance.story is not None:
        conformance.story(state)  # the real game tells a possible story too
    for seat in range(state.num_players):
        other = state.resample(seat, rng.randrange(2**32))
        assert other.view(seat) == state.view(seat), "resample keeps the seat's view"
        assert other.log(seat) == state.log(seat), "resample keeps the seat's log"
        assert other.legal_actions(seat) == state.legal_actions(seat)
        assert other.to_act == state.to_act
        check_history_scrubbed(state, other, seat)
        check_possible_world(other, conformance)
        twin = state.resample(seat, 99)  # a state the seat cannot tell from this one
        assert twin.resample(seat, 5).to_json() == state.resample(seat, 5).to_json(), (
            "resample is canonical: it depends only on what the seat knows and the seed"
        )


def check_possible_world(twin: State, conformance: Conformance) -> None:
    """A resampled state is a world that could be: every card any seat's log names agrees with where
    the twin holds it (the game's own story check), and its save loads back (so it passes the game's
    consistency checks on load)."""
    if conformance.story is not None:
        conformance.story(twin)
    # A twin's history hides the others' private moves, so its save cannot be replayed (loading is a
    # replay): it is refused, naming the hidden move, rather than loaded as something it is not.
    if any(action == HIDDEN_ACTION for _, action in twin.history):
        saved = json.loads(json.dumps(twin.to_json()))
        refused(lambda: candlebox.load(saved), ValueError, "does not replay")


def check_history_scrubbed(state: State, other: State, seat: int) -> None:
    """A resampled history hides the others' private actions and keeps everything else."""
    assert len(other.history) == len(state.history)
    for (mover, action), (twin_mover, shown) in zip(state.history, other.history, strict=True):
        assert twin_mover == mover
        kind = state.move_kind(action)
        assert kind is not None, f"{action!r} is of no move kind the game declares"
        hidden = mover != seat and kind.redact
        assert shown == (HIDDEN_ACTION if hidden else action), (mover, action, shown)
    assert other.history == state.visible_history(seat)


def play_checked(
    game: str, variant: str, players: int, seed: int, bot: str, **options: Any
) -> State:
    """One seeded game by ``bot`` at every seat, every check along it; the finished game."""
    state = candlebox.new_game(game, players=players, variant=variant, seed=seed, **options)
    rng = random.Random(seed)
    players_bots = [bots.make(bot, seed=seed * 10 + s) for s in range(players)]
    invariant = game_info(game).conformance().invariant
    seen: set[str] = set()
    step = 0
    while not state.is_over:
        check_step(state, rng, seen, step)
        if invariant is not None:
            invariant(state)
        seat = rng.choice(state.to_act)
        state.apply(seat, players_bots[seat].choose(state, seat))
        step += 1
    check_final(state)
    if invariant is not None:
        invariant(state)
    check_replay(state)
    return state


def check_final(state: State) -> None:
    assert state.to_act == ()
    assert all(state.legal_actions(s) == [] for s in range(state.num_players))
    assert state.winners and set(state.winners) <= set(range(state.num_players))
    assert len(state.scores) == state.num_players
    assert all(isinstance(x, float) for x in state.scores)
    assert isinstance(state.truncated, bool)
    refused(lambda: state.apply(0, "pass"), candlebox.IllegalAction)
    assert candlebox.load(json.loads(json.dumps(state.to_json()))).to_json() == state.to_json()


def check_replay(state: State) -> None:
    """Same seed and options, same actions: the same game, RNG included."""
    again = candlebox.new_game(
        state.game_id,
        players=state.num_players,
        variant=state.variant,
        seed=state.seed,
        **state.options,
    )
    for seat, action in state.history:
        again.apply(seat, action)
    assert again.to_json() == state.to_json()


def bounded(game: str, variant: str, turns: int) -> dict[str, int]:
    """The option that cuts a game at ``turns`` turns, when the variant has one (``max_turns``)."""
    names = {option.name for option in game_info(game).variant(variant).options}
    return {"max_turns": turns} if "max_turns" in names else {}


def random_games(game: str, variant: str, players: int, seeds: Sequence[int] = SEEDS) -> None:
    """Random play, cut at a length that grows with the seed (truncated games end as they should)."""
    for seed in seeds:
        play_checked(
            game, variant, players, seed, "random", **bounded(game, variant, 150 + 100 * seed)
        )


def heuristic_games(game: str, variant: str, players: int, seeds: Sequence[int] = SEEDS) -> None:
    """Bots that finish games, so the natural ends are checked too (a game with a heuristic)."""
    for seed in seeds:
        play_checked(game, variant, players, 100 + seed, "heuristic")


def long_random_games(
    game: str, variant: str, players: int, seeds: Sequence[int] = LONG_SEEDS
) -> None:
    """Random play to the game's own end or its default length."""
    for seed in seeds:
        play_checked(game, variant, players, seed, "random")


def registry_facts(game: str) -> None:
    """The facts the registry checks configurations against are sound."""
    info = game_info(game)
    assert info.max_turns > 0
    assert info.variants, "a game has a variant"
    for variant in info.variants:
        assert variant.min_players <= variant.max_players
        assert info.variant(info.default_variant(variant.min_players)) is not None
