"""Best N of M, as pure maths: property tests of ``tournaments.season_scoring``."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.season_scoring import counted_results, points_for_place, season_table

points = st.integers(min_value=0, max_value=25)
player_results = st.dictionaries(
    st.integers(min_value=1, max_value=40), st.lists(points, min_size=0, max_size=12), max_size=12
)
best_ofs = st.one_of(st.none(), st.integers(min_value=1, max_value=10))


@given(player_results, best_ofs)
def test_each_total_is_the_sum_of_the_best_n_results(results, best_of):
    for line in season_table(results, best_of):
        mine = sorted(results[line.player], reverse=True)
        expected = mine if best_of is None else mine[:best_of]
        assert line.points == sum(expected)
        assert list(line.counted) == expected
        assert line.played == len(mine)
        assert len(line.counted) + len(line.dropped) == line.played
        assert all(c >= d for c in line.counted for d in line.dropped)


@given(player_results, best_ofs)
def test_the_table_is_ordered_and_ranks_are_competition_ranks(results, best_of):
    table = season_table(results, best_of)
    assert sorted(line.player for line in table) == sorted(results)
    assert [line.points for line in table] == sorted((line.points for line in table), reverse=True)
    for index, line in enumerate(table):
        assert 1 <= line.rank <= index + 1
        if index == 0:
            assert line.rank == 1
        elif line.rank != table[index - 1].rank:
            assert line.rank == index + 1


@given(player_results, best_ofs, st.randoms())
def test_the_order_of_the_input_changes_nothing(results, best_of, rnd):
    items = list(results.items())
    rnd.shuffle(items)
    shuffled = {player: rnd.sample(list(r), len(r)) for player, r in items}
    assert season_table(shuffled, best_of) == season_table(results, best_of)


@given(player_results, st.integers(min_value=1, max_value=10), st.integers(1, 40), points)
def test_one_more_result_never_lowers_a_total(results, best_of, player, extra):
    before = {line.player: line.points for line in season_table(results, best_of)}
    grown = dict(results)
    grown[player] = [*results.get(player, []), extra]
    after = {line.player: line.points for line in season_table(grown, best_of)}
    assert after[player] >= before.get(player, 0)
    assert all(after[p] == before[p] for p in before if p != player)


@given(st.lists(points, max_size=12), st.integers(min_value=1, max_value=12))
def test_counting_more_results_never_lowers_the_total(results, n):
    assert sum(counted_results(results, n + 1)) >= sum(counted_results(results, n))
    assert sum(counted_results(results, None)) == sum(results)


@given(st.lists(points, min_size=1, max_size=10).map(lambda p: sorted(p, reverse=True)))
def test_a_better_place_never_earns_fewer_points(table):
    places = range(1, len(table) + 3)
    earned = [points_for_place(place, table) for place in places]
    assert earned == sorted(earned, reverse=True)
    assert earned[len(table)] == 0


def test_countback_splits_equal_totals_and_full_ties_share_a_rank():
    table = season_table({"ana": [10, 2], "ben": [6, 6], "cem": [6, 6], "dora": [1]}, best_of=2)
    assert [(line.player, line.rank, line.points) for line in table] == [
        ("ana", 1, 12),
        ("ben", 2, 12),
        ("cem", 2, 12),
        ("dora", 4, 1),
    ]


def test_best_two_of_three_drops_the_worst_result():
    (line,) = season_table({"ana": [3, 10, 6]}, best_of=2)
    assert (line.points, line.counted, line.dropped) == (16, (10, 6), (3,))


def test_nonsense_is_refused():
    with pytest.raises(ValueError):
        season_table({"ana": [1]}, best_of=0)
    with pytest.raises(ValueError):
        points_for_place(0, [3, 2, 1])
