"""Swiss seating: table sizes, seating properties, exact optimum on small fields, determinism."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.seating import (
    Entrant,
    SeatingHistory,
    SeatingOptions,
    baseline_seating,
    repeat_meetings,
    seat_round,
    seating_cost,
    serpentine,
    table_sizes,
)

FAST = settings(max_examples=120, deadline=None)


def _reachable(n: int, allowed: tuple[int, ...]) -> bool:
    """Can n players be split exactly into tables of the allowed sizes? (plain reachability)"""
    ok = [True] + [False] * n
    for m in range(1, n + 1):
        ok[m] = any(m >= s and ok[m - s] for s in allowed)
    return ok[n]


def _random_history(ids: list[int], rounds: int, seed: int) -> SeatingHistory:
    """Earlier rounds seated at random, so the history has real repeats to avoid."""
    rng = random.Random(seed)
    history = SeatingHistory()
    sizes = table_sizes(len(ids))
    for _ in range(rounds):
        shuffled = ids[:]
        rng.shuffle(shuffled)
        tables, start = [], 0
        for size in sizes:
            tables.append(shuffled[start : start + size])
            start += size
        history.record_round(tables)
    return history


def _entrants(n: int, seed: int, clubs: int = 0) -> list[Entrant]:
    rng = random.Random(seed)
    return [
        Entrant(
            i,
            score=float(rng.randint(0, 6)),
            rating=rng.random(),
            club=f"club{i % clubs}" if clubs else None,
        )
        for i in range(n)
    ]


# --- table sizes ---------------------------------------------------------------------------


def test_table_sizes_examples() -> None:
    assert table_sizes(2) == []
    assert table_sizes(3) == [3]
    assert table_sizes(6) == [3, 3]
    assert table_sizes(7) == [4, 3]
    assert table_sizes(9) == [5, 4]
    assert table_sizes(12) == [4, 4, 4]
    assert table_sizes(13) == [5, 4, 4]
    assert table_sizes(15) == [4, 4, 4, 3]
    assert table_sizes(10, preferred=5, allowed=(5,)) == [5, 5]
    assert table_sizes(7, preferred=4, allowed=(4,)) == [4]


@given(
    n=st.integers(min_value=0, max_value=300),
    allowed=st.sets(st.integers(min_value=3, max_value=6), min_size=1),
    data=st.data(),
)
@settings(max_examples=150, deadline=None)
def test_table_sizes_everyone_plays_when_possible(n: int, allowed: set[int], data) -> None:
    allowed_sizes = tuple(sorted(allowed))
    preferred = data.draw(st.sampled_from(allowed_sizes))
    sizes = table_sizes(n, preferred, allowed_sizes)
    assert all(size in allowed_sizes for size in sizes)
    assert sum(sizes) <= n
    # the fewest byes: no larger seated count is reachable
    seated = sum(sizes)
    assert not any(_reachable(m, allowed_sizes) for m in range(seated + 1, n + 1))
    if n >= 3 and set(allowed_sizes) >= {3, 4, 5}:
        assert seated == n


# --- properties of a Swiss round -------------------------------------------------------------


@given(
    n=st.integers(min_value=3, max_value=40),
    past_rounds=st.integers(min_value=0, max_value=5),
    seed=st.integers(min_value=0, max_value=10_000),
    avoid_clubs=st.booleans(),
)
@FAST
def test_swiss_round_properties(n: int, past_rounds: int, seed: int, avoid_clubs: bool) -> None:
    entrants = _entrants(n, seed, clubs=5)
    history = _random_history([e.id for e in entrants], past_rounds, seed)
    options = SeatingOptions(seed=seed, avoid_same_club=avoid_clubs)
    seating = seat_round(entrants, past_rounds + 1, history, options)

    seated = [p for table in seating.tables for p in table]
    assert sorted(seated + seating.byes) == sorted(e.id for e in entrants)
    assert Counter(seated + seating.byes).most_common(1)[0][1] == 1
    assert all(len(table) in options.allowed for table in seating.tables)
    assert seating.byes == []  # with 3, 4 and 5 allowed every n >= 3 can play

    baseline = baseline_seating(entrants, past_rounds + 1, history, options)
    assert sorted(p for t in baseline for p in t) == sorted(seated)
    assert repeat_meetings(seating.tables, history) <= repeat_meetings(baseline, history)
    assert seating.cost == seating_cost(seating.tables, entrants, history, avoid_clubs)

    again = seat_round(entrants, past_rounds + 1, history, options)
    assert again == seating


def _min_repeats_brute_force(ids: list[int], sizes: list[int], history: SeatingHistory) -> int:
    """Try every way to fill the tables (independent of the module's own search)."""
    best = None

    def fill(remaining: list[int], open_sizes: list[int], cost: int) -> None:
        nonlocal best
        if not open_sizes:
            best = cost if best is None else min(best, cost)
            return
        size, rest_sizes = open_sizes[0], open_sizes[1:]
        for table in combinations(remaining, size):
            extra = sum(history.met(a, b) for a, b in combinations(table, 2))
            left = [p for p in remaining if p not in table]
            fill(left, rest_sizes, cost + extra)

    fill(ids, sizes, 0)
    return best


@given(
    n=st.integers(min_value=6, max_value=10),
    past_rounds=st.integers(min_value=1, max_value=4),
    seed=st.integers(min_value=0, max_value=10_000),
)
@settings(max_examples=60, deadline=None)
def test_small_fields_reach_the_fewest_repeats(n: int, past_rounds: int, seed: int) -> None:
    entrants = _entrants(n, seed)
    ids = [e.id for e in entrants]
    history = _random_history(ids, past_rounds, seed)
    seating = seat_round(entrants, past_rounds + 1, history, SeatingOptions(seed=seed))
    fewest = _min_repeats_brute_force(ids, table_sizes(n), history)
    assert seating.cost.repeats == fewest  # in particular zero whenever zero is possible


def test_zero_repeats_when_possible_in_a_large_field() -> None:
    entrants = _entrants(200, 7)
    history = SeatingHistory()
    for round_number in range(1, 7):
        seating = seat_round(entrants, round_number, history, SeatingOptions(seed=3))
        assert seating.cost.repeats == 0
        history.record_round(seating.tables, seating.byes)


def test_same_club_pairs_avoided_when_asked() -> None:
    entrants = [Entrant(i, club=f"club{i // 4}") for i in range(40)]  # ten clubs of four
    plain = seat_round(entrants, 2, SeatingHistory(), SeatingOptions(seed=1))
    avoided = seat_round(
        entrants, 2, SeatingHistory(), SeatingOptions(seed=1, avoid_same_club=True)
    )
    assert plain.cost.club_pairs == 0  # not counted when not asked for
    clubs = {e.id: e.club for e in entrants}
    pairs = sum(clubs[a] == clubs[b] for t in avoided.tables for a, b in combinations(t, 2))
    assert pairs == 0
    together = sum(clubs[a] == clubs[b] for t in plain.tables for a, b in combinations(t, 2))
    assert together > 0  # without the option the standings order keeps clubs together


def test_score_groups_sit_together() -> None:
    # four score groups of exactly one table each, no history: each table is one group
    entrants = [Entrant(i, score=float(i // 4)) for i in range(16)]
    seating = seat_round(entrants, 2, SeatingHistory(), SeatingOptions(seed=5))
    assert seating.cost.spread == 0
    assert [sorted(t) for t in seating.tables] == [
        [12, 13, 14, 15],
        [8, 9, 10, 11],
        [4, 5, 6, 7],
        [0, 1, 2, 3],
    ]


def test_repeat_avoidance_beats_score_groups() -> None:
    # the same four score groups, but three groups already met: the only fresh seatings put
    # one player of every group at each table, far from the score groups
    entrants = [Entrant(i, score=float(i // 4)) for i in range(16)]
    history = SeatingHistory.from_rounds([[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]])
    seating = seat_round(entrants, 2, history, SeatingOptions(seed=5))
    assert seating.cost.repeats == 0
    for table in seating.tables:
        assert sorted(p // 4 for p in table) == [0, 1, 2, 3]


def test_seats_rotate_evenly() -> None:
    entrants = [Entrant(i) for i in range(4)]
    history = SeatingHistory()
    for round_number in range(1, 5):
        seating = seat_round(entrants, round_number, history, SeatingOptions(seed=9))
        history.record_round(seating.tables)
    for player in range(4):
        assert history.seats_of(player)[:4] == [1, 1, 1, 1]


def test_round_one_by_lot_is_seeded() -> None:
    entrants = [Entrant(i) for i in range(20)]
    first = seat_round(entrants, 1, options=SeatingOptions(seed=1))
    assert first == seat_round(entrants, 1, options=SeatingOptions(seed=1))
    assert first.tables != seat_round(entrants, 1, options=SeatingOptions(seed=2)).tables


def test_round_one_by_rating_spreads_the_strongest() -> None:
    entrants = [Entrant(i, rating=100 - i) for i in range(16)]  # player 0 is the strongest
    seating = seat_round(entrants, 1, options=SeatingOptions(first_round="rating"))
    top_four_tables = {index for index, table in enumerate(seating.tables) for p in table if p < 4}
    assert len(top_four_tables) == 4
    assert serpentine(list(range(8)), [4, 4]) == [[0, 3, 4, 7], [1, 2, 5, 6]]


def test_byes_go_to_fewest_byes_then_lowest_score() -> None:
    entrants = [Entrant(i, score=float(i)) for i in range(6)]
    options = SeatingOptions(preferred=4, allowed=(4,))
    history = SeatingHistory(byes={0: 1})
    seating = seat_round(entrants, 2, history, options)
    assert sorted(seating.byes) == [1, 2]  # 0 is lowest but already had a bye
    assert [len(t) for t in seating.tables] == [4]
