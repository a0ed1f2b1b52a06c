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
    keys = {s: st.vp[s] for s in range(st.num_players)}
    rows = tuple(
        Standing(
            seat,
            rank,
            float(st.vp[seat]),
            _score_parts(counted[seat]),
            over and seat in st.winning_seats,
            _tie_note(seat, [s for s in order if s != seat and keys[s] == keys[seat]], place, name),
        )
        for seat, rank in ranked([(st.vp[s], -place[s]) for s in range(st.num_players)], order)
    )
    return Standings(over, rows, _summary(st, rows, name))


def _score_parts(parts: dict[str, int]) -> tuple[ScorePart, ...]:
    """A seat's VP by source, in the order of SOURCES (a source it does not name last)."""
    known = list(SOURCES)
    return tuple(
        ScorePart(SOURCES.get(reason, reason), float(points))
        for reason, points in sorted(
            parts.items(), key=lambda kv: known.index(kv[0]) if kv[0] in known else len(known)
        )
        if points
    )


def _summary(st: CandelabriaState, rows: tuple[Standing, ...], name: SeatNamer) -> str:
    """Who wins (or leads) with how many VP, and how the Turn Order breaks a tie for first."""
    over = st.is_over
    first = rows[0]
    who = name(first.seat)
    best = number(first.score)
    tied = [row for row in rows[1:] if row.score == first.score]
    verb = "wins" if over else "leads"
    text = f"{who} {verb} with {best} VP" + ("." if over else f" (Year {st.year}).")
    if tied:
        others = joined([name(row.seat) for row in tied])
        text += (
            f" {others} {'has' if len(tied) == 1 else 'have'} {best} VP too: a tie goes to the"
            " player who comes first in the Turn Order (the order in which players take their"
            f" turns), and {who} plays before {others}. {RULE}"
        )
    if over and st.end_reason == "max-turns":
        text = "The game reached its turn limit before the Third Year ended. " + text
    return text


# The rulebook's tie-break ("End of the Game"), quoted wherever a tie is decided by it.
RULE = (
    "The rulebook: \u201cIn the event of a tie, the first of those players in the Turn Order is"
    " declared the winner.\u201d"
)


def _tie_note(seat: int, tied: list[int], place: dict[int, int], name: SeatNamer) -> str:
    """A seat's note when others have as many VP: why it is placed where it is among them, in
    words; else none (a place that VP alone decide needs no note)."""
    if not tied:
        return ""
    before = [name(s) for s in tied if place[s] < place[seat]]
    after = [name(s) for s in tied if place[s] > place[seat]]
    where = " and ".join(
        words
        for words in (
            f"after {joined(before)}" if before else "",
            f"before {joined(after)}" if after else "",
        )
        if words
    )
    return (
        f"Same VP as {joined([name(s) for s in tied])}: a tie goes to whoever plays first in the"
        f" Turn Order, so placed {where}"
    )


def _ordinal(n: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10 if n > 20 else n, "th")
    return f"{n}{suffix}"


SCORING = Scoring(standings=standings)
