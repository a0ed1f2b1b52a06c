"""The Curse of Candelabria's standings (the ``scoring`` capability): Victory Points by source, from the
``vp`` events every gain and loss of VP logs, named in the rulebook's words.

"The player with the most Victory Points is considered the winner. In the event of a tie, the first of
those players in the Turn Order is declared the winner." Every place is decided the same way (rulings
CA-43), so no two seats share one. VP are public (the Score track), so the current standings may be shown
mid-game.
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

if TYPE_CHECKING:
    from candlebox.games.candelabria.state import CandelabriaState

# A ``vp`` event's reason -> the source in words, in the order shown.
SOURCES = {
    "battle": "Battles won",
    "mission": "Missions",
    "white-temple": "White Temples",
    "effect": "Candle card effects",
    "upgrade": "Upgrades",
    "tactic": "Tactic cards",
    "war-board": "War Board",
    "decay": "Decay cards (VP stolen)",
    "end-of-game": "End-of-game Upgrades and House powers",
}


def parts_of(st: CandelabriaState) -> list[dict[str, int]]:
    """Each seat's VP by source (a reason not in SOURCES is shown by its own name)."""
    parts: list[dict[str, int]] = [{} for _ in range(st.num_players)]
    for event in st.events:
        if event[0] == "vp":
            _, seat, amount, reason = event
            parts[seat][reason] = parts[seat].get(reason, 0) + amount
    return parts


def standings(state: State, name: SeatNamer) -> Standings:
    st: CandelabriaState = state  # type: ignore[assignment]  # the plug-in hands its own states
    over = st.is_over
    counted = parts_of(st)
    order = list(st.order)
    place = {seat: i for i, seat in enumerate(order)}
    known = list(SOURCES)
    rows = tuple(
        Standing(
            seat,
            rank,
            float(st.vp[seat]),
            tuple(
                ScorePart(SOURCES.get(reason, reason), float(points))
                for reason, points in sorted(
                    counted[seat].items(),
                    key=lambda kv: known.index(kv[0]) if kv[0] in known else len(known),
                )
                if points
            ),
            over and seat in st.winning_seats,
            f"{_ordinal(place[seat] + 1)} in the turn order",
        )
        for seat, rank in ranked([(st.vp[s], -place[s]) for s in range(st.num_players)], order)
    )
    first = rows[0]
    who = name(first.seat)
    best = number(first.score)
    tied = [row for row in rows[1:] if row.score == first.score]
    verb = "wins" if over else "leads"
    text = f"{who} {verb} with {best} VP"
    if tied:
        text += (
            f", tied with {joined([name(row.seat) for row in tied])} but first of them in the"
            " turn order: the tie-break"
        )
    text += "."
    if over and st.end_reason == "max-turns":
        text = "The game reached its turn limit before the Third Year ended. " + text
    elif not over:
        text += f" (Year {st.year})"
    return Standings(over, rows, text)


def _ordinal(n: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10 if n > 20 else n, "th")
    return f"{n}{suffix}"


SCORING = Scoring(standings=standings)
