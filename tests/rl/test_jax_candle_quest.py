"""candlebox.rl.jax for Candle Quest: the JAX rules agree with the engine step by step (``check``) in
every variant and at every player count, through rebuilt stacks, set-aside Unlit candles, guards
that cannot be paid, auctions, loots and the junior game's forcing; they run under jit and vmap on
games drawn from their keys, and refuse what they cannot play."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rl.deps import require_rl

require_rl()
pytest.importorskip("jax", reason="jax is not installed: pip install 'candlebox[jax]'")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

import candlebox.rl  # noqa: E402
import candlebox.rl.jax as rljax  # noqa: E402
from candlebox.games.candle_quest.candles import CODE  # noqa: E402
from tests.deep import DEEP, split  # noqa: E402


def candles_in_play(state: Any) -> np.ndarray:
    """Each game's candles wherever they are: the stack, the discard piles, the screens, set
    aside, removed and the one on the table."""
    return (
        np.asarray(state.stack_len)
        + np.asarray(state.pile_len).sum(axis=1)
        + np.asarray(state.screens).sum(axis=(1, 2))
        + np.asarray(state.aside).sum(axis=1)
        + np.asarray(state.removed).sum(axis=1)
        + (np.asarray(state.table) >= 0)
    )


GAME = "candle-quest"
VARIANTS = ("basic", "advanced", "junior")


def test_candle_quest_is_covered() -> None:
    assert GAME in rljax.covered_games()


# Each configuration compiles for about a minute on 2 cores: the README's run keeps one, CI's second
# step (-m deep) checks every variant and count.
@pytest.mark.parametrize(
    ("variant", "players"),
    split(
        [(v, n) for v in VARIANTS for n in (2, 3, 4, 5)],
        lambda config: config == ("basic", 3),
        unpack=True,
    ),
)
def test_check_agrees_with_the_engine_in_every_variant_and_count(
    variant: str, players: int
) -> None:
    """Random play: max_turns keeps a game short, and random players rebuild the stack, guard,
    set Unlit candles aside on bonus turns and run out of shekels within it."""
    report = rljax.check(GAME, players, games=1, variant=variant, seed=players, max_turns=60)
    assert report["mismatches"] == 0, report["first"]
    assert report["steps"] > 60


@DEEP
def test_check_agrees_under_the_options() -> None:
    """A small bank (a dry bank pays what it has), the shekels tiebreak, a deck on top of the
    stack and a first player."""
    report = rljax.check(
        GAME, 3, games=3, variant="advanced", seed=4, bank=40, tiebreak="shekels", max_turns=200
    )
    assert report["mismatches"] == 0, report["first"]
    deck = ["U4", "U6", "U4", "D10", "R8"]
    report = rljax.check(GAME, 2, games=2, seed=5, deck=deck, first_player=1, max_turns=80)
    assert report["mismatches"] == 0, report["first"]


@DEEP
def test_check_agrees_through_whole_games_of_a_careful_policy() -> None:
    """Players who buy what they can and never auction finish their Menorah (the game's real end,
    with the completer's bonus in the advanced game), and empty the stack on the way."""

    def buyer(state, seat, legal, rng):  # type: ignore[no-untyped-def]
        texts = {spec.actions.to_text(a): a for a in legal}
        for text in ("buy", "flip"):
            if text in texts:
                return texts[text]
        plain = [a for text, a in texts.items() if not text.startswith(("auction", "bid"))]
        return rng.choice(plain or legal)

    for variant in ("basic", "advanced"):
        spec = candlebox.rl.spec(GAME, 3, variant=variant)
        report = rljax.check(GAME, 3, games=3, variant=variant, seed=8, policy=buyer)
        assert report["mismatches"] == 0, report["first"]
        assert report["truncated"] < 3  # at least one game ended on a Menorah


@pytest.mark.parametrize(
    "variant", ["basic", *(pytest.param(v, marks=pytest.mark.slow) for v in VARIANTS[1:])]
)
def test_jit_and_vmap_play_whole_games_from_their_keys(variant: str) -> None:
    """32 games vmapped under jit, drawn from their keys, random legal actions: every action chosen
    is legal by the mask, every candle of the box stays somewhere, the games differ from key to key
    but not for one key, and each pays 1 once, at its end."""
    players = 3
    env = rljax.make(GAME, players, variant, max_turns=40)
    games = 32
    keys = jax.random.split(jax.random.key(3), games)
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(env.step))
    state = init(keys)
    again = init(keys)
    assert np.array_equal(np.asarray(state.active), np.asarray(again.active))
    assert len(set(np.asarray(state.active).tolist())) > 1  # the starting seat is drawn
    rng = np.random.default_rng(0)
    ended = np.zeros(games, bool)
    paid = np.zeros((games, players), np.float32)
    box = env.candles
    seen = set()
    for i in range(2000):
        mask = np.asarray(state.legal_action_mask)
        live = ~np.asarray(state.terminated | state.truncated)
        assert (mask.any(axis=1) == live).all()
        actions = np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask])
        state = step(state, jnp.asarray(actions), jax.random.split(jax.random.key(i), games))
        candles = candles_in_play(state)
        assert (candles == box).all()
        # and by type: the stack drawn from keys is all loose, its counts every candle of it
        table = np.asarray(state.table)
        by_type = (
            np.asarray(state.loose_counts)
            + np.asarray(state.pile_counts).sum(axis=1)
            + np.asarray(state.screens).sum(axis=1)
            + np.asarray(state.aside)
            + np.asarray(state.removed)
            + np.eye(env.types, dtype=np.int32)[np.maximum(table, 0)] * (table >= 0)[:, None]
        )
        assert (by_type == np.bincount(env.pool, minlength=env.types) + env.start_removed).all()
        assert (np.asarray(state.loose) == np.asarray(state.stack_len)).all()
        seen.add(tuple(np.asarray(state.table)[:4].tolist()))
        ended |= np.asarray(state.terminated | state.truncated)
        paid += np.asarray(state.rewards)
        if ended.all():
            break
    assert ended.all()  # max_turns=40 ends every game
    assert np.allclose(paid.sum(axis=1), 1.0)
    assert len(seen) > 10


def test_a_flip_from_a_key_draws_every_candle_of_the_stack_as_likely() -> None:
    """The stack drawn from keys is loose, a flip one pick from its counts by type: over 8,192
    games the first candle flipped has each type as often as the box holds it (a chi-square
    test; the keys are fixed, so the figure is too)."""
    env = rljax.make(GAME, 2, first_player=0)
    games = 8192
    keys = jax.random.split(jax.random.key(11), games)
    state = jax.jit(jax.vmap(env.init))(keys)
    flips = jnp.full(games, candlebox.rl.spec(GAME, 2).actions.to_id("flip"), jnp.int32)
    state = jax.jit(jax.vmap(env.step))(state, flips, jax.random.split(jax.random.key(12), games))
    drawn = np.asarray(state.table)  # the candle flipped stays on the table (to buy or guard)
    assert (drawn >= 0).all()
    box = np.bincount(env.pool, minlength=env.types)
    expected = games * box / box.sum()
    seen = np.bincount(drawn, minlength=env.types)
    chi_square = float((((seen - expected) ** 2) / expected).sum())
    assert chi_square < 72.0, chi_square  # 39 degrees of freedom: p = 0.001
    assert (np.asarray(state.stack_len) == len(env.pool) - 1).all()
    counts = np.asarray(state.loose_counts)
    assert (counts.sum(axis=1) == np.asarray(state.loose)).all()
    assert (counts + np.eye(env.types, dtype=np.int32)[drawn] == box).all()


@DEEP
def test_the_deck_option_is_drawn_first_then_mixed_with_the_rest() -> None:
    """From keys, the ``deck`` option's candles are flipped first, in order, the rest at random;
    once set-aside candles are mixed back the whole stack is loose, and every candle of the box
    stays somewhere."""
    first = ["R8", "D10", "U4"]
    deck = first + [code for code in CODE if code not in first][:15]  # left in order a while
    env = rljax.make(GAME, 2, deck=deck, first_player=0, max_turns=60)
    actions = candlebox.rl.spec(GAME, 2, deck=deck, first_player=0, max_turns=60).actions
    games = 64
    state = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.key(2), games))
    step = jax.jit(jax.vmap(env.step))
    flip = jnp.full(games, actions.to_id("flip"), jnp.int32)
    sell = jnp.full(games, actions.to_id("sell"), jnp.int32)
    firsts = []
    for i, action in enumerate((flip, sell, flip, sell, flip)):
        state = step(state, action, jax.random.split(jax.random.key(100 + i), games))
        if i % 2 == 0:
            firsts.append(set(np.asarray(state.table).tolist()))
    assert firsts == [{CODE.index(code)} for code in first]
    rng = np.random.default_rng(1)
    for i in range(3000):
        mask = np.asarray(state.legal_action_mask)
        actions = np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask])
        state = step(state, jnp.asarray(actions), jax.random.split(jax.random.key(i), games))
        loose = np.asarray(state.loose)
        assert (np.asarray(state.loose_counts).sum(axis=1) == loose).all()
        assert (loose <= np.asarray(state.stack_len)).all()
        candles = candles_in_play(state)
        assert (candles == env.candles).all()
        if np.asarray(state.terminated | state.truncated).all():
            break
    assert np.asarray(state.terminated | state.truncated).all()


def test_a_game_state_is_small() -> None:
    """Under vmap a step reads and writes every game's whole state, so its size is what a step
    costs: the candles and counts by type are int8 (3 players: under 3 kB a game, 4.6 kB when
    they were int32), and a step keeps them so."""
    env = rljax.make(GAME, 3)
    state = jax.jit(env.init)(jax.random.key(0))
    flip = candlebox.rl.spec(GAME, 3).actions.to_id("flip")
    state = jax.jit(env.step)(state, flip, jax.random.key(1))
    narrow = ("stack", "loose_counts", "piles", "pile_counts", "screens", "aside", "removed")
    assert {str(getattr(state, name).dtype) for name in narrow} == {"int8"}
    assert sum(leaf.nbytes for leaf in jax.tree_util.tree_leaves(state)) < 3000


def test_what_cannot_be_played_is_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match="first_player"):
        rljax.make(GAME, 2, first_player=3)
    with pytest.raises(ValueError, match="bank"):
        rljax.make(GAME, 5, bank=30)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_check_agrees_over_many_games(variant: str, players: int) -> None:
    report = rljax.check(GAME, players, games=25, variant=variant, seed=1000)
    assert report["mismatches"] == 0, report["first"]


@pytest.mark.deep  # compiles four functions anew (CI's second step)
@pytest.mark.parametrize("variant", ["basic", "advanced"])
def test_a_batched_observation_is_the_one_built_alone(variant: str) -> None:
    """Under ``vmap`` every game's observation must be the one ``observe`` builds for that game
    alone (unbatched), for the seat that looks, and ``observe_all`` under ``vmap`` must give every
    seat's. The steps' keys are raw uint32 ones here (``jax.random.PRNGKey``) as well as typed."""
    players, games = 3, 4
    env = rljax.make(GAME, players, variant)
    state = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.key(21), games))
    step = jax.jit(jax.vmap(env.step))
    alone = jax.jit(env.observe)
    every = jax.jit(jax.vmap(env.observe_all))
    rng = np.random.default_rng(4)
    tables = set()
    for i in range(30):
        actor = np.asarray(state.actor)
        looking = np.where(actor >= 0, actor, np.asarray(state.last_actor))
        each = np.asarray(every(state))
        for game in range(games):
            one = jax.tree_util.tree_map(lambda x, g=game: x[g], state)
            for seat in range(players):
                built = np.asarray(alone(one, seat))
                assert np.array_equal(each[game, seat], built), (i, game, seat)
                if seat == looking[game]:
                    assert np.array_equal(np.asarray(state.observation[game]), built), (i, game)
        mask = np.asarray(state.legal_action_mask)
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
        keys = jax.random.split(jax.random.PRNGKey(100 + i), games)
        state = step(state, jnp.asarray(actions), keys)
        tables.add(tuple(np.asarray(state.table).tolist()))
    assert len(tables) > 5  # the raw keys draw different candles from step to step
