"""Candelabria's observations and masks along random games of every configuration match the digests
recorded in tests/rl/candelabria_digests.json (see tests/rl/candelabria_digests.py): the encoder's
output is unchanged by a change meant to keep it."""

from __future__ import annotations

import json

import pytest

from tests.rl.deps import require_rl

require_rl()

from tests.rl import candelabria_digests as digests  # noqa: E402

KEPT: dict[str, list[str]] = json.loads(digests.DATA.read_text())
CASES = [
    (variant, players, options, seed)
    for variant, players, options in digests.CONFIGS
    for seed in digests.SEEDS
]


def test_every_case_is_recorded() -> None:
    assert sorted(KEPT) == sorted(digests.key(*case) for case in CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda case: digests.key(*case))
def test_observations_match_the_recorded_digests(case: tuple) -> None:
    found = digests.digests(*case)
    kept = KEPT[digests.key(*case)]
    assert found[-1] == kept[-1], "the random game took another course"
    differs = [i for i, (a, b) in enumerate(zip(found, kept, strict=False)) if a != b]
    assert not differs and len(found) == len(kept), (
        f"observations differ from checkpoint {differs[:1]} "
        f"(every {digests.EVERY} steps): regenerate only for an intended encoding change"
    )
