"""Fixed schedules: everyone seated once per round, and meetings as even as claimed."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from tournaments.schedule import fixed_schedule, pair_meetings, schedule_stats


def _check_rounds(schedule, allowed: tuple[int, ...]) -> None:
    for tables, byes in zip(schedule.rounds, schedule.byes, strict=True):
        seated = [p for table in tables for p in table]
        assert sorted(seated + byes) == list(range(schedule.players))
        assert all(len(table) in allowed for table in tables)


@pytest.mark.parametrize("seed", range(5))
def test_nine_players_in_threes_meet_everyone_exactly_once_in_four_rounds(seed: int) -> None:
    # a Kirkman-style resolvable design exists (the affine plane of order 3); the search finds it
    schedule = fixed_schedule(9, table_size=3, rounds=4, seed=seed)
    _check_rounds(schedule, (3,))
    matrix = pair_meetings(9, schedule.rounds)
    assert all(matrix[a][b] == 1 for a, b in combinations(range(9), 2))


@pytest.mark.parametrize("seed", range(3))
def test_sixteen_players_in_fours_meet_everyone_exactly_once_in_five_rounds(seed: int) -> None:
    schedule = fixed_schedule(16, table_size=4, rounds=5, seed=seed)
    _check_rounds(schedule, (4,))
    assert schedule.stats.max_meetings == schedule.stats.min_meetings == 1


@pytest.mark.parametrize("seed", range(5))
def test_eight_players_in_fours_over_three_rounds_is_optimal(seed: int) -> None:
    """Nobody meets anyone more than twice, and the spread is the best possible.

    With two tables a pair meets in the rounds where both sit on the same side; the eight players
    are then eight different 3-bit patterns, so 12 pairs meet twice, 12 once and 4 never:
    sum of squares 12 * 4 + 12 = 60 is the minimum once the maximum is 2.
    """
    schedule = fixed_schedule(8, table_size=4, rounds=3, seed=seed)
    _check_rounds(schedule, (4,))
    assert schedule.stats.max_meetings == 2
    assert schedule.stats.sum_of_squares == 60


def test_mixed_table_sizes_when_the_group_does_not_divide() -> None:
    schedule = fixed_schedule(11, table_size=4, rounds=4, seed=1)
    _check_rounds(schedule, (3, 4, 5))
    assert [sorted(len(t) for t in tables) for tables in schedule.rounds] == [[3, 4, 4]] * 4
    # 11 players meet 3 (or 2) others per round: over 4 rounds nobody needs to meet anyone 3 times
    assert schedule.stats.max_meetings <= 2


def test_byes_rotate_evenly() -> None:
    schedule = fixed_schedule(9, table_size=4, rounds=9, seed=2, allowed=(4,))
    _check_rounds(schedule, (4,))
    byes = Counter(p for round_byes in schedule.byes for p in round_byes)
    assert byes == Counter(range(9))


def test_schedule_is_deterministic_for_a_seed() -> None:
    assert fixed_schedule(12, 4, 4, seed=3) == fixed_schedule(12, 4, 4, seed=3)


def test_stats_and_bounds_on_a_hand_built_schedule() -> None:
    rounds = [[[0, 1, 2], [3, 4, 5]], [[0, 1, 3], [2, 4, 5]]]
    stats = schedule_stats(6, rounds)
    # pairs 01 and 45 meet twice, 02 03 12 13 24 25 34 35 once, 04 05 14 15 23 never
    assert (stats.max_meetings, stats.min_meetings, stats.sum_of_squares) == (2, 0, 16)
    # 12 meetings over 15 pairs: at best 12 pairs once and 3 never
    assert (stats.best_possible_max, stats.best_possible_sum_of_squares) == (1, 12)


def test_invalid_requests_are_rejected() -> None:
    with pytest.raises(ValueError):
        fixed_schedule(2, table_size=3, rounds=2)
    with pytest.raises(ValueError):
        fixed_schedule(8, table_size=4, rounds=0)
