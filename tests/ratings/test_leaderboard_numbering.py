"""The leaderboard's ranks, numbered by PostgreSQL: the same as the ladder rule, renumbered
after each rating change and as time passes, a page read the same way at any depth, and two
renumberings at once leave one consistent numbering."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.db import connection

from ratings import leaderboard, recording, selectors, updates
from ratings.models import LADDER_POOL, Leaderboard
from tests.games.factories import UserFactory
from tests.ratings.factories import PlayerRatingFactory, finished_partie, outcome_of

NOW = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)


def ranks() -> list[tuple[int, int]]:
    board = Leaderboard.objects.filter(pool=LADDER_POOL).first()
    return list(enumerate(board.user_ids, start=1)) if board else []


@pytest.mark.django_db
def test_numbering_follows_the_ladder_rule_and_time(settings):
    settings.RATINGS_LEADERBOARD_MIN_PARTIES = 10
    settings.RATINGS_LEADERBOARD_ACTIVE_DAYS = 30
    recent = NOW - dt.timedelta(days=2)
    rows = [
        PlayerRatingFactory(mu=1700, sigma=126, games=25, last_played=recent),
        PlayerRatingFactory(mu=1650, sigma=126, games=25, last_played=NOW - dt.timedelta(days=29)),
        PlayerRatingFactory(mu=1650, sigma=126, games=40, last_played=recent),  # more Parties
        PlayerRatingFactory(mu=1900, sigma=126, games=9, last_played=recent),  # too few
        PlayerRatingFactory(mu=1750, sigma=270, games=12, last_played=recent),  # provisional
    ]
    assert leaderboard.refresh_leaderboard(now=NOW) == 3
    python = [(r.rank, r.user_id) for r in selectors.standings(now=NOW) if r.eligible]
    assert ranks() == python == [(1, rows[0].user_id), (2, rows[2].user_id), (3, rows[1].user_id)]
    # Two days on, the player last seen 29 days ago has left the active window.
    assert leaderboard.refresh_leaderboard(now=NOW + dt.timedelta(days=2)) == 2
    assert ranks() == [(1, rows[0].user_id), (2, rows[2].user_id)]
    refresh = Leaderboard.objects.get(pool=LADDER_POOL)
    assert refresh.players == 2 and refresh.computed_at == NOW + dt.timedelta(days=2)


@pytest.mark.django_db
def test_renumbering_twice_changes_nothing():
    for n in range(5):
        PlayerRatingFactory(mu=1600 + n, games=20)
    leaderboard.refresh_leaderboard()
    first = ranks()
    leaderboard.refresh_leaderboard()
    assert ranks() == first and len(first) == 5


@pytest.mark.django_db
def test_a_page_at_any_depth_is_the_same_two_reads(django_assert_num_queries):
    """The page's slice of the order, then its rows with their users."""
    for n in range(120):
        PlayerRatingFactory(mu=1400 + n, games=20)
    leaderboard.refresh_leaderboard()
    board = selectors.ranked_leaderboard()
    with django_assert_num_queries(2):
        deep = board[100:110]
    with django_assert_num_queries(1):
        assert len(board) == 120
    assert [row.rank for row in deep] == list(range(101, 111))
    assert [row.mu for row in deep] == [1400 + n for n in range(19, 9, -1)]
    with django_assert_num_queries(0):
        assert deep[0].user.profile is not None  # read with the page, no query per row
    assert board[200:210] == [] and selectors.rank_of(deep[0].user) == 101


@pytest.fixture
def eager_celery():
    """Queued tasks run at once, in this process (as without a worker)."""
    from django.core.cache import cache

    from rosbi_platform import celery_app

    # A renumbering queued by an earlier test (to a queue no worker reads) still holds its
    # debounce mark for up to two seconds.
    cache.delete(leaderboard._pending_key(LADDER_POOL))
    previous = (celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates)
    celery_app.conf.task_always_eager = celery_app.conf.task_eager_propagates = True
    yield
    celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates = previous


@pytest.mark.django_db
def test_a_rating_change_renumbers_after_its_commit(
    eager_celery, django_capture_on_commit_callbacks
):
    players = UserFactory.create_batch(4)
    for user in players:
        PlayerRatingFactory(user=user, mu=1500, sigma=126, games=30)
    leaderboard.refresh_leaderboard()
    assert {user_id for _rank, user_id in ranks()} == {u.pk for u in players}
    winner = players[3]
    recording.record_finished_partie(outcome_of(finished_partie(players, [30, 20, 10, 0])))
    with django_capture_on_commit_callbacks(execute=True):
        assert updates.apply_pending_ratings() == 1
    assert ranks()[0] == (1, winner.pk)
    assert selectors.rank_of(winner) == 1


@pytest.mark.django_db(transaction=True)
def test_two_renumberings_at_once_leave_one_numbering():
    for n in range(300):
        PlayerRatingFactory(mu=1200 + n, games=20)
    errors: list[BaseException] = []

    def renumber() -> None:
        try:
            leaderboard.refresh_leaderboard()
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=renumber) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert [rank for rank, _user in ranks()] == list(range(1, 301))
    assert Leaderboard.objects.get(pool=LADDER_POOL).players == 300
