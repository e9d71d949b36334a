"""iCalendar feeds: valid RFC 5545 text (escaping, folding, UTC times across a DST change), a
public club feed and a player's feed behind a revocable token."""

from __future__ import annotations

import datetime as dt
import zoneinfo

import pytest
from django.urls import reverse

from tests.tournaments.factories import ClubFactory, TournamentFactory, UserFactory
from tests.tournaments.ical_parser import parse_calendar, utc_time
from tournaments import calendars
from tournaments.ical import CalendarEvent, calendar_text, fold_line
from tournaments.models import Entry, Tournament

BERLIN = zoneinfo.ZoneInfo("Europe/Berlin")
STAMP = dt.datetime(2026, 12, 1, 19, 0, tzinfo=dt.UTC)


def test_text_is_escaped_and_long_lines_are_folded_at_75_octets():
    summary = "Rosbi; Abend, mit \\ Backslash\nund Umlauten äöüß " + "Ö" * 80
    text = calendar_text(
        "Club, Berlin",
        [
            CalendarEvent(
                uid="tournament-1@rosbi",
                starts_at=dt.datetime(2026, 3, 26, 19, 30, tzinfo=BERLIN),
                summary=summary,
                url="https://rosbi.example/tournaments/x/",
            )
        ],
        STAMP,
    )
    assert "SUMMARY:Rosbi\\; Abend\\, mit \\\\ Backslash\\nund" in text.replace("\r\n ", "")
    (event,) = parse_calendar(text)
    assert event["SUMMARY"] == summary
    assert event["UID"] == "tournament-1@rosbi"
    assert event["DTSTAMP"] == "20261201T190000Z"
    assert utc_time(event["DTSTART"]) == dt.datetime(2026, 3, 26, 18, 30, tzinfo=dt.UTC)
    assert "X-WR-CALNAME:Club\\, Berlin\r\n" in text
    # Folding never splits a UTF-8 character and every continuation starts with one space.
    folded = fold_line("SUMMARY:" + "ä" * 100)
    assert all(len(part.encode()) <= 75 for part in folded.split("\r\n"))
    assert folded.replace("\r\n ", "") == "SUMMARY:" + "ä" * 100


def test_naive_times_are_refused():
    event = CalendarEvent("u", dt.datetime(2026, 1, 1, 19, 30), "x", "https://x/")
    with pytest.raises(ValueError):
        calendar_text("c", [event], STAMP)


def make_event(club, slug: str, local: dt.datetime, **fields) -> Tournament:
    return TournamentFactory(
        club=club, slug=slug, name=slug, starts_at=local, time_zone="Europe/Berlin", **fields
    )


def next_berlin_clock_change() -> dt.date:
    """The next day (from the day after tomorrow) whose noon has another UTC offset than the
    day before's: the last Sunday of March or October."""
    day = dt.date.today() + dt.timedelta(days=2)
    while True:
        noon = dt.datetime.combine(day, dt.time(12), BERLIN)
        if noon.utcoffset() != (noon - dt.timedelta(days=1)).utcoffset():
            return day
        day += dt.timedelta(days=1)


@pytest.mark.django_db
def test_the_club_feed_is_public_and_keeps_1930_local_across_a_clock_change(client):
    change = next_berlin_clock_change()
    assert change.weekday() == 6 and change.month in (3, 10)
    before = dt.datetime.combine(change - dt.timedelta(days=3), dt.time(19, 30), BERLIN)
    after = dt.datetime.combine(change + dt.timedelta(days=4), dt.time(19, 30), BERLIN)
    club = ClubFactory(name="Skat & Rosbi, Mitte")
    first = make_event(club, "before", before)
    second = make_event(club, "after", after)
    make_event(ClubFactory(), "other-club", after)
    make_event(club, "long-ago", dt.datetime(2020, 1, 2, 19, 30, tzinfo=BERLIN))

    response = client.get(reverse("tournaments:club_calendar", args=[club.slug]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    events = parse_calendar(response.content.decode())
    assert [e["UID"] for e in events] == [
        f"tournament-{first.pk}@rosbi",
        f"tournament-{second.pk}@rosbi",
    ]
    starts = [utc_time(e["DTSTART"]) for e in events]
    summer_first = change.month == 10
    assert [s.hour for s in starts] == ([17, 18] if summer_first else [18, 17])
    assert [s.minute for s in starts] == [30, 30]
    assert {s.astimezone(BERLIN).strftime("%H:%M") for s in starts} == {"19:30"}
    assert events[0]["SUMMARY"] == "before (Skat & Rosbi, Mitte)"
    assert events[0]["URL"] == f"http://testserver/tournaments/{first.slug}/"
    assert all("DTSTAMP" in e for e in events)


@pytest.mark.django_db
def test_the_player_feed_lists_entered_events_behind_a_revocable_token(client):
    player = UserFactory()
    club = ClubFactory()
    entered = make_event(club, "entered", dt.datetime(2026, 12, 3, 19, 30, tzinfo=BERLIN))
    withdrawn = make_event(club, "withdrawn", dt.datetime(2026, 12, 10, 19, 30, tzinfo=BERLIN))
    cancelled = make_event(
        club,
        "cancelled",
        dt.datetime(2026, 12, 17, 19, 30, tzinfo=BERLIN),
        status=Tournament.Status.CANCELLED,
    )
    make_event(club, "not-entered", dt.datetime(2026, 12, 3, 19, 30, tzinfo=BERLIN))
    Entry.objects.create(tournament=entered, user=player)
    Entry.objects.create(tournament=withdrawn, user=player, status=Entry.Status.WITHDRAWN)
    Entry.objects.create(tournament=cancelled, user=player)
    Entry.objects.create(tournament=withdrawn, user=UserFactory())

    client.force_login(player)
    page = client.get(reverse("tournaments:my_calendar"))
    token = calendars.issue_calendar_token(player).token
    url = reverse("tournaments:player_calendar", args=[token])
    assert f"http://testserver{url}" in page.content.decode()
    assert calendars.issue_calendar_token(player).token == token  # stable
    client.logout()

    events = parse_calendar(client.get(url).content.decode())
    assert [e["URL"].rsplit("/", 2)[-2] for e in events] == ["entered", "cancelled"]
    assert [e["STATUS"] for e in events] == ["CONFIRMED", "CANCELLED"]
    assert utc_time(events[0]["DTSTART"]) == dt.datetime(2026, 12, 3, 18, 30, tzinfo=dt.UTC)

    client.force_login(player)
    client.post(reverse("tournaments:my_calendar"))
    client.logout()
    assert client.get(url).status_code == 404
    new_token = calendars.issue_calendar_token(player).token
    assert new_token != token
    assert client.get(reverse("tournaments:player_calendar", args=[new_token])).status_code == 200
    assert client.get(reverse("tournaments:player_calendar", args=["guess"])).status_code == 404
