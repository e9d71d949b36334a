"""Behaviour of ranked matchmaking (ratings.matchmaking)."""

from __future__ import annotations

import random
import statistics

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.matchmaking import (
    DEFAULT_MATCHMAKING,
    MatchmakingParams,
    QueueEntry,
    form_tables,
    is_overdue,
    rating_window,
)

# Shared by every property test here: no per-example deadline (the machine is shared, and
# speed is measured in bench/, not asserted), and a budget that keeps this file near 15 s.
properties = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

NOW = 1_800_000_000.0
MAX_WAIT = DEFAULT_MATCHMAKING.max_wait


_IPS = [f"10.0.0.{k}" for k in range(6)]


def queues(min_size: int = 0, max_size: int = 30, ips: int = 6) -> st.SearchStrategy:
    """Queues of distinct players; rows are drawn in one go to keep generation cheap."""
    row = st.tuples(
        st.integers(0, 10_000),
        st.floats(700.0, 2500.0),
        st.floats(0.0, 2 * MAX_WAIT),
        st.one_of(st.none(), st.sampled_from(_IPS[:ips])),
    )
    rows = st.lists(row, min_size=min_size, max_size=max_size, unique_by=lambda r: r[0])
    return rows.map(
        lambda drawn: [QueueEntry(pid, rating, NOW - wait, ip) for pid, rating, wait, ip in drawn]
    )


def _by_id(queue: list[QueueEntry]) -> dict:
    return {entry.player_id: entry for entry in queue}


@properties
@given(queues(), st.booleans())
def test_every_player_is_seated_at_most_once_and_only_from_the_queue(queue, distinct) -> None:
    tables = form_tables(queue, NOW, distinct_ips=distinct)
    seated = [player for table in tables for player in table]
    assert len(seated) == len(set(seated))
    assert set(seated) <= {entry.player_id for entry in queue}


@properties
@given(queues(), st.booleans())
def test_tables_have_three_to_five_players(queue, distinct) -> None:
    for table in form_tables(queue, NOW, distinct_ips=distinct):
        assert 3 <= len(table) <= 5


@properties
@given(queues(), st.booleans())
def test_odd_tables_only_after_a_long_wait(queue, distinct) -> None:
    entries = _by_id(queue)
    for table in form_tables(queue, NOW, distinct_ips=distinct):
        if len(table) != 4:
            longest = max(NOW - entries[p].joined_at for p in table)
            assert longest >= DEFAULT_MATCHMAKING.odd_size_after


@properties
@given(queues(), st.booleans())
def test_tables_respect_every_members_window(queue, distinct) -> None:
    entries = _by_id(queue)
    for table in form_tables(queue, NOW, distinct_ips=distinct):
        members = [entries[p] for p in table]
        if any(is_overdue(m, NOW) for m in members):
            continue  # an overdue player is matchable with everyone
        for a in members:
            for b in members:
                assert abs(a.rating - b.rating) <= rating_window(a, NOW)


@properties
@given(queues(ips=3))
def test_distinct_ips_never_share_a_table(queue) -> None:
    entries = _by_id(queue)
    for table in form_tables(queue, NOW, distinct_ips=True):
        ips = [entries[p].ip for p in table if entries[p].ip is not None]
        assert len(ips) == len(set(ips))


@properties
@given(queues(min_size=3), st.data())
def test_an_overdue_player_is_seated_when_two_others_wait(queue, data) -> None:
    overdue = data.draw(st.sampled_from(queue))
    queue = [
        QueueEntry(e.player_id, e.rating, NOW - MAX_WAIT - 1.0, e.ip) if e is overdue else e
        for e in queue
    ]
    seated = {p for table in form_tables(queue, NOW) for p in table}
    assert overdue.player_id in seated


@properties
@given(queues(min_size=3, max_size=12))
def test_every_overdue_player_is_seated_when_all_are_overdue(queue) -> None:
    late = [QueueEntry(e.player_id, e.rating, NOW - MAX_WAIT, e.ip) for e in queue]
    seated = [p for table in form_tables(late, NOW) for p in table]
    assert sorted(seated) == sorted(e.player_id for e in late)


@properties
@given(queues(), st.booleans(), st.randoms(use_true_random=False))
def test_deterministic_whatever_the_input_order(queue, distinct, rng) -> None:
    shuffled = list(queue)
    rng.shuffle(shuffled)
    assert form_tables(queue, NOW, distinct_ips=distinct) == form_tables(
        shuffled, NOW, distinct_ips=distinct
    )


@properties
@given(queues(max_size=60))
def test_fresh_queues_form_only_tables_of_four(queue) -> None:
    fresh = [QueueEntry(e.player_id, e.rating, NOW - 10.0, e.ip) for e in queue]
    assert all(len(table) == 4 for table in form_tables(fresh, NOW))


def test_the_window_widens_with_the_wait_and_opens_fully_when_overdue() -> None:
    params = MatchmakingParams(base_window=100.0, widen_per_minute=50.0, max_window=400.0)
    windows = [
        rating_window(QueueEntry(1, 1500.0, NOW - wait), NOW, params)
        for wait in (0.0, 60.0, 120.0, 300.0, 590.0, 600.0)
    ]
    assert windows[:5] == [100.0, 150.0, 200.0, 350.0, 400.0]
    assert windows[5] == float("inf")


def test_a_duplicate_entry_counts_once() -> None:
    queue = [QueueEntry(7, 1500.0, NOW - 5.0)] * 2 + [
        QueueEntry(k, 1500.0 + k, NOW - 5.0) for k in range(3)
    ]
    assert [sorted(t) for t in form_tables(queue, NOW)] == [[0, 1, 2, 7]]


def test_far_apart_newcomers_wait_then_meet() -> None:
    queue = [QueueEntry(k, 1200.0 + 150.0 * k, NOW) for k in range(4)]
    assert form_tables(queue, NOW) == []
    # After 400 s the window is 433 points: 0 and 3 are 450 apart, so three sit down.
    assert [sorted(t) for t in form_tables(queue, NOW + 400.0)] == [[0, 1, 2]]
    assert [sorted(t) for t in form_tables(queue, NOW + 500.0)] == [[0, 1, 2, 3]]


def _random_queue(rng: random.Random, size: int) -> list[QueueEntry]:
    return [
        QueueEntry(k, rng.gauss(1500.0, 250.0), NOW - rng.uniform(0.0, 1.5 * MAX_WAIT))
        for k in range(size)
    ]


def _spread(ratings: list[float]) -> float:
    return max(ratings) - min(ratings)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_tables_are_tighter_than_random_groupings_on_average(seed) -> None:
    rng = random.Random(seed)
    queue = _random_queue(rng, 80)
    entries = _by_id(queue)
    tables = form_tables(queue, NOW)
    assert tables
    ours = statistics.fmean(_spread([entries[p].rating for p in t]) for t in tables)
    sizes = [len(t) for t in tables]
    seated = [entries[p].rating for t in tables for p in t]
    random_spreads = []
    for _ in range(20):
        rng.shuffle(seated)
        start = 0
        for size in sizes:
            random_spreads.append(_spread(seated[start : start + size]))
            start += size
    assert ours <= statistics.fmean(random_spreads)


def test_most_tables_have_four_players() -> None:
    rng = random.Random(2024)
    sizes = [len(t) for _ in range(30) for t in form_tables(_random_queue(rng, 50), NOW)]
    assert sizes.count(4) > 0.5 * len(sizes)
