"""After an event has closed only its organisers amend its results (players can neither
submit nor confirm a new version), and every amendment is in the audit log."""

from __future__ import annotations

import pytest

from tests.tournaments.helpers import (
    audit_actions,
    enter_and_confirm,
    open_event,
    random_sheet,
    start_now,
)
from tournaments import results, scheduler, selectors
from tournaments.common import TournamentError
from tournaments.models import AuditLog, RoundTable, Tournament

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def finished_physical_event(eager_celery):
    tournament, organiser = open_event(4, slug="closed", mode=Tournament.Mode.PHYSICAL, rounds=1)
    start_now(tournament, organiser)
    scheduler.advance_tournament(tournament.pk)
    table = RoundTable.objects.get(round__tournament=tournament)
    enter_and_confirm(table, organiser, "closed-1")
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    return tournament, organiser, table


def test_players_cannot_change_a_closed_events_result(finished_physical_event):
    tournament, organiser, table = finished_physical_event
    alice = table.seats.get(seat=0).entry.user
    bob = table.seats.get(seat=1).entry.user

    with pytest.raises(TournamentError, match="organisers"):
        results.submit_physical_result(table.pk, random_sheet(4, "players"), by=alice)
    # A version an organiser stored is not confirmed by a player either.
    sheet = results.submit_physical_result(table.pk, random_sheet(4, "amend"), by=organiser)
    with pytest.raises(TournamentError, match="organisers"):
        results.confirm_physical_result(sheet.pk, by=bob)
    table.refresh_from_db()
    assert selectors.latest_sheet(table).confirmed_at is None


def test_an_organiser_amends_a_closed_event_and_it_is_audited(finished_physical_event):
    tournament, organiser, table = finished_physical_event
    before = list(table.seats.order_by("seat").values_list("total", flat=True))
    rows = random_sheet(4, "amendment")
    sheet = results.submit_physical_result(table.pk, rows, by=organiser)

    assert results.confirm_physical_result(sheet.pk, by=organiser) is True

    after = list(table.seats.order_by("seat").values_list("total", flat=True))
    assert after == sheet.totals
    amendment = AuditLog.objects.get(tournament=tournament, action="amend_result")
    assert amendment.actor == organiser
    assert amendment.details["before"] == before and amendment.details["after"] == after
    assert "amend_submitted" in audit_actions(tournament)
