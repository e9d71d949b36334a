"""factory-boy factories for clubs, organisers and tournaments (users come from the games')."""

from __future__ import annotations

import datetime as dt

import factory
from django.utils import timezone
from factory.django import DjangoModelFactory

from rosbi_platform.accounts.models import Club, ClubMembership
from tests.games.factories import UserFactory
from tournaments.models import Tournament

__all__ = [
    "ClubFactory",
    "MembershipFactory",
    "TournamentFactory",
    "UserFactory",
    "finished_event",
]


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


def finished_event(club, ranking, *, starts_at=None, season=None, **fields):
    """A finished event of ``club`` whose final standings are ``ranking`` (users, best first;
    a tuple of users shares a rank). The standings rows are what the season table reads."""
    from tournaments.models import Entry, Standing

    tournament = TournamentFactory(
        club=club,
        status=Tournament.Status.FINISHED,
        starts_at=starts_at or timezone.now() - dt.timedelta(days=1),
        season=season,
        **fields,
    )
    rank = 1
    for group in ranking:
        users = group if isinstance(group, tuple) else (group,)
        for user in users:
            entry = Entry.objects.create(tournament=tournament, user=user)
            Standing.objects.create(
                tournament=tournament,
                entry=entry,
                rank=rank,
                points=10.0 - rank,
                penalty=0,
                opponents_points=0,
                table_wins=0,
                rounds_played=3,
                rounds_absent=0,
            )
        rank += len(users)
    return tournament
