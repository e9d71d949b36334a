"""The admin asks the one-source permission functions too (issue 25): ``is_staff`` opens the
admin, but a staff organiser of club A sees only club A's clubs, memberships and invite links,
cannot change roles there (the members page does, through ``accounts.clubs``), decides no club
request, and sees no table, Partie or chat report; a site moderator sees every club and the
games' pages, but the event log only of tables no longer in play (no hand in progress)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import lobby
from games.models import TableEvent
from rosbi_platform.accounts import clubs
from rosbi_platform.accounts.models import ClubMembership
from tests.games.factories import SiteModeratorFactory, UserFactory
from tests.tournaments.factories import ClubFactory, MembershipFactory

pytestmark = [pytest.mark.django_db]
Role = ClubMembership.Role


@pytest.fixture
def two_clubs():
    club_a, club_b = ClubFactory(name="Alpha"), ClubFactory(name="Beta")
    staff_owner = MembershipFactory(club=club_a, role=Role.OWNER, user__is_staff=True).user
    b_owner = MembershipFactory(club=club_b, role=Role.OWNER).user
    clubs.create_invite_link(club_b, b_owner)
    return club_a, club_b, staff_owner, b_owner


def test_a_staff_organiser_sees_and_changes_only_their_own_club(client, two_clubs):
    club_a, club_b, staff_owner, b_owner = two_clubs
    client.force_login(staff_owner)
    listed = client.get(reverse("admin:accounts_club_changelist")).content.decode()
    assert "Alpha" in listed and "Beta" not in listed
    assert client.get(reverse("admin:accounts_club_change", args=[club_b.pk])).status_code in (
        302,
        403,
    )
    memberships = client.get(reverse("admin:accounts_clubmembership_changelist"))
    assert b_owner.username not in memberships.content.decode()
    membership = ClubMembership.objects.get(club=club_b, user=b_owner)
    response = client.post(
        reverse("admin:accounts_clubmembership_change", args=[membership.pk]),
        {"club": club_b.pk, "user": staff_owner.pk, "role": Role.OWNER},
    )
    assert response.status_code in (302, 403)
    assert ClubMembership.objects.filter(club=club_b, user=staff_owner).count() == 0
    assert ClubMembership.objects.get(pk=membership.pk).role == Role.OWNER
    invites = client.get(reverse("admin:accounts_clubinvite_changelist"))
    assert invites.context["cl"].result_count == 0  # club B's link is not theirs
    assert client.get(reverse("admin:accounts_clubrequest_changelist")).status_code == 403
    for name in ("games_table", "games_partie", "games_tableevent", "games_chatreport"):
        assert client.get(reverse(f"admin:{name}_changelist")).status_code == 403, name


def test_a_moderator_sees_every_club_and_no_event_of_a_table_in_play(client, two_clubs):
    moderator = SiteModeratorFactory(is_staff=True)
    client.force_login(moderator)
    listed = client.get(reverse("admin:accounts_club_changelist")).content.decode()
    assert "Alpha" in listed and "Beta" in listed
    assert client.get(reverse("admin:accounts_clubrequest_changelist")).status_code == 200
    owner = UserFactory()
    table = lobby.create_table(owner=owner, size=3, fill_with_bots=True)
    lobby.start_table(table.pk, owner, seed=3)
    dealt = TableEvent.objects.filter(table=table).first()
    assert dealt is not None
    page = client.get(reverse("admin:games_tableevent_changelist"))
    assert page.status_code == 200
    assert page.context["cl"].result_count == 0
    assert client.get(reverse("admin:games_tableevent_change", args=[dealt.pk])).status_code in (
        302,
        404,
    )
