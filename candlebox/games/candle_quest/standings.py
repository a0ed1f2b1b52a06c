"""Candle Quest's standings (the ``scoring`` capability): each score broken down in the rulebook's words.

Advanced: "adding the face values of all the candles they have collected, excluding duplicates or Unlit
Candles, and then adds the number of Shekels they have. You can only add Shekels up to half your total
candle value, rounding down. The player who completed their Menorah receives a three-point bonus." —
three parts: candle value, shekels (counted), completer bonus. Basic and junior: "That player wins the
game!" — the winner scores 1 (rulings CQ-13, CQ-17); the places below rank by Menorah colours filled,
shown as a note (rulings CQ-20). Scores rest on the candles behind the screens, so current standings are
never shown to a seat mid-game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from candlebox.engine.standings import (
    ScorePart,
    Scoring,
    SeatNamer,
    Standing,
    Standings,
    joined,
    number,
    ranked,
)
from candlebox.engine.state import State
from candlebox.games.candle_quest.candles import N_COLOURS
from candlebox.games.candle_quest.decision import Phase
from candlebox.games.candle_quest.scoring import COMPLETION_BONUS, candle_value, colours_filled

if TYPE_CHECKING:
    from candlebox.games.candle_quest.state import CandleQuestState

CANDLE_VALUE = "Candle value"
SHEKELS = "Shekels (up to half the candle value)"
BONUS = "Menorah completer bonus"
MENORAH = "Completed the Menorah"
MOST_COLOURS = "Most Menorah colours filled"

_ENDED = {
    "max-turns": "The game reached its turn limit",
    "stalled": "The game could go no further",
}


def standings(state: State, name: SeatNamer) -> Standings:
    st: CandleQuestState = state  # type: ignore[assignment]  # the plug-in hands its own states
    over = st.phase is Phase.OVER
    filled = [colours_filled(screen, st.content) for screen in st.screens]
    notes = [f"{n} of {N_COLOURS} Menorah colours filled" for n in filled]
    if st.advanced:
        parts = [_advanced_parts(st, seat, over) for seat in range(st.num_players)]
        scores = [sum(p.points for p in seat_parts) for seat_parts in parts]
        by_shekels = st.options.get("tiebreak") == "shekels"
        keys = [(s, st.shekels[seat] if by_shekels else 0) for seat, s in enumerate(scores)]
    else:
        parts = [_basic_parts(st, seat, over) for seat in range(st.num_players)]
        scores = [sum(p.points for p in seat_parts) for seat_parts in parts]
        keys = [(s, filled[seat]) for seat, s in enumerate(scores)]
    winners = set(st.winners) if over else set()
    rows = tuple(
        Standing(seat, rank, float(scores[seat]), parts[seat], seat in winners, notes[seat])
        for seat, rank in ranked(keys)
    )
    # The basic game is a race to eight colours: its scores say only who won.
    return Standings(over, rows, _summary(st, rows, name, over), points=st.advanced)


def _advanced_parts(st: CandleQuestState, seat: int, over: bool) -> tuple[ScorePart, ...]:
    value = candle_value(st.screens[seat], st.content)
    parts = [
        ScorePart(CANDLE_VALUE, float(value)),
        ScorePart(SHEKELS, float(min(st.shekels[seat], value // 2))),
    ]
    if over and seat == st.completer:
        parts.append(ScorePart(BONUS, float(COMPLETION_BONUS)))
    return tuple(parts)


def _basic_parts(st: CandleQuestState, seat: int, over: bool) -> tuple[ScorePart, ...]:
    if not over or seat not in st.winners:
        return ()
    return (ScorePart(MENORAH if seat == st.completer else MOST_COLOURS, 1.0),)


def filled_of(st: CandleQuestState, seat: int) -> int:
    return colours_filled(st.screens[seat], st.content)


def _summary(st: CandleQuestState, rows: tuple[Standing, ...], name: SeatNamer, over: bool) -> str:
    firsts = [row for row in rows if row.rank == 1]
    who = joined([name(row.seat) for row in firsts])
    verb = "wins" if len(firsts) == 1 else "share the win"
    if not over:
        lead = "leads" if len(firsts) == 1 else "lead"
        if st.advanced:
            return f"{who} {lead} with {number(firsts[0].score)} points so far."
        return f"{who} {lead}: {firsts[0].note} so far."
    ended = _ENDED.get(st.end_reason)
    if not st.advanced:
        if st.completer >= 0:
            return f"{who} wins: the first to fill all {N_COLOURS} colours of the Menorah."
        most = filled_of(st, firsts[0].seat)
        return (
            f"{ended}; {who} {verb} with the most Menorah colours filled ({most} of {N_COLOURS})."
        )
    best = firsts[0].score
    tied = [row for row in rows if row.score == best]
    text = f"{who} {verb} with {number(best)} points"
    if len(tied) > len(firsts):
        others = joined([name(row.seat) for row in tied if row.rank != 1])
        shekels = st.shekels[firsts[0].seat]
        text += f", tied with {others} but holding more shekels ({shekels}): the tie-break"
    text += "."
    if st.completer >= 0:
        text = f"{name(st.completer)} completed the Menorah. " + text
    elif ended:
        text = f"{ended}, so no completer bonus was scored. " + text
    return text


SCORING = Scoring(standings=standings, secret_until_over=True)
