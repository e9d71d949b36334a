"""A line break in an event's name: the services store names on one line, and a name already
stored with one (or any bad recipient) never stops a notification task half-way (defect 9 of
issue 25: 1 of 4 entrants was notified)."""

from __future__ import annotations

import pytest
from django.core import mail
from django.utils import timezone

from rosbi_platform.notifications.models import Kind, Notification
from tests.tournaments.factories import ClubFactory, UserFactory
from tests.tournaments.helpers import PLENTY, organiser_of
from tournaments import entries, events, notify, scheduler
from tournaments.models import AuditLog, Tournament

pytestmark = [pytest.mark.django_db(transaction=True)]


def event_with_entrants(count: int) -> Tournament:
    club = ClubFactory()
    organiser = organiser_of(club)
    now = timezone.now()
    tournament = events.create_tournament(
        club=club,
        by=organiser,
        name="Spring Cup",
        slug="spring",
        starts_at=now + PLENTY,
        registration_opens_at=now - PLENTY,
    )
    scheduler.advance_tournament(tournament.pk)
    for user in UserFactory.create_batch(count):
        entries.register_entry(tournament.pk, user)
    return tournament


def test_the_service_stores_an_event_name_on_one_line():
    club = ClubFactory()
    tournament = events.create_tournament(
        club=club,
        by=organiser_of(club),
        name="  Spring\r\nCup\t2027 ",
        slug="spring-line",
        starts_at=timezone.now() + PLENTY,
    )
    assert Tournament.objects.get(pk=tournament.pk).name == "Spring Cup 2027"


def test_a_stored_line_break_does_not_stop_the_check_in_notices(eager_celery):
    tournament = event_with_entrants(4)
    Tournament.objects.filter(pk=tournament.pk).update(name="Spring\nCup")
    mail.outbox.clear()
    audit = AuditLog.objects.create(tournament=tournament, action="check_in_open", details={})

    assert notify.notify_check_in_open(tournament.pk, audit.pk) == 4

    assert (
        Notification.objects.filter(tournament_id=tournament.pk, kind=Kind.CHECK_IN_OPEN).count()
        == 4
    )
    assert len(mail.outbox) == 4
    assert all(m.subject == "Rosbi: check in for Spring Cup" for m in mail.outbox)
