"""Recurring events: a series creates its events ahead once per occurrence, as normal events;
edits reach future not-started events only; skipped dates; the hourly beat task."""

from __future__ import annotations

import datetime as dt
import importlib
import zoneinfo

import pytest
from django.apps import apps
from django.db import IntegrityError, transaction
from django.utils import timezone

from rosbi_platform.accounts.models import ClubMembership
from tests.tournaments.factories import ClubFactory, MembershipFactory
from tests.tournaments.helpers import organiser_of
from tournaments import series as series_service
from tournaments import tasks
from tournaments.common import TournamentError
from tournaments.models import AuditLog, Round, Series, Tournament
from tournaments.series_dates import occurrences

pytestmark = [pytest.mark.django_db]

BERLIN = zoneinfo.ZoneInfo("Europe/Berlin")
EVERY_DAY = list(range(7))


def make_series(club=None, by=None, **fields):
    club = club or ClubFactory()
    by = by or organiser_of(club)
    values = {
        "name": "Club evening",
        "weekdays": [3],
        "start_time": dt.time(19, 30),
        "time_zone": "Europe/Berlin",
        "format": Tournament.Format.SWISS,
        "rounds": 4,
        "members_only": True,
    }
    values.update(fields)
    return series_service.create_series(club=club, by=by, **values), by


def expected_starts(series: Series, now: dt.datetime) -> list[dt.datetime]:
    until = now + dt.timedelta(weeks=series.weeks_ahead)
    zone = zoneinfo.ZoneInfo(series.time_zone)
    skips = series.skips.values_list("date", flat=True)
    found = occurrences(
        series.weekdays,
        series.start_time,
        series.time_zone,
        now.astimezone(zone).date(),
        until.astimezone(zone).date(),
        skips,
    )
    return [m for m in found if now < m <= until]


def test_a_series_creates_normal_events_four_weeks_ahead_once():
    series, _by = make_series(weekdays=[1, 3])
    events = list(Tournament.objects.filter(series=series).order_by("starts_at"))
    assert series.weeks_ahead == 4
    assert [e.starts_at for e in events] == expected_starts(series, timezone.now())
    assert len(events) in (8, 9)  # two weekdays over four weeks (both ends may count)
    for event in events:
        local = event.starts_at.astimezone(BERLIN)
        assert (local.hour, local.minute, local.weekday() in (1, 3)) == (19, 30, True)
        assert event.series_occurrence == event.starts_at
        assert (event.format, event.rounds, event.members_only) == ("swiss", 4, True)
        assert event.time_zone == "Europe/Berlin"
        assert event.registration == Tournament.Window.OPEN
        assert event.club_id == series.club_id and event.status == Tournament.Status.PLANNED
        # A normal event: its rounds exist like those of any event created by the service.
        assert list(Round.objects.filter(tournament=event).values_list("number", flat=True)) == [
            1,
            2,
            3,
            4,
        ]
        assert AuditLog.objects.filter(tournament=event, action="created_by_series").count() == 1

    assert series_service.create_upcoming_events(series.pk) == []
    assert series_service.create_upcoming_events(series.pk) == []
    assert Tournament.objects.filter(series=series).count() == len(events)


def test_the_events_keep_their_local_time_across_the_october_change():
    series, _by = make_series(weeks_ahead=2, active=False)
    Series.objects.filter(pk=series.pk).update(active=True)
    now = dt.datetime(2026, 10, 19, 12, 0, tzinfo=dt.UTC)  # a Monday
    created = series_service.create_upcoming_events(series.pk, now=now)
    assert [e.starts_at for e in created] == [
        dt.datetime(2026, 10, 22, 17, 30, tzinfo=dt.UTC),  # summer time
        dt.datetime(2026, 10, 29, 18, 30, tzinfo=dt.UTC),  # winter time
    ]
    assert [e.slug for e in created] == [
        f"club-evening-{series.pk}-2026-10-22-1930",
        f"club-evening-{series.pk}-2026-10-29-1930",
    ]


def test_one_event_per_occurrence_is_a_constraint():
    series, _by = make_series()
    event = Tournament.objects.filter(series=series).first()
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.create(
            club=series.club,
            name="copy",
            slug="copy",
            starts_at=event.starts_at,
            series=series,
            series_occurrence=event.series_occurrence,
        )


def test_an_inactive_series_creates_nothing():
    series, _by = make_series(active=False)
    assert Tournament.objects.filter(series=series).count() == 0
    assert tasks.create_series_events() == 0


def test_skipped_dates_are_not_created_and_skipping_cancels_the_created_event():
    today = timezone.now().astimezone(BERLIN).date()
    holiday = today + dt.timedelta(days=10)
    series, by = make_series(weekdays=EVERY_DAY, skipped=[holiday])
    local_days = {e.starts_at.astimezone(BERLIN).date() for e in series.events.all()}
    assert holiday not in local_days and holiday - dt.timedelta(days=1) in local_days

    other = holiday + dt.timedelta(days=2)
    event = series.events.get(slug__endswith=f"{other:%Y-%m-%d}-1930")
    assert series_service.skip_date(series.pk, other, by) is True
    event.refresh_from_db()
    assert event.status == Tournament.Status.CANCELLED and event.series_occurrence is None
    assert series_service.create_upcoming_events(series.pk) == []
    assert series_service.skip_date(series.pk, other, by) is False

    series_service.unskip_date(series.pk, other, by)
    again = series.events.filter(series_occurrence__isnull=False, slug=event.slug)
    # The slug was taken by the cancelled event: the new one is a fresh event for that date.
    assert not again.exists()
    assert (
        series.events.exclude(status=Tournament.Status.CANCELLED)
        .filter(starts_at=event.starts_at)
        .count()
        == 1
    )


def _started(event: Tournament) -> None:
    Round.objects.filter(tournament=event, number=1).update(status=Round.Status.STARTED)
    Tournament.objects.filter(pk=event.pk).update(status=Tournament.Status.RUNNING)


def test_an_edit_reaches_future_events_that_have_not_started_and_no_others():
    series, by = make_series(weekdays=EVERY_DAY, weeks_ahead=1, rounds=4)
    events = list(series.events.order_by("starts_at"))
    started, later = events[0], events[1:]
    _started(started)
    past = Tournament.objects.create(
        club=series.club,
        name="last week",
        slug="last-week",
        starts_at=timezone.now() - dt.timedelta(days=7),
        rounds=4,
        series=series,
        series_occurrence=timezone.now() - dt.timedelta(days=7),
        status=Tournament.Status.FINISHED,
    )

    report = series_service.update_series(
        series.pk, by, rounds=3, start_time=dt.time(20, 0), members_only=False
    )

    assert sorted(report.updated) == sorted(e.pk for e in later)
    assert sorted(report.moved) == sorted(e.pk for e in later)
    for event in later:
        event.refresh_from_db()
        local = event.starts_at.astimezone(BERLIN)
        assert (local.hour, local.minute) == (20, 0)
        assert event.series_occurrence == event.starts_at
        assert (event.rounds, event.members_only) == (3, False)
        assert list(event.round_set.values_list("number", flat=True)) == [1, 2, 3]
        assert event.round_set.get(number=1).scheduled_at == event.starts_at
    for untouched in (started, past):
        before = untouched.starts_at
        untouched.refresh_from_db()
        assert (untouched.rounds, untouched.members_only) == (4, untouched.members_only)
        assert untouched.starts_at == before
        assert untouched.round_set.count() in (0, 4)
    assert started.members_only is True


def test_dropping_a_weekday_cancels_its_future_events():
    series, by = make_series(weekdays=[1, 3], weeks_ahead=2)
    tuesdays = [e for e in series.events.all() if e.starts_at.astimezone(BERLIN).weekday() == 1]
    assert tuesdays
    report = series_service.update_series(series.pk, by, weekdays=[3])
    assert sorted(report.cancelled) == sorted(e.pk for e in tuesdays)
    assert set(
        Tournament.objects.filter(pk__in=report.cancelled).values_list("status", flat=True)
    ) == {Tournament.Status.CANCELLED}
    live = series.events.exclude(status=Tournament.Status.CANCELLED)
    assert {e.starts_at.astimezone(BERLIN).weekday() for e in live} == {3}


def test_only_the_clubs_organisers_create_and_edit_series():
    club = ClubFactory()
    member = MembershipFactory(club=club, role=ClubMembership.Role.MEMBER).user
    other_organiser = organiser_of(ClubFactory())
    for user in (member, other_organiser):
        with pytest.raises(TournamentError):
            make_series(club=club, by=user)
    series, _by = make_series(club=club)
    with pytest.raises(TournamentError):
        series_service.update_series(series.pk, member, rounds=2)
    with pytest.raises(TournamentError):
        series_service.skip_date(series.pk, dt.date(2030, 1, 3), other_organiser)
    assert Series.objects.get(pk=series.pk).rounds == 4


def test_bad_input_is_refused_in_words_and_changes_nothing():
    series, by = make_series()
    with pytest.raises(TournamentError, match="weekday"):
        series_service.update_series(series.pk, by, weekdays=[])
    with pytest.raises(TournamentError, match="Hybrid"):
        series_service.update_series(series.pk, by, mode="hybrid", format="knockout")
    with pytest.raises(TournamentError, match="time zone"):
        series_service.update_series(series.pk, by, time_zone="Mars/Olympus")
    assert Series.objects.get(pk=series.pk).weekdays == [3]


def test_beat_runs_the_task_hourly_for_every_active_series():
    from django_celery_beat.models import PeriodicTask

    migration = importlib.import_module("tournaments.migrations.0008_series_periodic_task")
    migration.create_periodic_task(apps, None)
    migration.create_periodic_task(apps, None)  # idempotent
    task = PeriodicTask.objects.get(task="tournaments.tasks.create_series_events")
    assert task.enabled and (task.interval.every, task.interval.period) == (1, "hours")

    first, _by = make_series(weeks_ahead=1)
    second, _by = make_series(weeks_ahead=1)
    Tournament.objects.filter(series__in=[first, second]).delete()
    assert tasks.create_series_events() == len(expected_starts(first, timezone.now())) * 2
    assert tasks.create_series_events() == 0
