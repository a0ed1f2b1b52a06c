"""The flat observation option: the encoded view and the action mask in one float32 Box.

The adapters' usual observation is a Dict (``observation``, ``action_mask``), which standard
wrappers such as SuperSuit's ``flatten_v0`` and ``dtype_v0`` cannot take. With ``flat=True`` an
observation is one vector: the view's ``observation_size`` values, then ``num_distinct_actions``
values that are 1.0 for a legal action and 0.0 otherwise. :func:`split` gives the two parts back.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from candlebox.rl.core import Spec


def flat_space(spec: Spec) -> spaces.Box:
    return spaces.Box(
        0.0, 1.0, shape=(spec.observation_size + spec.num_distinct_actions,), dtype=np.float32
    )


def join(observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The flat observation of a view's encoding and its action mask (a new array)."""
    return np.concatenate([observation, mask.astype(np.float32)])


def split(spec: Spec, flat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The encoded view and the action mask (int8, as the Dict observation's) of a flat
    observation, or of a batch of them (the last axis split)."""
    if flat.shape[-1] != spec.observation_size + spec.num_distinct_actions:
        raise ValueError(
            f"a flat observation of {spec.config.describe()} "
            f"has {spec.observation_size + spec.num_distinct_actions} values, got {flat.shape[-1]}"
        )
    size = spec.observation_size
    return flat[..., :size], flat[..., size:].astype(np.int8)
