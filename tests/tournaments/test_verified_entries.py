"""Only an account with a verified e-mail address enters events: page, API and the service
refuse alike, with the same sentence."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rosbi_platform.accounts import verification
from tests.api_clients import assert_error, token_client
from tests.tournaments.factories import UserFactory
from tests.tournaments.helpers import open_event
from tournaments import entries
from tournaments.common import TournamentError
from tournaments.models import Entry

pytestmark = [pytest.mark.django_db(transaction=True)]


def test_an_unverified_account_cannot_enter_an_event_by_page_or_api(eager_celery, client):
    tournament, _organiser = open_event(0, slug="verified-only")
    unverified = UserFactory(unverified=True)

    with pytest.raises(TournamentError, match="Confirm your e-mail address"):
        entries.register_entry(tournament.pk, unverified)

    api = token_client(unverified, ["read", "play"])
    refused = api.post(f"/api/v1/tournaments/{tournament.slug}/register", {}, format="json")
    assert "Confirm your e-mail address" in assert_error(refused, 400)["detail"]

    client.force_login(unverified)
    page = client.post(
        reverse("tournaments:action", args=[tournament.slug, "register"]), follow=True
    )
    assert "Confirm your e-mail address" in page.content.decode()
    assert not Entry.objects.filter(user=unverified).exists()

    verification.verify_email(verification.verification_token(unverified))
    entries.register_entry(tournament.pk, unverified)
    assert Entry.objects.filter(user=unverified).exists()


def test_an_organiser_cannot_enter_an_unverified_account_either(eager_celery):
    tournament, organiser = open_event(0, slug="door")
    unverified = UserFactory(unverified=True)
    with pytest.raises(TournamentError, match="Confirm your e-mail address"):
        entries.add_entry(tournament.pk, unverified, by=organiser)
    assert not Entry.objects.filter(user=unverified).exists()
