"""candlebox.rl.jax: the JAX rules agree with the engine step by step (``check``) at every player
count and under every option, run under jit and vmap on deals drawn from their keys, and refuse what
they cannot play."""

from __future__ import annotations

import pytest

from tests.rl.deps import require_rl

require_rl()
pytest.importorskip("jax", reason="jax is not installed: pip install 'candlebox[jax]'")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

import candlebox.rl  # noqa: E402
import candlebox.rl.jax as rljax  # noqa: E402
from candlebox.games.sixteen_candies.cards import CODE, FULL_SET, N_TYPES  # noqa: E402
from tests.deep import split  # noqa: E402

GAME = "sixteen-candies"
BOX = 40  # the cards of the box: the piles and hands always hold them all


# Each configuration compiles for tens of seconds on 2 cores: the README's run keeps 2 players, CI's
# second step (-m deep) the rest, the options and the rules' corners.
@pytest.mark.parametrize("players", split([2, 3, 4], lambda n: n == 2))
def test_check_agrees_with_the_engine_at_every_player_count(players: int) -> None:
    report = rljax.check(GAME, players, games=2, seed=10 * players)
    assert report["mismatches"] == 0, report["first"]
    assert report["games"] == 2
    assert report["steps"] > 40


# Every option away from its default, spread over two configurations (each one compiles once).
OPTION_SETS = [
    (3, {"draw": "optional", "rediscard": False, "instant_win": "held", "instant_gain": "none"}),
    (4, {"all_tied": "caller-wins", "pool_cap": True, "pool": 5, "first_player": 2, "rounds": 4}),
]


@pytest.mark.deep  # compiles twice more; every option is a variant (CI's second step)
@pytest.mark.parametrize(("players", "options"), OPTION_SETS, ids=str)
def test_check_agrees_under_every_option(players: int, options: dict) -> None:
    report = rljax.check(GAME, players, games=3, seed=7, **options)
    assert report["mismatches"] == 0, report["first"]


@pytest.mark.deep  # compiles anew for one rule's corner (CI's second step)
def test_check_agrees_through_reshuffles_and_truncation() -> None:
    """Random play calls so often that a round rarely empties the draw pile; players who never call
    and always draw from the pile play one round until ``max_turns``, rebuilding the draw pile from
    the discard pile again and again (and turning their cards at random)."""
    reshuffles = [0]

    def from_the_pile(state, seat, legal, rng):  # type: ignore[no-untyped-def]
        reshuffles.append(sum(1 for event in state.events if event[0] == "reshuffle"))
        texts = {spec.actions.to_text(a): a for a in legal}
        if "draw pile" in texts:
            return texts["draw pile"]
        return rng.choice([a for text, a in texts.items() if text != "call"])

    spec = candlebox.rl.spec(GAME, 2, max_turns=120)
    report = rljax.check(GAME, 2, games=2, seed=1, policy=from_the_pile, max_turns=120)
    assert report["mismatches"] == 0, report["first"]
    assert max(reshuffles) >= 2
    assert report["truncated"] >= 1


@pytest.mark.deep  # compiles anew for one rule's corner (CI's second step)
def test_check_agrees_on_a_dealt_instant_win() -> None:
    """Both hands of the deck can show 4, 5 and 6 of one candy: in 'held' mode both win the round
    when picked up (the deck option: dealt one card at a time, seat 0 first)."""
    deck = ["G6-C1", "C6-G1", "G5-C2", "C5-G2", "G4-C3", "C4-G3"]
    report = rljax.check(GAME, 2, games=2, deck=deck, instant_win="held", rounds=1)
    assert report["mismatches"] == 0, report["first"]
    assert report["steps"] == 2 * 2  # two pick-ups per game, then the round and the game are over


@pytest.mark.deep  # compiles anew; Candle Quest's twin runs by default (CI's second step)
def test_jit_and_vmap_play_whole_games_from_their_keys() -> None:
    """16 games vmapped under jit, dealt and reshuffled from their keys, random legal actions: every
    action chosen is legal by the mask, every card of the box stays in a pile or a hand, and the
    deals differ from key to key but not for one key."""
    env = rljax.make(GAME, 3, max_turns=60)
    games = 16
    keys = jax.random.split(jax.random.key(3), games)
    init = jax.jit(jax.vmap(env.init))
    state = init(keys)
    again = init(keys)
    assert np.array_equal(np.asarray(state.hands), np.asarray(again.hands))
    assert len({tuple(np.asarray(h).ravel()) for h in state.hands}) > games // 2
    step = jax.jit(jax.vmap(env.step))
    candidates = jax.jit(jax.vmap(env.legal_action_ids))
    rng = np.random.default_rng(0)
    ended = np.zeros(games, bool)
    paid = np.zeros((games, 3), np.float32)
    for i in range(400):
        ids, valid = (np.asarray(a) for a in candidates(state))
        live = ~np.asarray(state.terminated | state.truncated)
        assert (valid.any(axis=1) == live).all()
        actions = np.array(
            [rng.choice(row[ok]) if ok.any() else 0 for row, ok in zip(ids, valid, strict=True)]
        )
        mask = np.asarray(state.legal_action_mask)
        assert mask[np.arange(games), actions][live].all()
        assert (mask.sum(axis=1) == valid.sum(axis=1)).all()
        state = step(state, jnp.asarray(actions), jax.random.split(jax.random.key(i), games))
        cards = (
            np.asarray(state.draw_len)
            + np.asarray(state.discard_len)
            + np.asarray(state.hand_len).sum(axis=1)
        )
        assert (cards == BOX).all()
        ended |= np.asarray(state.terminated | state.truncated)
        paid += np.asarray(state.rewards)  # paid once, at the step that ends the game
        if ended.all():
            break
    assert ended.all()  # max_turns=60 ends every game
    assert np.allclose(paid.sum(axis=1), 1.0)


@pytest.mark.deep  # compiles four functions anew (CI's second step)
def test_a_batched_step_s_observation_is_the_one_built_alone() -> None:
    """Under ``vmap`` every game's observation is the one ``observe`` builds for it alone
    (unbatched), and ``observe_all`` under ``vmap`` agrees, along random games."""
    env = rljax.make(GAME, 2)
    games = 12
    state = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.key(8), games))
    step = jax.jit(jax.vmap(env.step))
    candidates = jax.jit(jax.vmap(env.legal_action_ids))
    alone = jax.jit(env.observe)
    every = jax.jit(jax.vmap(env.observe_all))
    rng = np.random.default_rng(1)
    for i in range(30):
        actor, last = np.asarray(state.actor), np.asarray(state.last_actor)
        looking = np.where(actor >= 0, actor, last)
        seen = np.asarray(every(state))
        for game in range(0, games, 3):
            one = jax.tree_util.tree_map(lambda x, g=game: x[g], state)
            built = np.asarray(alone(one, int(looking[game])))
            assert np.array_equal(np.asarray(state.observation[game]), built), (i, game)
            assert np.array_equal(seen[game, looking[game]], built), (i, game)
        ids, valid = (np.asarray(a) for a in candidates(state))
        actions = np.array(
            [rng.choice(r[v]) if v.any() else 0 for r, v in zip(ids, valid, strict=True)]
        )
        state = step(state, jnp.asarray(actions), jax.random.split(jax.random.key(50 + i), games))


@pytest.mark.deep  # compiles two functions anew (CI's second step)
def test_a_batched_step_ends_rounds_as_each_game_alone() -> None:
    """Under ``vmap`` only the games whose round ends are scored and dealt anew, gathered into a
    smaller batch (a sixteenth or a half of the games) and scattered back, or all of them when more
    end: every game's state after a batched step is the one its step alone gives, whether none,
    a few, many or most of the batch end a round (the share of games calling is varied step by
    step to reach each case)."""
    env = rljax.make(GAME, 2)
    games = 32
    state = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.key(4), games))
    step = jax.jit(jax.vmap(env.step))
    alone = jax.jit(env.step)
    candidates = jax.jit(jax.vmap(env.legal_action_ids))
    rng = np.random.default_rng(2)
    ended_together = set()
    for i in range(160):
        ids, valid = (np.asarray(a) for a in candidates(state))
        calling = [0.03, 0.3, 1.0][i % 3]  # the share of games that call when they may
        actions = []
        for row, ok in zip(ids, valid, strict=True):
            call = row[ok][row[ok] == env.call_id]
            others = row[ok][row[ok] != env.call_id]
            if call.size and (rng.random() < calling or not others.size):
                actions.append(call[0])
            else:
                actions.append(rng.choice(others) if others.size else 0)
        keys = jax.random.split(jax.random.key(100 + i), games)
        after = step(state, jnp.asarray(actions), keys)
        for game in range(games):
            one = jax.tree_util.tree_map(lambda x, g=game: x[g], state)
            expected = alone(one, actions[game], keys[game])
            for name, got, want in zip(after._fields, after, expected, strict=True):
                assert np.array_equal(np.asarray(got[game]), np.asarray(want)), (i, game, name)
        rounds = np.asarray(after.rounds_played) != np.asarray(state.rounds_played)
        ended_together.add(min(int(rounds.sum()), games // 2 + 1))
        state = after
    # none, a sixteenth's batch, a half's batch, and more than half: every way was taken
    assert {0, 1, games // 2 + 1} <= ended_together
    assert ended_together & set(range(games // 16 + 1, games // 2 + 1))


def test_a_deal_from_a_key_draws_every_card_of_the_box_as_likely() -> None:
    """A deal from a key takes its cards from a sample of the box's top drawn through a hash of
    one threefry draw (no sort): every place dealt from holds each card type as often as the box
    has copies of it, and the pile is always the whole box (the deck option's cards on top)."""
    env = rljax.make(GAME, 3)
    games = 4000
    piles = np.asarray(
        jax.jit(jax.vmap(env.first_pile))(jax.random.split(jax.random.key(5), games))
    )
    box = np.sort(np.array(FULL_SET))
    assert (np.sort(piles, axis=1) == box).all()
    dealt = 3 * 3 + 1  # three cards to each of three players, then the first discard
    expected = np.bincount(box, minlength=N_TYPES) / BOX * games
    for place in range(BOX - dealt, BOX):
        seen = np.bincount(piles[:, place], minlength=N_TYPES)
        chi2 = ((seen - expected) ** 2 / expected).sum()
        assert chi2 < 90, (place, chi2)  # 36 degrees of freedom: 90 is six deviations out
    deck = ["G6-C1", "C6-G1", "G5-C2"]
    stacked = np.asarray(rljax.make(GAME, 2, deck=deck).first_pile(jax.random.key(1)))
    assert [CODE[t] for t in stacked[::-1][: len(deck)]] == deck
    assert (np.sort(stacked) == box).all()


def test_what_cannot_be_played_is_refused() -> None:
    with pytest.raises(
        ValueError, match="no JAX rules yet; covered: candle-quest, sixteen-candies"
    ):
        rljax.make("candelabria", 3)
    with pytest.raises(ValueError, match="first_player"):
        rljax.make(GAME, 2, first_player=3)
    with pytest.raises(ValueError, match="games must be at least 1"):
        rljax.check(GAME, 2, games=0)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_check_agrees_over_many_games(players: int) -> None:
    for options in ({}, {"draw": "optional", "rediscard": False}, {"instant_win": "held"}):
        report = rljax.check(GAME, players, games=40, seed=1000, **options)
        assert report["mismatches"] == 0, (options, report["first"])
