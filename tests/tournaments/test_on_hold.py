"""An event never vanishes silently: too few players at the start puts it on hold with a
reason, the organisers and the registered players are told, the page and the admin show it,
and the organiser decides (postpone, cancel, or start with the players who are there)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from rosbi_platform.accounts.models import ClubMembership
from rosbi_platform.notifications.models import Notification
from tests.tournaments.factories import ClubFactory, MembershipFactory, UserFactory
from tests.tournaments.helpers import audit_actions, open_event, start_now
from tournaments import entries, events, rounds, scheduler
from tournaments.common import TournamentError
from tournaments.models import Round, Tournament

pytestmark = [pytest.mark.django_db(transaction=True)]


def event_starting_now(players: int, **fields):
    """Created to start "now" with registration open (the organisers' report)."""
    club = ClubFactory()
    organiser = UserFactory(is_staff=True)
    MembershipFactory(club=club, user=organiser, role=ClubMembership.Role.ORGANISER)
    now = timezone.now()
    tournament = events.create_tournament(
        club=club,
        by=organiser,
        name="Friday Cup",
        slug="friday",
        starts_at=now,
        registration_opens_at=now - dt.timedelta(minutes=1),
        **fields,
    )
    scheduler.advance_tournament(tournament.pk, now=now - dt.timedelta(seconds=30))
    users = UserFactory.create_batch(players)
    for user in users:
        entries.register_entry(tournament.pk, user)
    return tournament, organiser, users


def test_too_few_players_at_the_start_put_the_event_on_hold_not_cancelled(eager_celery, client):
    tournament, organiser, users = event_starting_now(2)
    owner = MembershipFactory(club=tournament.club, role=ClubMembership.Role.OWNER).user

    scheduler.advance_tournament(tournament.pk)

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.ON_HOLD
    assert "3" in tournament.hold_reason and "2" in tournament.hold_reason
    assert "hold" in audit_actions(tournament)
    held = Notification.objects.filter(tournament_id=tournament.pk, kind="on_hold")
    told = set(held.values_list("user_id", flat=True))
    assert told == {organiser.pk, owner.pk, *(u.pk for u in users)}  # the club's owners too
    assert {m.to[0] for m in mail.outbox} >= {u.email for u in users if u.email}
    # Registration still works while the organiser decides.
    entries.register_entry(tournament.pk, UserFactory())
    # Sweeping again neither cancels nor tells anybody twice.
    scheduler.advance_tournament(tournament.pk)
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.ON_HOLD
    assert held.count() == len(told)

    client.force_login(users[0])
    body = client.get(reverse("tournaments:detail", args=[tournament.slug])).content.decode()
    assert "Waiting for the organiser" in body and tournament.hold_reason in body
    assert "start-with-fewer" not in body
    client.force_login(organiser)
    body = client.get(reverse("tournaments:detail", args=[tournament.slug])).content.decode()
    for action in ("postpone", "cancel", "start-with-fewer"):
        assert f"/{tournament.slug}/{action}/" in body
    listing = client.get(reverse("tournaments:list")).content.decode()
    assert tournament.name in listing and "Waiting for the organiser" in listing
    admin_list = client.get(reverse("admin:tournaments_tournament_changelist")).content.decode()
    assert "Waiting for the organiser" in admin_list and tournament.hold_reason in admin_list


def test_the_organiser_postpones_from_the_page(eager_celery, client):
    tournament, organiser, users = event_starting_now(2, time_zone="Europe/Berlin")
    scheduler.advance_tournament(tournament.pk)
    client.force_login(organiser)
    later = timezone.localtime(timezone.now() + dt.timedelta(days=2))
    later = later.astimezone(dt.timezone(dt.timedelta(hours=1)))  # Berlin in winter

    client.post(
        reverse("tournaments:action", args=[tournament.slug, "postpone"]),
        {"starts_at": later.strftime("%Y-%m-%dT%H:%M")},
    )

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.PLANNED and tournament.hold_reason == ""
    assert abs(tournament.starts_at - later) < dt.timedelta(minutes=1)
    assert Round.objects.get(tournament=tournament, number=1).scheduled_at == tournament.starts_at
    assert tournament.registration == Tournament.Window.OPEN
    postponed = Notification.objects.filter(tournament_id=tournament.pk, kind="postponed")
    assert set(postponed.values_list("user_id", flat=True)) == {u.pk for u in users}
    scheduler.advance_tournament(tournament.pk)  # nothing due until the new start
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.PLANNED
    with pytest.raises(TournamentError, match="future"):
        events.postpone_tournament(
            tournament.pk, timezone.now() - dt.timedelta(hours=1), by=organiser
        )


def test_the_organiser_starts_with_fewer_than_the_minimum(eager_celery):
    tournament, organiser = open_event(3, slug="few", mode=Tournament.Mode.PHYSICAL, min_players=4)
    start_now(tournament, organiser)
    scheduler.advance_tournament(tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.ON_HOLD
    assert Round.objects.get(tournament=tournament, number=1).status == Round.Status.PENDING
    with pytest.raises(TournamentError, match="organisers"):
        rounds.start_with_fewer_players(tournament.pk, by=UserFactory())

    assert rounds.start_with_fewer_players(tournament.pk, by=organiser) is True

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert Round.objects.get(tournament=tournament, number=1).status == Round.Status.STARTED


def test_fewer_than_three_cannot_start_and_the_admin_cancels(eager_celery, client):
    tournament, organiser, users = event_starting_now(2)
    scheduler.advance_tournament(tournament.pk)
    with pytest.raises(TournamentError, match="three"):
        rounds.start_with_fewer_players(tournament.pk, by=organiser)

    client.force_login(organiser)
    client.post(
        reverse("admin:tournaments_tournament_changelist"),
        {"action": "cancel_tournaments", "_selected_action": [tournament.pk]},
    )

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    cancelled = Notification.objects.filter(tournament_id=tournament.pk, kind="cancelled")
    assert {u.pk for u in users} <= set(cancelled.values_list("user_id", flat=True))
    assert "cancel_tournament" in audit_actions(tournament)
