"""The admin as the staff tool for clubs and seasons: club requests approved or declined by
the actions (the services), seasons created through ``create_season`` and opened or closed by
the actions; organisers who are staff see only their own club's seasons."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from rosbi_platform.accounts import clubs
from rosbi_platform.accounts.models import Club, ClubMembership, ClubRequest, Decision
from tests.tournaments.factories import ClubFactory, MembershipFactory, UserFactory, finished_event
from tournaments.models import ClubSeason, ClubSeasonStanding

pytestmark = [pytest.mark.django_db]


def test_staff_approve_and_decline_club_requests_with_the_admin_actions(client):
    alice, bob = UserFactory(), UserFactory()
    wanted = clubs.request_club(alice, name="Ober Zwei")
    unwanted = clubs.request_club(bob, name="Spam Club")
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    changelist = reverse("admin:accounts_clubrequest_changelist")
    client.post(changelist, {"action": "approve", "_selected_action": [wanted.pk]})
    client.post(changelist, {"action": "decline", "_selected_action": [unwanted.pk]})
    club = Club.objects.get(name="Ober Zwei")
    assert ClubMembership.objects.get(club=club).user == alice
    assert ClubMembership.objects.get(club=club).role == ClubMembership.Role.OWNER
    assert ClubRequest.objects.get(pk=unwanted.pk).status == Decision.DECLINED
    assert not Club.objects.filter(name="Spam Club").exists()
    # Approving the declined one is refused with its reason, nothing created.
    response = client.post(
        changelist, {"action": "approve", "_selected_action": [unwanted.pk]}, follow=True
    )
    assert "declined already" in response.content.decode()
    assert not Club.objects.filter(name="Spam Club").exists()


def test_seasons_in_the_admin_are_made_opened_and_closed_by_the_services(client):
    club = ClubFactory()
    organiser = MembershipFactory(
        club=club, role=ClubMembership.Role.ORGANISER, user__is_staff=True
    ).user
    other = ClubFactory()
    client.force_login(organiser)
    add = reverse("admin:tournaments_clubseason_add")
    form = {
        "club": club.pk,
        "name": "Herbst",
        "starts_on": "2026-09-01",
        "ends_on": "2026-11-30",
        "best_of": "3",
        "place_points": "3,2,1",
        "automatic": "on",
    }
    response = client.post(add, {**form, "place_points": "1,2,3"})
    assert "A worse place cannot earn more points" in response.content.decode()
    assert client.post(add, {**form, "club": other.pk}).status_code == 200  # not their club
    assert not ClubSeason.objects.exists()
    client.post(add, form)
    season = ClubSeason.objects.get()
    assert (season.club, season.place_points, season.best_of) == (club, [3, 2, 1], 3)
    overlapping = client.post(add, {**form, "name": "Doppelt", "starts_on": "2026-11-01"})
    assert "another season on some of these days" in overlapping.content.decode()

    players = [UserFactory(), UserFactory()]
    finished_event(
        club, players, starts_at=dt.datetime(2026, 9, 3, 18, tzinfo=dt.UTC), season=season
    )
    changelist = reverse("admin:tournaments_clubseason_changelist")
    client.post(changelist, {"action": "open_seasons", "_selected_action": [season.pk]})
    assert ClubSeason.objects.get().status == ClubSeason.Status.OPEN
    client.post(changelist, {"action": "close_seasons", "_selected_action": [season.pk]})
    assert ClubSeason.objects.get().status == ClubSeason.Status.CLOSED
    assert list(
        ClubSeasonStanding.objects.filter(season=season).values_list("points", flat=True)
    ) == [3, 2]

    theirs = ClubSeason.objects.create(
        club=other, name="Fremd", starts_on=dt.date(2026, 1, 1), ends_on=dt.date(2026, 2, 1)
    )
    assert "Fremd" not in client.get(changelist).content.decode()
    client.post(changelist, {"action": "open_seasons", "_selected_action": [theirs.pk]})
    assert ClubSeason.objects.get(pk=theirs.pk).status == ClubSeason.Status.PLANNED
