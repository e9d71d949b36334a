"""Every time on the tournament pages is rendered in the zone written next to it: the event's
zone, and the viewer's own (profile zone, or the site's zone for a logged-out visitor)."""

from __future__ import annotations

import datetime as dt
import re
import zoneinfo

import pytest
from django.urls import reverse
from django.utils import timezone

from rosbi_platform.accounts.models import Profile
from tests.tournaments.factories import ClubFactory, UserFactory
from tests.tournaments.helpers import organiser_of
from tournaments import events

pytestmark = [pytest.mark.django_db(transaction=True)]

NEW_YORK = zoneinfo.ZoneInfo("America/New_York")


@pytest.fixture
def evening_in_new_york():
    """An event at 19:30 New York time on 5 December (next year, so it is upcoming)."""
    year = timezone.now().year + 1
    club = ClubFactory()
    starts = dt.datetime(year, 12, 5, 19, 30, tzinfo=NEW_YORK)
    tournament = events.create_tournament(
        club=club,
        by=organiser_of(club),
        name="Night in NY",
        slug="ny",
        starts_at=starts,
        time_zone="America/New_York",
    )
    return tournament, year


def text_of(response) -> str:
    body = re.sub(r"<[^>]+>", " ", response.content.decode())
    return re.sub(r"\s+", " ", body)


def test_a_tokyo_viewer_sees_new_york_time_labelled_new_york(evening_in_new_york, client):
    tournament, year = evening_in_new_york
    viewer = UserFactory()
    Profile.objects.filter(user=viewer).update(time_zone="Asia/Tokyo")
    client.force_login(viewer)

    text = text_of(client.get(reverse("tournaments:detail", args=[tournament.slug])))

    event_time = re.findall(rf"Dec\. 5, {year},? 19:30 \(America/New_York\)", text)
    assert len(event_time) == 2  # the event's start and round 1's start
    assert re.search(rf"Dec\. 6, {year},? 09:30 \(your time, Asia/Tokyo\)", text)
    assert "9:30 a.m. (America/New_York)" not in text


def test_a_logged_out_viewer_sees_new_york_time_labelled_new_york(evening_in_new_york, client):
    tournament, year = evening_in_new_york

    text = text_of(client.get(reverse("tournaments:detail", args=[tournament.slug])))

    assert len(re.findall(rf"Dec\. 5, {year},? 19:30 \(America/New_York\)", text)) == 2
    assert re.search(rf"Dec\. 6, {year},? 01:30 \(your time, Europe/Berlin\)", text)


def test_the_list_and_the_printed_list_label_their_times(evening_in_new_york, client):
    tournament, year = evening_in_new_york
    viewer = UserFactory()
    Profile.objects.filter(user=viewer).update(time_zone="Asia/Tokyo")
    client.force_login(viewer)

    listing = text_of(client.get(reverse("tournaments:list")))
    printed = text_of(client.get(reverse("tournaments:print", args=[tournament.slug, 1])))

    assert re.search(rf"Dec\. 5, {year},? 19:30 \(America/New_York\)", listing)
    assert re.search(rf"Dec\. 5, {year},? 19:30 \(America/New_York\)", printed)
