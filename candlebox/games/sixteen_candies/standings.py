"""16 Candies' standings (the ``scoring`` capability): each Health Pool broken down by where its candy
went, from the rounds' ``score`` events, named after the rulebook's scoring tables ("When a Player
Calls", "When a Player Didn't Call", the Instant Round Win).

A part counts what a pool really changed by, which is the table's amount except where the pool could not
follow it: a penalty larger than the pool empties it (rulings SC-17), and with ``pool_cap`` a gain stops
at the cap. So the parts always sum to the pool, the score. Pools are public, so the current standings
may be shown mid-game. Ranks follow the pools; equal pools share a place (rulings SC-18: ties share).
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
from candlebox.games.sixteen_candies.decision import Phase

if TYPE_CHECKING:
    from candlebox.games.sixteen_candies.state import SixteenCandiesState

START = "Health Pool at the start"
INSTANT = "Instant Round Wins"
CALL_HIGHEST = "Calls with the Highest Hand"
CALL_MIDDLE = "Calls with a Middle Hand"
CALL_LOWEST = "Calls with the Lowest Hand"
LOWEST = "Lowest Hand penalties"
# The parts in the order shown (a seat lists only those it has).
SOURCES = (START, INSTANT, CALL_HIGHEST, CALL_MIDDLE, CALL_LOWEST, LOWEST)

_REASONS = {
    "last-candy": "the last player with candy left",
    "rounds": "the most candy after the last round",
    "max-turns": "the most candy when the turn limit was reached",
}


def source(role: str, rank: str, due: int) -> str | None:
    """The scoring table line a round's change for one seat comes from (None: nothing happened)."""
    if due == 0:
        return None
    if role == "instant":
        return INSTANT
    if role == "caller":
        if due > 0:  # the highest hand, or every hand equal under all_tied="caller-wins"
            return CALL_HIGHEST
        return CALL_MIDDLE if rank == "middle" else CALL_LOWEST
    return LOWEST


def parts_of(st: SixteenCandiesState) -> list[dict[str, int]]:
    """Each seat's candy by source, from the start to now."""
    parts: list[dict[str, int]] = [{START: st.start_pool} for _ in range(st.num_players)]
    pools = [st.start_pool] * st.num_players
    for event in st.events:
        if event[0] != "score":
            continue
        _, seat, role, rank, due, after = event
        name = source(role, rank, due)
        if name is not None:
            parts[seat][name] = parts[seat].get(name, 0) + after - pools[seat]
        pools[seat] = after
    return parts


def rounds_out(st: SixteenCandiesState) -> dict[int, int]:
    """The round in which each seat that is out lost its last candy (players tied at 0 candy share a
    place, rulings SC-18; the round tells who lasted longer)."""
    found: dict[int, int] = {}
    current = 0
    for event in st.events:
        if event[0] == "round":
            current = event[1]
        elif event[0] == "out":
            found[event[1]] = current
    return found


def _out_note(seat: int, out: dict[int, int]) -> str:
    return f"out of candy in round {out[seat]}" if seat in out else "out of candy"


def _ordinal(n: int) -> str:
    tail = "th" if 10 < n % 100 < 14 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{tail}"


def _shared_places(rows: tuple[Standing, ...], out: dict[int, int], name: SeatNamer) -> list[str]:
    """A sentence for each place below the first that several players share: a newcomer saw three
    players "2nd" with 0 candy and no word of why (issue 36). Players out of candy share the last
    place however long they lasted (SC-18), so the sentence says who ran out when."""
    said = []
    for rank in sorted({row.rank for row in rows if row.rank > 1}):
        tied = [row for row in rows if row.rank == rank]
        if len(tied) < 2:
            continue
        place = _ordinal(rank)
        if tied[0].score == 0 and all(row.seat in out for row in tied):
            when = joined([f"{name(row.seat)} in round {out[row.seat]}" for row in tied])
            said.append(
                f"{when} ran out of candy: they share {place} place "
                "(players out of candy share the last place, however long they lasted)."
            )
        else:
            who = joined([name(row.seat) for row in tied])
            said.append(
                f"{who} share {place} place with {number(tied[0].score)} candy each "
                "(equal candy shares a place)."
            )
    return said


def standings(state: State, name: SeatNamer) -> Standings:
    st: SixteenCandiesState = state  # type: ignore[assignment]  # the plug-in hands its own states
    over = st.phase is Phase.OVER
    counted = parts_of(st)
    out = rounds_out(st)
    scores = [float(sum(found.values())) for found in counted]
    winners = set(st.winners) if over else set()
    # within a shared place, the one who ran out of candy last first (those still in: seat order)
    lasted = sorted(range(st.num_players), key=lambda seat: -out.get(seat, st.rounds_played + 1))
    ranks = ranked([(score,) for score in scores], lasted)
    rows = tuple(
        Standing(
            seat,
            rank,
            scores[seat],
            tuple(ScorePart(s, float(counted[seat][s])) for s in SOURCES if s in counted[seat]),
            seat in winners,
            _out_note(seat, out) if scores[seat] == 0 else "",
        )
        for seat, rank in ranks
    )
    firsts = [row for row in rows if row.rank == 1]
    who = joined([name(row.seat) for row in firsts])
    best = number(firsts[0].score)
    if not over:
        lead = "leads" if len(firsts) == 1 else "lead"
        played = st.rounds_played
        after = f"after {played} round{'' if played == 1 else 's'}"
        return Standings(False, rows, f"{who} {lead} with {best} candy {after}.")
    reason = _REASONS.get(st.end_reason, "the most candy")
    if len(firsts) == 1:
        summary = f"{who} wins with {best} candy: {reason}."
    else:
        summary = f"{who} share the win with {best} candy each: {reason} (ties share)."
    return Standings(True, rows, " ".join([summary, *_shared_places(rows, out, name)]))


SCORING = Scoring(standings=standings)
