"""Two runs of a series at once (beat and a retry, or the admin's button) create each
occurrence's event once."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.tournaments.factories import ClubFactory
from tests.tournaments.test_concurrency import run_at_once
from tournaments import series as series_service
from tournaments.models import Series, Tournament

pytestmark = [pytest.mark.django_db(transaction=True)]


def test_concurrent_runs_create_each_occurrence_once():
    series = series_service.create_series(
        club=ClubFactory(),
        by=None,
        name="Club evening",
        weekdays=list(range(7)),
        start_time=dt.time(19, 30),
        weeks_ahead=2,
        active=False,  # nothing created yet
    )
    Series.objects.filter(pk=series.pk).update(active=True)
    results: list[int] = []

    def run() -> None:
        results.append(len(series_service.create_upcoming_events(series.pk)))

    run_at_once([run], copies=2)
    count = Tournament.objects.filter(series=series).count()
    assert count in (14, 15)
    assert sorted(results) == [0, count]
    assert (
        Tournament.objects.filter(series=series).values("series_occurrence").distinct().count()
        == count
    )
