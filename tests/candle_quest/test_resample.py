"""Resample in Candle Quest: nothing hidden is named in the log (every candle's whereabouts is public),
and a resampled stack keeps what everyone knows of it: the candles the option ``deck`` put on top."""

from __future__ import annotations

from candlebox.games.candle_quest.conformance import story as candle_quest_story
from tests.candle_quest.helpers import game, play


def _next_flips(state, count: int) -> list[str]:  # type: ignore[no-untyped-def]
    """The candles the next ``count`` flips show, played on a copy (selling each at once)."""
    twin = state.clone()
    shown: list[str] = []
    while len(shown) < count:
        seat = twin.to_act[0]
        legal = twin.legal_actions(seat)
        if "flip" in legal:
            twin.apply(seat, "flip")
            shown.append(twin.log(None)[-1]["candle"])
        else:
            twin.apply(seat, "sell" if "sell" in legal else legal[0])
    return shown


def test_resample_keeps_the_candles_the_deck_option_put_on_top() -> None:
    state = game(deck=["B5", "R7", "G3", "Y2", "B6"])
    play(state, (0, "flip"), (0, "sell"))  # B5 is gone: R7, G3, Y2, B6 are still known, in order
    assert _next_flips(state, 4) == ["R7", "G3", "Y2", "B6"]
    for seed in range(8):
        twin = state.resample(0, seed)
        assert _next_flips(twin, 4) == ["R7", "G3", "Y2", "B6"], "the known top stays"
        assert twin.view(0) == state.view(0) and twin.log(0) == state.log(0)
        candle_quest_story(twin)


def test_resample_still_shuffles_what_nobody_knows() -> None:
    state = game(deck=["B5"])
    play(state, (0, "flip"), (0, "sell"))
    tops = {tuple(state.resample(1, seed).to_json()["state"]["stack"][:3]) for seed in range(8)}
    assert len(tops) > 1
