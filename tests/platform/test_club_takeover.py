"""Staff can no longer take over a club (issue 25, defect 1): ``is_staff`` only opens the admin.
A staff owner of club A cannot approve their own join request to club B, make themself owner,
demote B's owner or remove B's organiser. Site moderators moderate, they don't take over: they
decide requests and act on any club's members, but never decide their own join request and
never change their own role."""

from __future__ import annotations

import pytest

from rosbi_platform.accounts import clubs
from rosbi_platform.accounts.models import ClubMembership, ClubRequest, Decision
from tests.games.factories import SiteModeratorFactory
from tests.tournaments.factories import ClubFactory, MembershipFactory, UserFactory

pytestmark = [pytest.mark.django_db]
Role = ClubMembership.Role


def roles(club) -> dict[int, str]:
    return dict(ClubMembership.objects.filter(club=club).values_list("user_id", "role"))


@pytest.fixture
def club_b():
    club = ClubFactory()
    owner = MembershipFactory(club=club, role=Role.OWNER).user
    organiser = MembershipFactory(club=club, role=Role.ORGANISER).user
    return club, owner, organiser


def test_a_staff_owner_of_another_club_cannot_take_over_club_b(club_b):
    club, owner, organiser = club_b
    staff = MembershipFactory(club=ClubFactory(), role=Role.OWNER, user__is_staff=True).user
    before = roles(club)
    request = clubs.request_membership(club, staff)
    with pytest.raises(clubs.ClubError):
        clubs.approve_membership(request.pk, staff)
    request.refresh_from_db()
    assert request.status == Decision.PENDING
    with pytest.raises(clubs.ClubError):
        clubs.change_role(club, owner.pk, Role.MEMBER, staff)
    with pytest.raises(clubs.ClubError):
        clubs.remove_member(club, organiser.pk, staff)
    with pytest.raises(clubs.ClubError):
        clubs.create_invite_link(club, staff)
    assert roles(club) == before
    # Even once let in by B's organiser, the staff member cannot raise their own role.
    clubs.approve_membership(request.pk, organiser)
    with pytest.raises(clubs.ClubError):
        clubs.change_role(club, staff.pk, Role.OWNER, staff)
    assert roles(club)[staff.pk] == Role.MEMBER


def test_staff_decide_no_club_request():
    request = clubs.request_club(UserFactory(), name="Stammtisch Ost")
    with pytest.raises(clubs.ClubError, match="Only site moderators"):
        clubs.approve_club_request(request.pk, UserFactory(is_staff=True))
    assert ClubRequest.objects.get(pk=request.pk).status == Decision.PENDING


def test_a_moderator_never_decides_their_own_join_request_nor_raises_their_role(club_b):
    club, owner, organiser = club_b
    moderator = SiteModeratorFactory()
    request = clubs.request_membership(club, moderator)
    with pytest.raises(clubs.ClubError, match="own request"):
        clubs.approve_membership(request.pk, moderator)
    clubs.approve_membership(request.pk, organiser)
    for role in (Role.ORGANISER, Role.OWNER):
        with pytest.raises(clubs.ClubError, match="own role"):
            clubs.change_role(club, moderator.pk, role, moderator)
    assert roles(club)[moderator.pk] == Role.MEMBER


def test_nobody_decides_their_own_join_request():
    club = ClubFactory()
    organiser = MembershipFactory(club=club, role=Role.ORGANISER).user
    ClubMembership.objects.filter(club=club, user=organiser).delete()  # left, asks again
    MembershipFactory(club=ClubFactory(), user=organiser, role=Role.OWNER)
    request = clubs.request_membership(club, organiser)
    with pytest.raises(clubs.ClubError):
        clubs.approve_membership(request.pk, organiser)


def test_a_moderator_moderates_any_club_but_the_club_keeps_its_owner(club_b):
    club, owner, organiser = club_b
    moderator = SiteModeratorFactory()
    newcomer = UserFactory()
    request = clubs.request_membership(club, newcomer)
    clubs.approve_membership(request.pk, moderator)
    assert clubs.remove_member(club, organiser.pk, moderator)
    with pytest.raises(clubs.ClubError, match="last owner"):
        clubs.remove_member(club, owner.pk, moderator)
    clubs.change_role(club, newcomer.pk, Role.OWNER, moderator)
    assert roles(club) == {owner.pk: Role.OWNER, newcomer.pk: Role.OWNER}
    assert moderator.pk not in roles(club)


def test_an_owner_may_still_step_down(club_b):
    club, owner, organiser = club_b
    clubs.change_role(club, organiser.pk, Role.OWNER, owner)
    clubs.change_role(club, owner.pk, Role.MEMBER, owner)
    assert roles(club)[owner.pk] == Role.MEMBER
