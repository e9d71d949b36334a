"""The organiser's series pages and the Series admin: only the club's organisers reach them,
the forms are proper fields (no JSON), both languages, and every write goes through the
series services."""

from __future__ import annotations

import datetime as dt
import zoneinfo

import pytest
from django.urls import reverse

from rosbi_platform.accounts.models import ClubMembership
from tests.tournaments.factories import ClubFactory, MembershipFactory, UserFactory
from tests.tournaments.helpers import organiser_of
from tournaments import series as series_service
from tournaments.models import Series, SeriesSkip, Tournament

pytestmark = [pytest.mark.django_db]

BERLIN = zoneinfo.ZoneInfo("Europe/Berlin")


def form_data(**changes) -> dict:
    data = {
        "name": "Donnerstagsrunde",
        "weekdays": ["3"],
        "start_time": "19:30",
        "time_zone": "Europe/Berlin",
        "weeks_ahead": "4",
        "active": "on",
        "description": "",
        "format": "swiss",
        "mode": "online",
        "rounds": "4",
        "table_size": "4",
        "allow_other_sizes": "on",
        "min_players": "3",
        "scheduling": "interval",
        "round_interval_minutes": "10",
        "first_round": "lot",
        "doubling": "on",
        "layout": "extend_first",
        "members_only": "on",
        "knockout_advance": "2",
        "turn_seconds": "30",
        "no_show_grace_minutes": "10",
        "no_show_policy": "bot",
    }
    data.update(changes)
    return data


def test_only_the_clubs_organisers_reach_the_series_pages(client):
    club = ClubFactory()
    organiser = organiser_of(club)
    series, _ = (
        series_service.create_series(
            club=club, by=organiser, name="Abend", weekdays=[3], start_time=dt.time(19, 30)
        ),
        None,
    )
    urls = [
        reverse("tournaments:club_series", args=[club.slug]),
        reverse("tournaments:series_new", args=[club.slug]),
        reverse("tournaments:series_edit", args=[series.pk]),
    ]
    for url in urls:
        assert client.get(url).status_code == 302  # log in first
    member = MembershipFactory(club=club, role=ClubMembership.Role.MEMBER).user
    for user in (member, organiser_of(ClubFactory()), UserFactory()):
        client.force_login(user)
        for url in urls:
            assert client.get(url).status_code == 403
        response = client.post(
            reverse("tournaments:series_skip", args=[series.pk]), {"date": "2030-01-03"}
        )
        assert response.status_code == 403
        assert client.post(urls[1], form_data()).status_code == 403
        for page in ("tournaments:list", "clubs:detail"):
            args = [club.slug] if page == "clubs:detail" else []
            assert urls[0] not in client.get(reverse(page, args=args)).content.decode()
    assert Series.objects.count() == 1 and not SeriesSkip.objects.exists()

    client.force_login(organiser)
    for url in urls:
        assert client.get(url).status_code == 200
    assert urls[0] in client.get(reverse("clubs:detail", args=[club.slug])).content.decode()
    assert urls[0] in client.get(reverse("tournaments:list")).content.decode()


def test_an_organiser_creates_and_edits_a_series_on_the_site_in_german(client):
    club = ClubFactory()
    organiser = organiser_of(club)
    client.force_login(organiser)
    client.cookies["django_language"] = "de"
    page = client.get(reverse("tournaments:series_new", args=[club.slug])).content.decode()
    assert 'type="checkbox" name="weekdays" value="3"' in page
    assert 'type="time" name="start_time"' in page
    assert '<option value="Europe/Berlin" selected>' in page  # the organiser's zone
    assert "Donnerstag" in page and "Wochentage" in page
    assert "{" not in page.split("<form", 1)[1].split("</form>")[0]  # no JSON field

    response = client.post(reverse("tournaments:series_new", args=[club.slug]), form_data())
    series = Series.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:series_edit", args=[series.pk])
    assert (series.weekdays, series.start_time, series.rounds) == ([3], dt.time(19, 30), 4)
    events = list(series.events.order_by("starts_at"))
    assert 4 <= len(events) <= 5 and all(e.members_only for e in events)

    page = client.get(response["Location"]).content.decode()
    assert "Kommende Turniere" in page and "Ausgelassene Termine" in page
    for event in events:
        assert reverse("tournaments:detail", args=[event.slug]) in page

    response = client.post(
        reverse("tournaments:series_edit", args=[series.pk]),
        form_data(start_time="20:15", rounds="3"),
    )
    assert response.status_code == 302
    for event in events:
        event.refresh_from_db()
        assert event.starts_at.astimezone(BERLIN).strftime("%H:%M") == "20:15"
        assert event.rounds == 3

    skip_day = events[1].starts_at.astimezone(BERLIN).date()
    client.post(
        reverse("tournaments:series_skip", args=[series.pk]), {"date": skip_day.isoformat()}
    )
    events[1].refresh_from_db()
    assert events[1].status == Tournament.Status.CANCELLED
    assert SeriesSkip.objects.filter(series=series, date=skip_day).exists()


def test_bad_input_shows_messages_and_changes_nothing(client):
    club = ClubFactory()
    client.force_login(organiser_of(club))
    response = client.post(
        reverse("tournaments:series_new", args=[club.slug]),
        form_data(weekdays=[], mode="hybrid", format="knockout", time_zone="Mars/Olympus"),
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "Choose at least one weekday." in page
    assert "Hybrid events use Swiss or duplicate seating." in page
    assert not Series.objects.exists() and not Tournament.objects.exists()


def test_the_admin_creates_edits_and_runs_actions_through_the_services(client):
    club = ClubFactory()
    staff = UserFactory(is_staff=True)
    MembershipFactory(club=club, user=staff, role=ClubMembership.Role.ORGANISER)
    other = series_service.create_series(
        club=ClubFactory(), by=None, name="Fremd", weekdays=[1], start_time=dt.time(18, 0)
    )
    client.force_login(staff)
    add = reverse("admin:tournaments_series_add")
    page = client.get(add).content.decode()
    assert "fieldset" in page and 'type="checkbox" name="weekdays"' in page
    data = form_data(
        club=str(club.pk),
        **{
            "skips-TOTAL_FORMS": "1",
            "skips-INITIAL_FORMS": "0",
            "skips-MIN_NUM_FORMS": "0",
            "skips-MAX_NUM_FORMS": "1000",
            "skips-0-date": "2031-01-02",
        },
    )
    response = client.post(add, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    series = Series.objects.get(club=club)
    assert series.events.count() >= 4
    assert list(series.skips.values_list("date", flat=True)) == [dt.date(2031, 1, 2)]

    skip = series.skips.get()
    change = reverse("admin:tournaments_series_change", args=[series.pk])
    data = form_data(
        club=str(club.pk),
        start_time="18:45",
        **{
            "skips-TOTAL_FORMS": "1",
            "skips-INITIAL_FORMS": "1",
            "skips-MIN_NUM_FORMS": "0",
            "skips-MAX_NUM_FORMS": "1000",
            "skips-0-id": str(skip.pk),
            "skips-0-series": str(series.pk),
            "skips-0-date": "2031-01-02",
            "skips-0-DELETE": "on",
        },
    )
    response = client.post(change, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert not series.skips.exists()  # through unskip_date
    assert {e.starts_at.astimezone(BERLIN).strftime("%H:%M") for e in series.events.all()} == {
        "18:45"
    }  # through update_series

    changelist = client.get(reverse("admin:tournaments_series_changelist")).content.decode()
    assert "Donnerstagsrunde" in changelist and "Fremd" not in changelist
    assert client.get(reverse("admin:tournaments_series_change", args=[other.pk])).status_code in (
        302,
        403,
    )

    series.events.all().delete()
    client.post(
        reverse("admin:tournaments_series_changelist"),
        {"action": "create_upcoming_events", "_selected_action": [series.pk]},
    )
    assert series.events.count() >= 4
    client.post(
        reverse("admin:tournaments_series_changelist"),
        {"action": "pause_series", "_selected_action": [series.pk, other.pk]},
    )
    assert not Series.objects.get(pk=series.pk).active
    assert Series.objects.get(pk=other.pk).active  # not theirs
