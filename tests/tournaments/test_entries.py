"""Entries: conditions, capacity, check-in, late entry with missed-round scores, withdrawal."""

from __future__ import annotations

import pytest
from django.utils import timezone

from rosbi_platform.accounts.models import ClubMembership
from tests.tournaments.factories import ClubFactory, MembershipFactory, UserFactory
from tests.tournaments.helpers import PLENTY, enter_and_confirm, open_event, organiser_of, start_now
from tournaments import entries, events, scheduler, selectors
from tournaments.common import TournamentError
from tournaments.models import Entry, Round, RoundSeat, RoundTable, Standing, Tournament

pytestmark = [pytest.mark.django_db(transaction=True)]


def new_event(**fields):
    club = ClubFactory()
    organiser = organiser_of(club)
    now = timezone.now()
    tournament = events.create_tournament(
        club=club,
        by=organiser,
        name="Entry test",
        slug="entry-test",
        starts_at=now + PLENTY,
        registration_opens_at=now - PLENTY,
        **fields,
    )
    scheduler.advance_tournament(tournament.pk)
    return tournament, organiser


def test_registration_follows_its_window(eager_celery):
    club = ClubFactory()
    now = timezone.now()
    tournament = events.create_tournament(
        club=club,
        by=organiser_of(club),
        name="Later",
        slug="later",
        starts_at=now + 2 * PLENTY,
        registration_opens_at=now + PLENTY,
        registration_closes_at=now + PLENTY * 1.5,
    )
    player = UserFactory()
    scheduler.advance_tournament(tournament.pk)
    with pytest.raises(TournamentError, match="not open"):
        entries.register_entry(tournament.pk, player)

    scheduler.advance_tournament(tournament.pk, now=now + PLENTY * 1.2)
    entries.register_entry(tournament.pk, player)
    scheduler.advance_tournament(tournament.pk, now=now + PLENTY * 1.6)
    tournament.refresh_from_db()
    assert tournament.registration == Tournament.Window.CLOSED
    with pytest.raises(TournamentError, match="not open"):
        entries.register_entry(tournament.pk, UserFactory())


def test_members_only_rating_band_and_capacity(eager_celery):
    tournament, _organiser = new_event(
        members_only=True, capacity=2, min_rating=1400, max_rating=1600
    )
    outsider = UserFactory()
    with pytest.raises(TournamentError, match="members only"):
        entries.register_entry(tournament.pk, outsider)

    members = [MembershipFactory(club=tournament.club).user for _ in range(3)]
    first = entries.register_entry(tournament.pk, members[0])
    assert first.rating == selectors.DEFAULT_RATING  # no stored rating: treated as 1500
    entries.register_entry(tournament.pk, members[1])
    with pytest.raises(TournamentError, match="full"):
        entries.register_entry(tournament.pk, members[2])
    with pytest.raises(TournamentError, match="already registered"):
        entries.register_entry(tournament.pk, members[0])

    entries.withdraw_entry(tournament.pk, members[1])
    entries.register_entry(tournament.pk, members[2])  # the freed place

    Tournament.objects.filter(pk=tournament.pk).update(min_rating=1600, capacity=None)
    with pytest.raises(TournamentError, match="below 1600"):
        entries.register_entry(tournament.pk, MembershipFactory(club=tournament.club).user)
    assert ClubMembership.objects.filter(club=tournament.club).count() >= 4


def test_check_in_decides_who_is_seated(eager_celery):
    tournament, organiser = open_event(6, slug="check")
    late_sleeper = UserFactory()
    entries.register_entry(tournament.pk, late_sleeper)  # registered, never checks in
    start_now(tournament, organiser)
    scheduler.advance_tournament(tournament.pk)

    round_one = Round.objects.get(tournament=tournament, number=1)
    assert round_one.status == Round.Status.STARTED
    assert not RoundSeat.objects.filter(round=round_one, entry__user=late_sleeper).exists()
    assert RoundSeat.objects.filter(round=round_one).count() == 6


def test_late_entry_until_the_configured_round_scores_the_missed_rounds(eager_celery):
    tournament, organiser = open_event(
        6,
        slug="late",
        mode=Tournament.Mode.PHYSICAL,
        rounds=3,
        late_entry_until_round=2,
        missed_round_points=0.5,
        missed_round_penalty="20",
    )
    start_now(tournament, organiser)
    scheduler.advance_tournament(tournament.pk)
    latecomer = UserFactory()
    entry = entries.register_entry(tournament.pk, latecomer)
    assert (entry.first_round, entry.status) == (2, Entry.Status.CHECKED_IN)

    leaver = Entry.objects.filter(tournament=tournament).exclude(pk=entry.pk).first()
    entries.withdraw_entry(tournament.pk, leaver.user)
    for table in RoundTable.objects.filter(round__tournament=tournament, round__number=1):
        enter_and_confirm(table, organiser, f"late-{table.number}")

    round_two = Round.objects.get(tournament=tournament, number=2)
    assert round_two.status == Round.Status.STARTED
    seated = set(RoundSeat.objects.filter(round=round_two).values_list("entry", flat=True))
    assert entry.pk in seated and leaver.pk not in seated and len(seated) == 6
    with pytest.raises(TournamentError, match="Late entry has closed"):
        entries.register_entry(tournament.pk, UserFactory())

    late_row = Standing.objects.get(tournament=tournament, entry=entry)
    assert (late_row.rounds_absent, late_row.points, late_row.penalty) == (1, 0.5, 20.0)


def test_the_management_command_runs_the_sweeper(eager_celery):
    from io import StringIO

    from django.core.management import call_command

    tournament, organiser = open_event(3, slug="cmd", mode=Tournament.Mode.PHYSICAL)
    start_now(tournament, organiser)
    out = StringIO()
    call_command("advance_tournaments", stdout=out)
    assert Round.objects.get(tournament=tournament, number=1).status == Round.Status.STARTED
    assert "1 tournament(s) looked at" in out.getvalue()


def test_the_rating_band_reads_the_ladder_rating(eager_celery):
    from ratings.models import PlayerRating

    tournament, _organiser = new_event(min_rating=1550)
    strong, newcomer = UserFactory(), UserFactory()
    PlayerRating.objects.create(user=strong, mu=1612.0)

    assert entries.register_entry(tournament.pk, strong).rating == 1612.0
    with pytest.raises(TournamentError, match="1500 is below 1550"):
        entries.register_entry(tournament.pk, newcomer)


def test_the_sweeper_is_registered_with_beat():
    """The data migration's function (run again here: transactional tests flush its row)."""
    import importlib

    from django.apps import apps
    from django_celery_beat.models import PeriodicTask

    migration = importlib.import_module(
        "tournaments.migrations.0003_sweep_tournaments_periodic_task"
    )
    migration.create_periodic_task(apps, None)
    migration.create_periodic_task(apps, None)  # idempotent

    task = PeriodicTask.objects.get(task="tournaments.tasks.sweep_tournaments")
    assert task.enabled and (task.interval.every, task.interval.period) == (15, "seconds")
