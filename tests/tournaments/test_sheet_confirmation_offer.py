"""Confirm is offered to a second person only: a tablemate or an organiser, never whoever
entered the sheet; and the service refuses the one who entered it even when asked directly."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.factories import UserFactory
from tests.tournaments.helpers import open_event, random_sheet, start_now
from tournaments import results, scheduler
from tournaments.models import PhysicalResult, RoundTable, Tournament

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def entered_sheet(eager_celery):
    tournament, organiser = open_event(4, slug="bar", mode=Tournament.Mode.PHYSICAL)
    start_now(tournament, organiser)
    scheduler.advance_tournament(tournament.pk)
    table = RoundTable.objects.get(round__tournament=tournament, round__number=1)
    entered_by = table.seats.get(seat=0).entry.user
    sheet = results.submit_physical_result(table.pk, random_sheet(4, "offer"), by=entered_by)
    return table, sheet, entered_by, organiser


def confirm_url(sheet: PhysicalResult) -> str:
    return reverse("tournaments:confirm_sheet", args=[sheet.pk])


def page_for(client, user, table: RoundTable) -> str:
    client.force_login(user)
    return client.get(reverse("tournaments:sheet", args=[table.pk])).content.decode()


def test_whoever_entered_the_sheet_is_not_offered_confirm(entered_sheet, client):
    table, sheet, entered_by, _organiser = entered_sheet

    page = page_for(client, entered_by, table)

    assert confirm_url(sheet) not in page
    assert "waiting for a second person" in page


def test_a_tablemate_and_an_organiser_are_offered_confirm(entered_sheet, client):
    table, sheet, _entered_by, organiser = entered_sheet
    tablemate = table.seats.get(seat=2).entry.user

    assert confirm_url(sheet) in page_for(client, tablemate, table)
    assert confirm_url(sheet) in page_for(client, organiser, table)


def test_the_service_refuses_whoever_entered_it_when_asked_directly(entered_sheet, client):
    table, sheet, entered_by, _organiser = entered_sheet
    client.force_login(entered_by)

    response = client.post(confirm_url(sheet), follow=True)

    assert "A second person must confirm the sheet." in response.content.decode()
    sheet.refresh_from_db()
    table.refresh_from_db()
    assert sheet.confirmed_at is None and sheet.confirmed_by is None
    assert table.status == RoundTable.Status.PLAYING
    # An outsider is neither offered it nor allowed it.
    outsider = UserFactory()
    client.force_login(outsider)
    assert client.get(reverse("tournaments:sheet", args=[table.pk])).status_code == 403
