"""The site-moderator rule (rosbi_platform/accounts/permissions.py): one permission,
``accounts.moderate_site``, held directly, through the "Site moderators" group or as a
superuser; ``is_staff`` alone gives nothing, and club roles give power over their own club
only."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, Group, Permission

from rosbi_platform.accounts import permissions, selectors
from rosbi_platform.accounts.models import ClubMembership, User
from tests.games.factories import SiteModeratorFactory, UserFactory
from tests.tournaments.factories import ClubFactory, MembershipFactory

pytestmark = [pytest.mark.django_db]
Role = ClubMembership.Role


def fresh(user: User) -> User:
    """The user read again (Django caches permissions on the object)."""
    return User.objects.get(pk=user.pk)


def test_the_group_site_moderators_holds_the_permission():
    group = Group.objects.get(name=permissions.SITE_MODERATORS_GROUP)
    assert list(group.permissions.values_list("content_type__app_label", "codename")) == [
        ("accounts", "moderate_site")
    ]


def test_staff_alone_is_no_site_moderator_and_manages_no_club():
    staff = UserFactory(is_staff=True)
    club = ClubFactory()
    assert not permissions.is_site_moderator(staff)
    assert not permissions.may_manage_club(staff, club.pk)
    assert not permissions.may_own_club(staff, club.pk)
    assert permissions.managed_club_ids(staff) == []


def test_the_permission_the_group_and_superusers_make_a_moderator():
    direct = UserFactory()
    direct.user_permissions.add(
        Permission.objects.get(content_type__app_label="accounts", codename="moderate_site")
    )
    grouped = SiteModeratorFactory()
    superuser = UserFactory(is_superuser=True)
    club = ClubFactory()
    for user in (fresh(direct), fresh(grouped), fresh(superuser)):
        assert permissions.is_site_moderator(user)
        assert permissions.may_manage_club(user, club.pk)
        assert permissions.may_own_club(user, club.pk)
        assert permissions.managed_club_ids(user) is None


def test_visitors_and_inactive_accounts_are_never_moderators():
    moderator = SiteModeratorFactory()
    moderator.is_active = False
    moderator.save()
    assert not permissions.is_site_moderator(fresh(moderator))
    assert not permissions.is_site_moderator(AnonymousUser())
    assert not permissions.is_site_moderator(None)


def test_club_roles_give_power_over_their_own_club_only():
    club, other = ClubFactory(), ClubFactory()
    owner = MembershipFactory(club=club, role=Role.OWNER).user
    organiser = MembershipFactory(club=club, role=Role.ORGANISER).user
    member = MembershipFactory(club=club, role=Role.MEMBER).user
    assert permissions.may_own_club(owner, club.pk) and permissions.may_manage_club(owner, club.pk)
    assert permissions.may_manage_club(organiser, club.pk)
    assert not permissions.may_own_club(organiser, club.pk)
    assert not permissions.may_manage_club(member, club.pk)
    for user in (owner, organiser, member):
        assert not permissions.may_manage_club(user, other.pk)
    assert permissions.managed_club_ids(organiser) == [club.pk]


def test_the_accounts_selectors_ask_the_same_functions():
    assert selectors.is_club_organiser is permissions.may_manage_club
    assert selectors.is_club_owner is permissions.may_own_club
