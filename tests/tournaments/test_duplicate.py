"""Duplicate: shared deal seeds per round and table size, matchpoints on hand-built rounds."""

from __future__ import annotations

import pytest

from tournaments.duplicate import (
    DuplicateTable,
    deal_seed,
    duplicate_first_dealer,
    duplicate_totals,
    matchpoints,
    round_deal_seeds,
)


def test_tables_of_one_size_share_the_deals_of_a_round() -> None:
    seeds = round_deal_seeds("club-cup-2026", 3, [5, 4, 4, 4, 3])
    assert seeds[1] == seeds[2] == seeds[3] == deal_seed("club-cup-2026", 3, 4)
    assert len({seeds[0], seeds[1], seeds[4]}) == 3


def test_deal_seeds_differ_across_rounds_and_tournaments_and_repeat_exactly() -> None:
    assert deal_seed(7, 1, 4) == deal_seed(7, 1, 4)
    assert deal_seed(7, 1, 4) != deal_seed(7, 2, 4)
    assert deal_seed(7, 1, 4) != deal_seed(8, 1, 4)
    assert 0 <= deal_seed(7, 1, 4) < 2**64
    assert len({deal_seed(7, r, 4) for r in range(1, 50)}) == 49


def test_first_dealer_is_shared_and_a_valid_seat() -> None:
    seed = deal_seed("cup", 1, 5)
    assert duplicate_first_dealer(seed, 5) == duplicate_first_dealer(seed, 5)
    assert {duplicate_first_dealer(deal_seed("cup", r, 5), 5) for r in range(40)} <= set(range(5))


def test_matchpoints_compare_each_seat_with_the_same_seat_elsewhere() -> None:
    tables = [
        DuplicateTable(["a0", "a1", "a2", "a3"], [10, 20, 5, 13]),
        DuplicateTable(["b0", "b1", "b2", "b3"], [12, 20, 9, 7]),
        DuplicateTable(["c0", "c1", "c2", "c3"], [10, 25, 1, 12]),
    ]
    scores = {s.player: s for s in matchpoints(tables)}
    # seat 0: 10 vs 12 (win, 2) and vs 10 (equal, 1)
    assert (scores["a0"].matchpoints, scores["a0"].comparisons) == (3, 2)
    assert scores["a0"].percent == 75.0
    assert scores["b0"].matchpoints == 0
    assert scores["c0"].matchpoints == 3
    # seat 1: 20, 20, 25
    assert [scores[p].matchpoints for p in ("a1", "b1", "c1")] == [3, 3, 0]
    # seat 2: 5, 9, 1
    assert [scores[p].matchpoints for p in ("a2", "b2", "c2")] == [2, 0, 4]
    assert scores["c2"].percent == 100.0
    # seat 3: 13, 7, 12
    assert [scores[p].matchpoints for p in ("a3", "b3", "c3")] == [0, 4, 2]
    # every comparison hands out exactly 2 matchpoints between the two seats
    assert sum(s.matchpoints for s in scores.values()) == 4 * 3 * 2


def test_tables_are_compared_only_with_their_own_size() -> None:
    tables = [
        DuplicateTable(["a", "b", "c", "d"], [1, 2, 3, 4]),
        DuplicateTable(["e", "f", "g"], [0, 0, 0]),
        DuplicateTable(["h", "i", "j", "k"], [4, 3, 2, 1]),
    ]
    scores = {s.player: s for s in matchpoints(tables)}
    assert scores["e"].comparisons == 0 and scores["e"].percent == 50.0
    assert scores["a"].comparisons == 1 and scores["a"].percent == 100.0
    assert scores["k"].percent == 100.0 and scores["d"].percent == 0.0
    assert (scores["b"].table, scores["b"].seat) == (0, 1)


def test_totals_average_the_round_percentages() -> None:
    round_one = matchpoints(
        [DuplicateTable(["x", "y", "z"], [1, 2, 3]), DuplicateTable(["u", "v", "w"], [2, 2, 2])]
    )
    round_two = matchpoints(
        [DuplicateTable(["u", "x", "y"], [5, 5, 5]), DuplicateTable(["z", "v", "w"], [6, 5, 4])]
    )
    totals = duplicate_totals([round_one, round_two])
    assert totals["x"] == (100.0 + 50.0) / 2
    assert totals["u"] == (0.0 + 100.0) / 2
    assert totals["w"] == (100.0 + 100.0) / 2
    assert totals["y"] == (50.0 + 0.0) / 2


def test_mismatched_table_is_rejected() -> None:
    with pytest.raises(ValueError):
        matchpoints([DuplicateTable(["a", "b", "c"], [1, 2])])
