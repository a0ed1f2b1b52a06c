"""bench/peers.py's JAX playout picks each game's action with ``_random_place``: a random valid
place of the mask from one random word, valid places only and each about as often, with one plain
maximum (an argmax, a reduction over pairs, is a loop per game under vmap on a CPU)."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("jax", reason="jax is not installed: pip install 'candlebox[jax]'")

import jax
import jax.numpy as jnp
import numpy as np

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture
def peers(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(BENCH))
    return importlib.import_module("peers")


@pytest.mark.parametrize("size", [17, 347])
def test_a_pick_is_a_valid_place_each_about_as_often(peers: ModuleType, size: int) -> None:
    rng = np.random.default_rng(size)
    valid = np.zeros(size, bool)
    chosen = rng.choice(size, 7, replace=False)
    valid[chosen] = True
    draws = 14_000
    words = jnp.asarray(rng.integers(0, 1 << 32, draws, dtype=np.uint64).astype(np.uint32))
    pick = jax.jit(jax.vmap(peers._random_place, in_axes=(None, 0)))
    places = np.asarray(pick(jnp.asarray(valid), words))
    assert set(places.tolist()) == set(chosen.tolist())
    counts = np.bincount(places, minlength=size)[chosen]
    expected = draws / len(chosen)
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < 22.5, counts  # 6 degrees of freedom: p < 0.001


def test_a_pick_is_one_plain_maximum(peers: ModuleType) -> None:
    valid = jnp.ones(347, bool)
    jaxpr = str(jax.make_jaxpr(peers._random_place)(valid, jnp.uint32(5)))
    assert "argmax" not in jaxpr
    assert "reduce_max" in jaxpr
