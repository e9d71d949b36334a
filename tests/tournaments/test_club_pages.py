"""The club pages at /clubs/: list and club requests, the club page (upcoming events, results
archive with winners, club ladder), joining by request and by invite link, the owners' and
organisers' member page, in English and German; only the right people change anything."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from ratings.models import PlayerRating
from rosbi_platform.accounts import clubs
from rosbi_platform.accounts.models import (
    ClubInvite,
    ClubMembership,
    ClubRequest,
    MembershipRequest,
)
from tests.tournaments.factories import (
    ClubFactory,
    MembershipFactory,
    TournamentFactory,
    UserFactory,
    finished_event,
)

pytestmark = [pytest.mark.django_db]
Role = ClubMembership.Role


def german(client):
    client.cookies["django_language"] = "de"
    return client


def club_with_owner(**fields):
    club = ClubFactory(**fields)
    owner = MembershipFactory(club=club, role=Role.OWNER).user
    return club, owner


def test_the_club_list_and_a_club_request_in_both_languages(client):
    ClubFactory(name="Kreuz Bube", slug="kreuz-bube")
    page = client.get(reverse("clubs:list"))
    assert "Kreuz Bube" in page.content.decode() and "Start a club" in page.content.decode()
    user = UserFactory()
    client.force_login(user)
    german(client)
    page = client.get(reverse("clubs:list"))
    assert "Einen Verein gründen" in page.content.decode()
    response = client.post(reverse("clubs:request"), {"name": "Schellen Sieben"}, follow=True)
    assert "Danke" in response.content.decode()
    assert ClubRequest.objects.get().requested_by == user
    response = client.post(reverse("clubs:request"), {"name": "kreuz bube"}, follow=True)
    assert "Einen Verein mit diesem Namen gibt es schon." in response.content.decode()
    assert ClubRequest.objects.count() == 1


def test_the_club_page_shows_upcoming_events_winners_and_the_club_ladder(client):
    club, owner = club_with_owner(name="Herz As", slug="herz-as")
    winner = MembershipFactory(club=club, user__username="winnie").user
    second = MembershipFactory(club=club, user__username="zweite").user
    outsider = UserFactory(username="aussen")
    TournamentFactory(
        club=club, name="Donnerstagsrunde", starts_at=timezone.now() + dt.timedelta(days=2)
    )
    finished_event(club, [winner, second], name="Wintercup")
    for user, mu in [(winner, 1610.0), (second, 1720.0), (outsider, 1900.0)]:
        PlayerRating.objects.create(
            user=user, mu=mu, sigma=60, games=25, last_played=timezone.now()
        )
    body = client.get(reverse("clubs:detail", args=[club.slug])).content.decode()
    assert "Donnerstagsrunde" in body and "Wintercup" in body
    archive = body[body.index("archive-heading") : body.index("ladder-heading")]
    assert "Winnie" in archive and "Zweite" not in archive
    ladder = body[body.index("ladder-heading") : body.index("seasons-heading")]
    assert ladder.index("Zweite") < ladder.index("Winnie")
    assert "Aussen" not in ladder and "1720" in ladder
    german(client)
    body = client.get(reverse("clubs:detail", args=[club.slug])).content.decode()
    assert "Ergebnisarchiv" in body and "Vereinsrangliste" in body


def test_a_visitor_asks_to_join_and_an_organiser_lets_them_in(client):
    club, _owner = club_with_owner()
    organiser = MembershipFactory(club=club, role=Role.ORGANISER).user
    player = UserFactory()
    client.force_login(player)
    client.post(reverse("clubs:join", args=[club.slug]), {"message": "Ich spiele gern"})
    request = MembershipRequest.objects.get(club=club, user=player)
    # The player cannot let themself in.
    client.post(reverse("clubs:decide", args=[club.slug, request.pk, "approve"]), follow=True)
    assert not ClubMembership.objects.filter(club=club, user=player).exists()
    assert client.get(reverse("clubs:members", args=[club.slug])).status_code == 403
    client.force_login(organiser)
    page = client.get(reverse("clubs:members", args=[club.slug])).content.decode()
    assert "Ich spiele gern" in page
    client.post(reverse("clubs:decide", args=[club.slug, request.pk, "approve"]))
    assert ClubMembership.objects.get(club=club, user=player).role == Role.MEMBER


def test_the_member_page_needs_a_login(client):
    club, _owner = club_with_owner()
    response = client.get(reverse("clubs:members", args=[club.slug]))
    assert response.status_code == 302 and reverse("accounts:login") in response["Location"]


def test_owners_change_roles_on_the_site_and_organisers_cannot(client):
    club, owner = club_with_owner()
    organiser = MembershipFactory(club=club, role=Role.ORGANISER).user
    member = MembershipFactory(club=club).user
    client.force_login(organiser)
    page = client.get(reverse("clubs:members", args=[club.slug])).content.decode()
    assert "Only the club's owners change roles." in page
    client.post(reverse("clubs:role", args=[club.slug, member.pk]), {"role": "owner"})
    assert ClubMembership.objects.get(club=club, user=member).role == Role.MEMBER
    client.force_login(owner)
    german(client)
    client.post(reverse("clubs:role", args=[club.slug, member.pk]), {"role": "organiser"})
    assert ClubMembership.objects.get(club=club, user=member).role == Role.ORGANISER
    response = client.post(
        reverse("clubs:role", args=[club.slug, owner.pk]), {"role": "member"}, follow=True
    )
    assert "Der Verein braucht einen Besitzer" in response.content.decode()
    assert ClubMembership.objects.get(club=club, user=owner).role == Role.OWNER
    response = client.post(
        reverse("clubs:role", args=[club.slug, member.pk]), {"role": "king"}, follow=True
    )
    assert ClubMembership.objects.get(club=club, user=member).role == Role.ORGANISER
    client.post(reverse("clubs:remove", args=[club.slug, member.pk]))
    assert not ClubMembership.objects.filter(club=club, user=member).exists()


def test_an_invite_link_from_the_member_page_lets_a_player_join(client):
    club, owner = club_with_owner(name="Eichel König", slug="eichel-koenig")
    client.force_login(owner)
    client.post(reverse("clubs:invite_create", args=[club.slug]), {"valid_for": "7"})
    invite = ClubInvite.objects.get(club=club)
    assert invite.expires_at > timezone.now() + dt.timedelta(days=6)
    page = client.get(reverse("clubs:members", args=[club.slug])).content.decode()
    assert reverse("clubs:invite", args=[invite.token]) in page
    player = UserFactory()
    client.force_login(player)
    german(client)
    page = client.get(reverse("clubs:invite", args=[invite.token])).content.decode()
    assert "Einladung zu Eichel König" in page
    response = client.post(reverse("clubs:invite", args=[invite.token]), follow=True)
    assert "Willkommen bei Eichel König!" in response.content.decode()
    assert ClubMembership.objects.filter(club=club, user=player).exists()
    clubs.revoke_invite_link(invite.pk, owner)
    late = UserFactory()
    client.force_login(late)
    response = client.post(reverse("clubs:invite", args=[invite.token]), follow=True)
    assert "zurückgezogen" in response.content.decode()
    assert not ClubMembership.objects.filter(club=club, user=late).exists()
    assert client.get(reverse("clubs:invite", args=["nonsense"])).status_code == 404


def test_the_last_owner_cannot_leave_on_the_site(client):
    club, owner = club_with_owner()
    client.force_login(owner)
    response = client.post(reverse("clubs:leave", args=[club.slug]), follow=True)
    assert "last owner" in response.content.decode()
    assert ClubMembership.objects.filter(club=club, user=owner).exists()


def test_owners_run_the_clubs_events_like_organisers():
    from tournaments import selectors

    club, owner = club_with_owner()
    member = MembershipFactory(club=club).user
    assert selectors.can_manage_club(owner, club.pk)
    assert club.pk in selectors.managed_club_ids(owner)
    assert not selectors.can_manage_club(member, club.pk)


def test_bad_invite_input_and_strangers_make_no_link(client):
    club, owner = club_with_owner()
    client.force_login(owner)
    response = client.post(
        reverse("clubs:invite_create", args=[club.slug]), {"valid_for": "99"}, follow=True
    )
    assert "Please choose how long the link works." in response.content.decode()
    client.force_login(MembershipFactory(club=club).user)
    client.post(reverse("clubs:invite_create", args=[club.slug]), {"valid_for": ""})
    assert not ClubInvite.objects.exists()
    invite = clubs.create_invite_link(club, owner)
    client.post(reverse("clubs:invite_revoke", args=[club.slug, invite.pk]))
    assert ClubInvite.objects.get(pk=invite.pk).revoked_at is None


def test_a_request_for_another_club_cannot_be_decided_here(client):
    club, owner = club_with_owner()
    other, _other_owner = club_with_owner()
    request = clubs.request_membership(other, UserFactory())
    client.force_login(owner)
    client.post(reverse("clubs:decide", args=[club.slug, request.pk, "approve"]))
    assert MembershipRequest.objects.get(pk=request.pk).status == "pending"
    assert (
        client.post(reverse("clubs:decide", args=[club.slug, request.pk, "nonsense"])).status_code
        == 404
    )
