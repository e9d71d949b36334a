"""Closing the site ladder's season (issue 25, defect 8): the admin action, the scheduled task
and the command all go through ``ratings.seasons.close_season``, and each closes a season once."""

from __future__ import annotations

import datetime as dt
import importlib
import threading
from io import StringIO

import pytest
from django.apps import apps
from django.core.management import CommandError, call_command
from django.db import connection
from django.urls import reverse
from django.utils import timezone
from django_celery_beat.models import PeriodicTask

from ratings import seasons
from ratings.models import PlayerRating, Season, SeasonStanding
from ratings.tasks import close_due_seasons_task
from tests.games.factories import UserFactory
from tests.ratings.factories import PlayerRatingFactory

pytestmark = pytest.mark.django_db


def a_rated_player() -> PlayerRating:
    return PlayerRatingFactory(
        mu=1900.0, sigma=117.0, last_played=timezone.now() - dt.timedelta(days=1)
    )


def assert_reset_once(rating: PlayerRating) -> None:
    """1900 moved half way to 1500 once (twice would give 1600) and one archive line."""
    rating.refresh_from_db()
    assert rating.mu == pytest.approx(1700.0)
    assert SeasonStanding.objects.filter(user=rating.user).count() == 1


def test_the_admin_action_closes_a_season_once(client):
    rating = a_rated_player()
    season = seasons.current_season(now=timezone.now() - dt.timedelta(days=30))
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    url = reverse("admin:ratings_season_changelist")
    form = {"action": "close_selected_seasons", "_selected_action": [season.pk]}
    first = client.post(url, form, follow=True)
    assert "Closed: Season 1." in first.content.decode()
    second = client.post(url, form, follow=True)  # a second click, or a stale page
    assert "Already closed, nothing changed: Season 1." in second.content.decode()
    assert_reset_once(rating)
    assert list(Season.objects.order_by("number").values_list("number", flat=True)) == [1, 2]


def test_the_admin_edits_a_seasons_end_but_never_its_history(client):
    season = seasons.current_season(now=timezone.now())
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    page = client.get(reverse("admin:ratings_season_change", args=[season.pk])).content.decode()
    assert 'name="ends_at_0"' in page and 'name="closed_at' not in page
    assert client.get(reverse("admin:ratings_season_add")).status_code == 403


def test_the_command_closes_a_season_once_and_says_so_when_run_again():
    rating = a_rated_player()
    seasons.current_season(now=timezone.now() - dt.timedelta(days=30))
    out = StringIO()
    call_command("close_season", "--number", "1", stdout=out)
    call_command("close_season", "--number", "1", stdout=out)
    assert "Closed season 1 of ladder." in out.getvalue()
    assert "Season 1 of ladder was already closed" in out.getvalue()
    assert_reset_once(rating)
    with pytest.raises(CommandError, match="no season 7"):
        call_command("close_season", "--number", "7")


def test_the_scheduled_task_closes_a_due_season_and_leaves_a_future_one():
    now = timezone.now()
    rating = a_rated_player()
    due = seasons.current_season(now=now - dt.timedelta(days=30))
    Season.objects.filter(pk=due.pk).update(ends_at=now - dt.timedelta(minutes=1))
    later = seasons.current_season(pool="club", now=now - dt.timedelta(days=30))
    Season.objects.filter(pk=later.pk).update(ends_at=now + dt.timedelta(days=1))
    assert close_due_seasons_task.apply(kwargs={"now": now.isoformat()}).get() == 1
    assert close_due_seasons_task.apply(kwargs={"now": now.isoformat()}).get() == 0  # retry
    due.refresh_from_db()
    later.refresh_from_db()
    assert due.closed_at == now and later.closed_at is None
    assert_reset_once(rating)
    # The next season opens at once and is planned as long as the one that closed.
    following = Season.objects.get(pool="ladder", closed_at__isnull=True)
    assert following.number == 2 and following.started_at == now
    assert following.ends_at == now + (due.ends_at - due.started_at)


def test_the_command_closes_due_seasons_like_the_task():
    now = timezone.now()
    season = seasons.current_season(now=now - dt.timedelta(days=30))
    Season.objects.filter(pk=season.pk).update(ends_at=now - dt.timedelta(seconds=5))
    out = StringIO()
    call_command("close_season", "--due", stdout=out)
    call_command("close_season", "--due", stdout=out)
    assert "1 due season(s) closed." in out.getvalue()
    assert "0 due season(s) closed." in out.getvalue()
    assert Season.objects.filter(closed_at__isnull=False).count() == 1


def test_beat_runs_the_scheduled_close():
    """The migration registers the task with beat (run here again: a transactional test
    elsewhere may have flushed the rows the migration made)."""
    migration = importlib.import_module(
        "ratings.migrations.0014_season_ends_at_and_scheduled_close"
    )
    migration.create_periodic_task(apps, None)
    migration.create_periodic_task(apps, None)  # idempotent
    task = PeriodicTask.objects.get(name="ratings: close due seasons")
    assert task.task == "ratings.tasks.close_due_seasons" and task.enabled
    assert (task.interval.every, task.interval.period) == (60, "seconds")


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_closes_of_one_season_apply_its_reset_once():
    rating = a_rated_player()
    season = seasons.current_season(now=timezone.now() - dt.timedelta(days=30))
    barrier = threading.Barrier(2)
    results: list[Season] = []
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            barrier.wait()
            results.append(seasons.close_season(now=timezone.now(), season=season.pk))
        except BaseException as error:  # noqa: BLE001 - reported by the assertion below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert [r.pk for r in results] == [season.pk, season.pk]
    assert len({r.closed_at for r in results}) == 1  # the second found it closed
    assert_reset_once(rating)
    assert Season.objects.count() == 2
