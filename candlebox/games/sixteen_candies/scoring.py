"""Scoring a round: exactly the rulebook's two tables, "When a Player Calls" and "When a Player Didn't
Call", plus the Instant Round Win.

When a player calls:

- Highest Hand, including ties: the caller adds 2 Candy to their Health Pool.
- Middle Hand, including ties: the caller loses 1 Candy.
- Lowest Hand: the caller loses their cards' Penalty Candy amount plus 1.
- Lowest Hand (tie): only the caller loses their Penalty Candy amount plus 1.

When a player didn't call: highest or middle, nothing; lowest (including ties, unless the tie is with
the caller), the cards' Penalty Candy amount.

Rulings (docs/rulings.md, 16 Candies): an instant winner ranks highest whatever the numbers and by
default adds 2, as a caller with the highest hand (``instant_gain="none"``: it only wins the round); a call made before an instant win in the final turns still
stands. When every hand is equal the caller is tied for lowest as well as highest: by default
(``all_tied="caller-loses"``) the call failed — it claims "a Higher Hand than at least one other Player"
— and the caller pays; ``all_tied="caller-wins"`` reads "Highest Hand, Including Ties" instead.
"""

from __future__ import annotations

from collections.abc import Iterable

CALLER_HIGHEST = 2
CALLER_MIDDLE = -1
CALLER_LOWEST_EXTRA = 1
INSTANT_WINNER = 2
_ABOVE_ALL = 1 << 30  # an instant winner's rank: above any hand


def round_changes(
    seats: Iterable[int],
    values: dict[int, int],
    penalties: dict[int, int],
    caller: int = -1,
    instant: tuple[int, ...] = (),
    all_tied: str = "caller-loses",
    instant_gain: int = INSTANT_WINNER,
) -> dict[int, tuple[str, str, int]]:
    """Each seat's (role, rank, change due) under the scoring tables; -1 for no caller.

    ``instant_gain``: what an instant winner adds (option ``instant_gain``: 2, or 0 for 'none').
    """
    seats = list(seats)
    rank_value = {s: _ABOVE_ALL if s in instant else values[s] for s in seats}
    top = max(rank_value.values())
    bottom = min(rank_value.values())
    caller_lowest = caller >= 0 and rank_value[caller] == bottom
    result: dict[int, tuple[str, str, int]] = {}
    for seat in seats:
        value = rank_value[seat]
        if top == bottom:
            rank = "all-tied"
        elif value == top:
            rank = "highest"
        elif value == bottom:
            rank = "lowest"
        else:
            rank = "middle"
        if seat in instant:
            result[seat] = ("instant", rank if rank == "all-tied" else "highest", instant_gain)
        elif seat == caller:
            if rank == "all-tied":
                won = all_tied == "caller-wins"
                due = CALLER_HIGHEST if won else -(penalties[seat] + CALLER_LOWEST_EXTRA)
            elif rank == "highest":
                due = CALLER_HIGHEST
            elif rank == "middle":
                due = CALLER_MIDDLE
            else:
                due = -(penalties[seat] + CALLER_LOWEST_EXTRA)
            result[seat] = ("caller", rank, due)
        else:
            lowest = rank == "lowest" or (rank == "all-tied" and caller < 0 and not instant)
            due = -penalties[seat] if lowest and not caller_lowest else 0
            result[seat] = ("other", rank, due)
    return result


def apply_change(pool: int, due: int, cap: int | None) -> int:
    """The pool after a change: never below 0 (a penalty larger than the pool empties it), and with
    ``cap`` (option ``pool_cap``) a gain cannot take it above the cap."""
    after = pool + due
    if due > 0 and cap is not None:
        after = min(after, max(cap, pool))
    return max(0, after)
