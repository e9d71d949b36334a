"""A player's history page (/players/<name>/history/): every finished Partie and event with
place, total, rating change, replay link and event; filters by club and season; paginated;
other viewers see only public tables and never a Partie in progress; both languages; linked
from the ladder profile."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Partie, Seat, SeatResult, Table
from ratings.models import RatingChange
from tests.ratings.factories import finished_partie
from tests.tournaments.factories import ClubFactory, UserFactory, finished_event
from tests.tournaments.helpers import organiser_of
from tournaments import seasons
from tournaments.models import Round, RoundTable

pytestmark = [pytest.mark.django_db]


def history(client, user, **query):
    return client.get(reverse("players:history", args=[user.username]), query)


def event_partie(tournament, players, totals, name):
    partie = finished_partie(players, totals)
    Table.objects.filter(pk=partie.table_id).update(name=name, club_id=tournament.club_id)
    round_, _ = Round.objects.get_or_create(
        tournament=tournament, number=1, defaults={"status": Round.Status.FINISHED}
    )
    RoundTable.objects.create(
        round=round_,
        number=RoundTable.objects.filter(round=round_).count() + 1,
        size=len(players),
        game_table_id=partie.table_id,
        status=RoundTable.Status.FINISHED,
    )
    return partie


def test_history_lists_parties_and_events_with_places_totals_and_rating_changes(client):
    ana, ben, cem = UserFactory(username="ana"), UserFactory(), UserFactory()
    club = ClubFactory(name="Herz Sieben")
    cup = finished_event(club, [ben, ana, cem], name="Frühlingscup")
    partie = event_partie(cup, [ana, ben, cem], [12, 30, 40], "Cup-Tisch")
    RatingChange.objects.create(
        partie=partie,
        user=ana,
        finished_at=partie.finished_at,
        seat=0,
        total=12,
        place=1,
        mu_before=1500,
        sigma_before=100,
        games_before=3,
        mu_after=1517.4,
        sigma_after=95,
    )
    casual = finished_partie([ana, cem, ben], [50, 10, 20])
    body = history(client, ana).content.decode()
    parties = body[body.index("parties-heading") :]
    assert "Cup-Tisch" in parties and casual.table.name in parties
    assert "1/3" in parties and "12" in parties and "+17" in parties and "3/3" in parties
    assert reverse("games:replay", args=[partie.table_id]) in parties
    assert "Frühlingscup" in parties
    events = body[body.index("events-heading") : body.index("parties-heading")]
    assert "Frühlingscup" in events and "2/3" in events and "Herz Sieben" in events
    # filtered by club: only the event's Partie
    body = history(client, ana, club=club.pk).content.decode()
    parties = body[body.index("parties-heading") :]
    assert "Cup-Tisch" in parties and casual.table.name not in parties


def test_filter_by_season_and_pagination(client):
    ana, ben, cem = UserFactory(), UserFactory(), UserFactory()
    club = ClubFactory()
    organiser = organiser_of(club)
    today = timezone.localdate()
    season = seasons.create_season(
        club=club,
        by=organiser,
        name="Wintersaison",
        starts_on=today - dt.timedelta(days=30),
        ends_on=today + dt.timedelta(days=30),
    )
    in_season = finished_event(club, [ana, ben, cem], name="Saisonabend", season=season)
    outside = finished_event(club, [cem, ben, ana], name="Freundschaftsabend")
    event_partie(in_season, [ana, ben, cem], [1, 2, 3], "Saisontisch")
    event_partie(outside, [ana, ben, cem], [9, 2, 3], "Freundschaftstisch")
    body = history(client, ana, season=season.pk).content.decode()
    assert "Saisontisch" in body and "Freundschaftstisch" not in body
    assert "Saisonabend" in body and "Freundschaftsabend" not in body
    for n in range(26):
        finished_partie([ana, ben, cem], [n, 50, 60])
    first = history(client, ana).content.decode()
    assert "Page 1 of 2" in first
    second = history(client, ana, page=2).content.decode()
    assert "Page 2 of 2" in second
    rows = lambda html: html[html.index("parties-heading") :].count("<tr>") - 1  # noqa: E731
    assert rows(first) == 25 and rows(second) == 3


def test_other_viewers_see_public_finished_parties_only(client):
    ana, ben, cem = UserFactory(), UserFactory(), UserFactory()
    private = finished_partie([ana, ben, cem], [1, 2, 3])
    Table.objects.filter(pk=private.table_id).update(public=False, name="Geheimtisch")
    running = Table.objects.create(name="Laufender Tisch", owner=ana, size=3, status="playing")
    Seat.objects.create(table=running, number=0, user=ana)
    unfinished = Partie.objects.create(table=running, first_dealer=0)
    SeatResult.objects.create(partie=unfinished, seat=0, user=ana, total=0, place=1)
    client.force_login(UserFactory())
    body = history(client, ana).content.decode()
    assert "Geheimtisch" not in body and "Laufender Tisch" not in body
    # One rule for every page (issue 25): those who played the private Partie see it.
    client.force_login(ben)
    body = history(client, ana).content.decode()
    assert "Geheimtisch" in body and "Laufender Tisch" not in body
    client.force_login(ana)
    body = history(client, ana).content.decode()
    assert "Geheimtisch" in body and "Laufender Tisch" not in body


def test_history_in_german_and_linked_from_the_ladder_profile(client):
    ana = UserFactory()
    client.cookies["django_language"] = "de"
    body = history(client, ana).content.decode()
    assert "Verlauf von" in body and "Keine beendeten Partien." in body
    profile = client.get(reverse("ratings:player", args=[ana.username])).content.decode()
    assert reverse("players:history", args=[ana.username]) in profile


def test_a_bad_filter_is_ignored_with_the_field_marked(client):
    ana = UserFactory()
    response = history(client, ana, club="nonsense")
    assert response.status_code == 200
    assert "field-invalid" in response.content.decode()
    assert history(client, UserFactory.build(username="nobody")).status_code == 404


def test_a_partie_the_player_left_says_so(client):
    ana, ben, cem = UserFactory(), UserFactory(), UserFactory()
    partie = finished_partie([ana, ben, cem], [7, 20, 30], left={0})
    Table.objects.filter(pk=partie.table_id).update(name="Verlassener Tisch")
    body = history(client, ana).content.decode()
    parties = body[body.index("parties-heading") :]
    assert "Verlassener Tisch" in parties and "left the table" in parties
    assert "1/3" not in parties
