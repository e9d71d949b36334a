"""The series over the API: read only, every club's or one club's, with the next events."""

from __future__ import annotations

import datetime as dt

import pytest

from rosbi_platform.accounts.models import ClubMembership
from tests.api_clients import session_client
from tests.tournaments.factories import ClubFactory, MembershipFactory
from tournaments import series as series_actions

pytestmark = pytest.mark.django_db


def a_series(slug: str, name: str):
    club = ClubFactory(slug=slug)
    organiser = MembershipFactory(club=club, role=ClubMembership.Role.ORGANISER).user
    made = series_actions.create_series(
        club=club, by=organiser, name=name, weekdays=[3], start_time=dt.time(19, 30)
    )
    series_actions.skip_date(made.pk, dt.date.today() + dt.timedelta(days=70), by=organiser)
    return made


def test_series_are_listed_with_schedule_skips_and_next_events():
    home = a_series("home", "Club evening")
    a_series("away", "Other evening")

    body = session_client().get("/api/v1/series?club=home").json()

    assert [row["id"] for row in body["results"]] == [home.pk]
    row = body["results"][0]
    assert row["club"] == "home" and row["weekdays"] == [3] and row["start_time"] == "19:30:00"
    assert row["time_zone"] == "Europe/Berlin" and len(row["skipped_dates"]) == 1
    assert row["upcoming"] and all(event["slug"] for event in row["upcoming"])
    assert len(session_client().get("/api/v1/series").json()["results"]) == 2


def test_series_cannot_be_written_over_the_api():
    home = a_series("home", "Club evening")
    response = session_client().delete(f"/api/v1/series/{home.pk}")
    assert response.status_code in (401, 403, 405)
    assert response.json()["detail"]
