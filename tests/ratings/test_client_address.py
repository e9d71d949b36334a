"""The ranked queue stores the address ``rosbi_platform.client_ip`` believes: X-Forwarded-For
only when it came through one of our own proxies (``TRUSTED_PROXIES``)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings.models import LadderQueueEntry
from tests.games.factories import UserFactory

pytestmark = pytest.mark.django_db


def queued_address(client, **headers) -> str | None:
    user = UserFactory()
    client.force_login(user)
    response = client.post(reverse("ratings:queue_join"), {"next": "/lobby/"}, **headers)
    assert response.status_code == 302
    return LadderQueueEntry.objects.get(user=user).ip


def test_a_forged_forwarded_for_from_an_untrusted_address_is_ignored(client, settings):
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]

    ip = queued_address(
        client, REMOTE_ADDR="198.51.100.23", HTTP_X_FORWARDED_FOR="203.0.113.99, 10.0.0.1"
    )

    assert ip == "198.51.100.23"


def test_the_address_our_proxy_saw_is_kept_and_a_forged_first_hop_is_not(client, settings):
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]

    ip = queued_address(
        client, REMOTE_ADDR="10.0.0.5", HTTP_X_FORWARDED_FOR="203.0.113.99, 192.0.2.10"
    )

    assert ip == "192.0.2.10"
