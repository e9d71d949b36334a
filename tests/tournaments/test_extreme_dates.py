"""Dates an organiser enters are bounded (at most two years ahead, not before 2000) by the
models' validation that every front door runs, and whatever a stored date holds, pages, the
API, iCal feeds and exports render it without a server error (defect 3 of issue 25: an event
on 9999-12-31 in Pacific/Kiritimati made /tournaments/ answer 500 for everyone)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from tests.api_clients import session_client, token_client
from tests.tournaments.factories import ClubFactory, UserFactory
from tests.tournaments.helpers import open_event, organiser_of
from tournaments import calendars, events, rounds, seasons
from tournaments.common import TournamentError
from tournaments.models import Round, Tournament

pytestmark = [pytest.mark.django_db]

END_OF_TIME = dt.datetime(9999, 12, 31, 23, 0, tzinfo=dt.UTC)


def extreme_event() -> tuple[Tournament, object]:
    """An event written straight into the database with the furthest date there is."""
    tournament, organiser = open_event(3, slug="far")
    Tournament.objects.filter(pk=tournament.pk).update(
        starts_at=END_OF_TIME,
        time_zone="Pacific/Kiritimati",
        registration_closes_at=END_OF_TIME,
        check_in_closes_at=END_OF_TIME,
    )
    Round.objects.filter(tournament=tournament).update(scheduled_at=END_OF_TIME)
    return Tournament.objects.get(pk=tournament.pk), organiser


def test_pages_api_and_feeds_render_an_extreme_stored_date(client):
    tournament, organiser = extreme_event()
    player = tournament.entries.first().user
    token = calendars.issue_calendar_token(player)
    visitor = session_client(UserFactory())
    urls = [
        reverse("tournaments:list"),
        reverse("tournaments:detail", args=[tournament.slug]),
        reverse("tournaments:club_calendar", args=[tournament.club.slug]),
        reverse("tournaments:player_calendar", args=[token.token]),
        "/api/v1/tournaments",
        f"/api/v1/tournaments/{tournament.slug}",
        f"/api/v1/tournaments/{tournament.slug}/rounds",
        f"/api/v1/tournaments/{tournament.slug}/standings",
        f"/api/v1/tournaments/{tournament.slug}/standings.csv",
        reverse("tournaments:state", args=[tournament.slug]),
        f"/clubs/{tournament.club.slug}/",
    ]
    for url in urls:
        assert client.get(url).status_code == 200, url
        assert visitor.get(url).status_code == 200, url
    client.force_login(organiser)
    for url in (
        reverse("tournaments:workspace", args=[tournament.slug]),
        reverse("tournaments:detail", args=[tournament.slug]),
        reverse("tournaments:organised"),
        reverse("tournaments:workspace_export", args=[tournament.slug, "standings"]),
    ):
        assert client.get(url).status_code == 200, url


def test_the_services_refuse_a_date_more_than_two_years_ahead():
    club = ClubFactory()
    organiser = organiser_of(club)
    far = timezone.now() + dt.timedelta(days=3 * 365)
    with pytest.raises(ValidationError) as refused:
        events.create_tournament(club=club, by=organiser, name="Far", slug="far", starts_at=far)
    assert "at most two years ahead" in str(refused.value)
    tournament, organiser = open_event(3, slug="soon")
    with pytest.raises(ValidationError):
        events.update_tournament(tournament.pk, organiser, registration_closes_at=far)
    round_one = Round.objects.get(tournament=tournament, number=1)
    with pytest.raises(TournamentError, match="at most two years ahead"):
        rounds.reschedule_round(round_one.pk, far, by=organiser)
    with pytest.raises(TournamentError, match="at most two years ahead"):
        events.postpone_tournament(tournament.pk, far, by=organiser)
    with pytest.raises(TournamentError, match="2000 or later"):
        rounds.reschedule_round(round_one.pk, dt.datetime(1999, 1, 1, tzinfo=dt.UTC), by=organiser)
    assert Tournament.objects.get(pk=tournament.pk).starts_at == tournament.starts_at


def test_the_api_refuses_it_with_a_sentence():
    club = ClubFactory()
    organiser = organiser_of(club)
    data = {
        "club": club.slug,
        "name": "Far away",
        "slug": "far-away",
        "starts_at": "2035-01-01T19:00:00Z",
        "time_zone": "Pacific/Kiritimati",
        "rounds": 3,
    }
    answer = token_client(organiser, ["read", "tournament:write"]).post(
        "/api/v1/tournaments", data, format="json"
    )
    assert answer.status_code == 400
    assert "two years" in answer.json()["detail"]
    assert not Tournament.objects.filter(slug="far-away").exists()


def test_a_season_far_ahead_is_refused():
    club = ClubFactory()
    with pytest.raises(TournamentError):
        seasons.create_season(
            club=club,
            name="Forever",
            starts_on=dt.date(2027, 1, 1),
            ends_on=dt.date(9999, 12, 31),
            by=organiser_of(club),
        )
