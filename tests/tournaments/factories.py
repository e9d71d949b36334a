"""factory-boy factories for clubs, organisers and tournaments (users come from the games')."""

from __future__ import annotations

import datetime as dt

import factory
from django.utils import timezone
from factory.django import DjangoModelFactory

from rosbi_platform.accounts.models import Club, ClubMembership
from tests.games.factories import UserFactory
from tournaments.models import Tournament

__all__ = ["ClubFactory", "MembershipFactory", "TournamentFactory", "UserFactory"]


class ClubFactory(DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")


class MembershipFactory(DjangoModelFactory):
    class Meta:
        model = ClubMembership

    club = factory.SubFactory(ClubFactory)
    user = factory.SubFactory(UserFactory)
    role = ClubMembership.Role.MEMBER


class TournamentFactory(DjangoModelFactory):
    """A tournament row only; use ``services.create_tournament`` when rounds are needed."""

    class Meta:
        model = Tournament

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Cup {n}")
    slug = factory.Sequence(lambda n: f"cup-{n}")
    starts_at = factory.LazyFunction(lambda: timezone.now() + dt.timedelta(days=1))
