"""What a player keeps behind their screen: collected candles (type -> count) and their face total."""

from __future__ import annotations

from typing import TYPE_CHECKING

from candlebox.games.candle_quest.candles import N_COLOURS, PRINTED, Candles, Kind

if TYPE_CHECKING:
    from candlebox.games.candle_quest.state import CandleQuestState


def put_behind(st: CandleQuestState, seat: int, candle: int) -> None:
    screen = st.screens[seat]
    screen[candle] = screen.get(candle, 0) + 1
    st.worth[seat] += st.content.face[candle]


def take_out(st: CandleQuestState, seat: int, candle: int) -> None:
    screen = st.screens[seat]
    left = screen[candle] - 1
    if left:
        screen[candle] = left
    else:
        del screen[candle]
    st.worth[seat] -= st.content.face[candle]


def colours_filled(screen: dict[int, int], content: Candles = PRINTED) -> int:
    """Menorah colours covered: distinct Lit colours, each Dancing candle filling one more."""
    colours = set()
    dancing = 0
    kinds, colour = content.kind, content.colour
    for candle, count in screen.items():
        kind = kinds[candle]
        if kind is Kind.LIT:
            colours.add(colour[candle])
        elif kind is Kind.DANCING:
            dancing += count
    return min(N_COLOURS, len(colours) + dancing)


def menorah_complete(screen: dict[int, int], content: Candles = PRINTED) -> bool:
    return colours_filled(screen, content) >= N_COLOURS


def listing(screen: dict[int, int]) -> list[int]:
    """Every candle behind the screen, one entry per candle, by type number."""
    return [candle for candle in sorted(screen) for _ in range(screen[candle])]
