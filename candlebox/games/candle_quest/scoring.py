"""Game end and scoring: the basic win (eight colours), the advanced score, and the end by turn limit.

Basic and junior games score 1 for the winner and 0 for the others. The advanced game scores each
collection: face values without duplicates or Unlit candles, shekels up to half of that (rounded down),
and 3 for the player who completed the Menorah; the highest score wins.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from candlebox.games.candle_quest.candles import N_COLOURS, PRINTED, Candles, Kind
from candlebox.games.candle_quest.decision import Phase
from candlebox.games.candle_quest.screen import colours_filled, menorah_complete

if TYPE_CHECKING:
    from candlebox.games.candle_quest.state import CandleQuestState

COMPLETION_BONUS = 3

__all__ = ["advanced_score", "candle_value", "colours_filled", "end_game", "menorah_complete"]


def candle_value(screen: dict[int, int], content: Candles = PRINTED) -> int:
    """Face values of a collection, duplicates and Unlit candles excluded.

    The collection is a Menorah of eight places: each Dancing candle takes the place of one colour
    (the best use of them is taken). In play a collection never holds more Lit colours and Dancing
    candles together than eight places (the game ends when they reach eight), so every Dancing candle
    collected counts in full; the cap matters only for positions built by hand (rulings CQ-14).
    """
    best = [0] * N_COLOURS
    wilds: list[int] = []
    kinds, colours, face = content.kind, content.colour, content.face
    for candle, count in screen.items():
        kind = kinds[candle]
        if kind is Kind.LIT:
            colour = colours[candle]
            best[colour] = max(best[colour], face[candle])
        elif kind is Kind.DANCING:
            wilds.extend([face[candle]] * count)
    slots = sorted(best)
    for i, wild in enumerate(sorted(wilds, reverse=True)[:N_COLOURS]):
        if wild <= slots[i]:
            break
        slots[i] = wild
    return sum(slots)


def advanced_score(candles: int, shekels: int, completed: bool) -> int:
    return candles + min(shekels, candles // 2) + (COMPLETION_BONUS if completed else 0)


def final_scores(st: CandleQuestState, completer: int) -> tuple[float, ...]:
    if st.advanced:
        return tuple(
            float(
                advanced_score(
                    candle_value(screen, st.content), st.shekels[seat], seat == completer
                )
            )
            for seat, screen in enumerate(st.screens)
        )
    if completer >= 0:
        return tuple(1.0 if seat == completer else 0.0 for seat in range(st.num_players))
    return tuple(float(colours_filled(screen, st.content)) for screen in st.screens)


def _best(st: CandleQuestState, measure: tuple[float, ...]) -> tuple[int, ...]:
    top = max(measure)
    leaders = [seat for seat, value in enumerate(measure) if value == top]
    if len(leaders) > 1 and st.advanced and st.options["tiebreak"] == "shekels":
        most = max(st.shekels[seat] for seat in leaders)
        leaders = [seat for seat in leaders if st.shekels[seat] == most]
    return tuple(leaders)


def end_game(st: CandleQuestState, reason: str, completer: int = -1) -> None:
    """End now. ``reason``: 'menorah' (``completer`` did it), 'max-turns' or 'stalled'."""
    if completer >= 0:
        st.events.append(("menorah", completer))
    measure = final_scores(st, completer)
    st.winners = _best(st, measure)
    if st.advanced:
        st.final = measure
    else:  # basic and junior: the winner(s) score 1; see rulings 'Ending early' for the standings
        st.final = tuple(1.0 if seat in st.winners else 0.0 for seat in range(st.num_players))
    st.end_reason = reason
    st.completer = completer
    st.phase = Phase.OVER
    st.actor = -1
    st.events.append(("game-over", reason, tuple(st.winners)))
