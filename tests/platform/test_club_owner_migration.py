"""The data migration that gives each existing club an owner (its first organiser), and its
reverse."""

from __future__ import annotations

import datetime as dt
import importlib

import pytest
from django.apps import apps
from django.utils import timezone

from rosbi_platform.accounts.models import ClubMembership
from tests.tournaments.factories import ClubFactory, MembershipFactory

pytestmark = [pytest.mark.django_db]
Role = ClubMembership.Role
migration = importlib.import_module("rosbi_platform.accounts.migrations.0004_first_club_owners")


def test_each_club_gets_its_longest_serving_organiser_as_owner_and_back():
    club, empty, owned = ClubFactory(), ClubFactory(), ClubFactory()
    late = MembershipFactory(club=club, role=Role.ORGANISER)
    early = MembershipFactory(club=club, role=Role.ORGANISER)
    ClubMembership.objects.filter(pk=early.pk).update(joined=timezone.now() - dt.timedelta(days=9))
    MembershipFactory(club=empty)
    owner = MembershipFactory(club=owned, role=Role.OWNER)
    other = MembershipFactory(club=owned, role=Role.ORGANISER)

    migration.promote_first_organisers(apps, None)
    role = lambda m: ClubMembership.objects.get(pk=m.pk).role  # noqa: E731
    assert (role(early), role(late)) == (Role.OWNER, Role.ORGANISER)
    assert not ClubMembership.objects.filter(club=empty, role=Role.OWNER).exists()
    assert (role(owner), role(other)) == (Role.OWNER, Role.ORGANISER)

    migration.owners_back_to_organisers(apps, None)
    assert not ClubMembership.objects.filter(role=Role.OWNER).exists()
