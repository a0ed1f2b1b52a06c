"""16 Candies' standings: each Health Pool by the scoring tables' lines (issue 14)."""

from __future__ import annotations

from tests.sixteen_candies.helpers import game, orient_all
from tests.sixteen_candies.test_rounds import MIDDLE, STRONG, WEAK, quick_turn


def breakdown(state, seat):  # type: ignore[no-untyped-def]
    row = next(row for row in state.standings().rows if row.seat == seat)
    return {part.source: part.points for part in row.parts}


def test_a_round_scored_by_the_tables_in_rank_order() -> None:
    """Caller with the Highest Hand adds 2; the Lowest Hand (not the caller) takes its penalty (4);
    the Middle Hand: nothing happens."""
    state = game([STRONG, WEAK, MIDDLE], rounds=1)
    orient_all(state, "G6 G5 C6", "C4 K6 H6", "C6 C3 H5")
    quick_turn(state, 0, "G6 G5 C6", call=True)
    quick_turn(state, 1, "C4 K6 H6")
    quick_turn(state, 2, "C6 C3 H5")
    standings = state.standings(["Ann", "Bob", "Cy"])
    assert [(row.seat, row.rank, row.score) for row in standings.rows] == [
        (0, 1, 18),
        (2, 2, 16),
        (1, 3, 12),
    ]
    assert breakdown(state, 0) == {"Health Pool at the start": 16, "Calls with the Highest Hand": 2}
    assert breakdown(state, 1) == {"Health Pool at the start": 16, "Lowest Hand penalties": -4}
    assert breakdown(state, 2) == {"Health Pool at the start": 16}
    assert standings.summary == "Ann wins with 18 candy: the most candy after the last round."


def test_a_penalty_larger_than_the_pool_counts_what_was_paid() -> None:
    """Rulings SC-17: a pool of 3 owing 4 pays 3 and is out; the parts still sum to the pool."""
    state = game([STRONG, WEAK, MIDDLE], pool=3)
    orient_all(state, "G6 G5 C6", "C4 K6 H6", "C6 C3 H5")
    quick_turn(state, 0, "G6 G5 C6", call=True)
    quick_turn(state, 1, "C4 K6 H6")
    quick_turn(state, 2, "C6 C3 H5")
    assert breakdown(state, 1) == {"Health Pool at the start": 3, "Lowest Hand penalties": -3}
    standings = state.standings()
    assert not standings.final, "the game goes on: these are the current standings"
    assert [row.seat for row in standings.rows] == [0, 2, 1]
    assert standings.rows[-1].note == "out of candy in round 1"  # who lasted longer, tied at 0
    assert standings.summary == "seat 0 leads with 5 candy after 1 round."


def test_players_out_of_candy_share_a_place_and_the_summary_says_why() -> None:
    """Issue 36: the end screen ranked three players "2nd" with 0 candy and said nothing of why. The
    summary says who ran out when and that players out of candy share the last place (SC-18); the
    shared place lists the one who lasted longest first."""
    import candlebox
    from candlebox.bots import make

    state = candlebox.new_game("sixteen-candies", players=4, seed=1)
    bots = [make("heuristic", seed=seat) for seat in range(4)]
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, bots[seat].choose(state, seat))
    standings = state.standings(["Ann", "Bob", "Cy", "Di"])
    out = [row for row in standings.rows if row.score == 0]
    assert len(out) == 3 and {row.rank for row in out} == {2}
    rounds = [int(row.note.rsplit(" ", 1)[1]) for row in out]
    assert rounds == sorted(rounds, reverse=True)  # who lasted longest first
    names = [["Ann", "Bob", "Cy", "Di"][row.seat] for row in out]
    said = ", ".join(f"{n} in round {r}" for n, r in zip(names[:-1], rounds[:-1], strict=True))
    assert (
        f"{said} and {names[-1]} in round {rounds[-1]} ran out of candy: they share 2nd place"
        in standings.summary
    ), standings.summary
    assert "players out of candy share the last place" in standings.summary
