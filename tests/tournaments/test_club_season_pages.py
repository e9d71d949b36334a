"""The season pages: organisers create a season with a proper points field (bad input shows
a message and saves nothing), open and close it, add events; everyone reads the table (best N
of M) in English and German; others are refused."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.factories import (
    ClubFactory,
    MembershipFactory,
    TournamentFactory,
    UserFactory,
    finished_event,
)
from tests.tournaments.helpers import organiser_of
from tournaments import seasons
from tournaments.models import ClubSeason, ClubSeasonStanding

pytestmark = [pytest.mark.django_db]


def season_form(**changes):
    today = timezone.localdate()
    data = {
        "name": "Frühjahr",
        "starts_on": (today - dt.timedelta(days=10)).isoformat(),
        "ends_on": (today + dt.timedelta(days=50)).isoformat(),
        "best_of": "2",
        "place_points": "5, 3, 1",
        "automatic": "on",
    }
    data.update(changes)
    return data


def test_an_organiser_creates_a_season_with_validated_points(client):
    club = ClubFactory()
    organiser = organiser_of(club)
    url = reverse("clubs:season_new", args=[club.slug])
    client.force_login(MembershipFactory(club=club).user)
    assert client.get(url).status_code == 403
    client.force_login(organiser)
    client.cookies["django_language"] = "de"
    page = client.post(url, season_form(place_points="3, 5")).content.decode()
    assert "Ein schlechterer Platz kann nicht mehr Punkte bekommen" in page
    page = client.post(url, season_form(place_points="drei")).content.decode()
    assert "field-invalid" in page
    assert not ClubSeason.objects.exists()
    response = client.post(url, season_form())
    season = ClubSeason.objects.get()
    assert response["Location"] == reverse("clubs:season", args=[club.slug, season.pk])
    assert (season.place_points, season.best_of) == ([5, 3, 1], 2)


def test_the_season_page_in_both_languages_with_open_add_and_close(client):
    club = ClubFactory()
    organiser = organiser_of(club)
    ana, ben = UserFactory(), UserFactory()
    today = timezone.localdate()
    season = seasons.create_season(
        club=club,
        by=organiser,
        name="Frühjahr",
        starts_on=today - dt.timedelta(days=10),
        ends_on=today + dt.timedelta(days=50),
        best_of=1,
        place_points=[5, 3, 1],
    )
    finished_event(club, [ana, ben], name="Erster Abend", season=season)
    later = finished_event(club, [ben, ana], name="Zweiter Abend")
    TournamentFactory(
        club=club, name="Nächstes Jahr", starts_at=timezone.now() + dt.timedelta(days=400)
    )
    url = reverse("clubs:season", args=[club.slug, season.pk])
    body = client.get(url).content.decode()
    assert (
        "Best 1 of 1: each player's best 1 results count" in body and "Open the season" not in body
    )
    table = body[body.index("table-heading") : body.index("events-heading")]
    assert table.index(ana.profile.display_name) < table.index(ben.profile.display_name)

    # A stranger cannot open it or add events.
    client.force_login(UserFactory())
    assert (
        client.post(reverse("clubs:season_action", args=[club.slug, season.pk, "open"])).status_code
        == 403
    )
    assert ClubSeason.objects.get(pk=season.pk).status == ClubSeason.Status.PLANNED

    client.force_login(organiser)
    client.cookies["django_language"] = "de"
    body = client.get(url).content.decode()
    assert "Saisontabelle" in body and "Zweiter Abend" in body and "Nächstes Jahr" not in body
    client.post(reverse("clubs:season_action", args=[club.slug, season.pk, "open"]))
    client.post(
        reverse("clubs:season_event", args=[club.slug, season.pk]), {"tournament": later.pk}
    )
    later.refresh_from_db()
    assert later.season_id == season.pk
    body = client.get(url).content.decode()
    table = body[body.index("table-heading") : body.index("events-heading")]
    assert "5" in table and "Beste 1 aus 2:" in body
    response = client.post(
        reverse("clubs:season_action", args=[club.slug, season.pk, "close"]), follow=True
    )
    assert "gespeichert" in response.content.decode()
    assert ClubSeasonStanding.objects.filter(season=season).count() == 2
    body = client.get(url).content.decode()
    assert "Saison schließen" not in body
    # Events of a closed season stay as they are.
    response = client.post(
        reverse("clubs:season_event", args=[club.slug, season.pk]),
        {"remove": later.pk},
        follow=True,
    )
    later.refresh_from_db()
    assert later.season_id == season.pk
