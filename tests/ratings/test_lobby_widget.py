"""The lobby offers the ranked queue: join it from the lobby, then the widget shows the wait."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.games.factories import UserFactory


@pytest.mark.django_db
def test_lobby_shows_the_ranked_queue_and_joining_it_from_there(client):
    user = UserFactory()
    client.force_login(user)
    page = client.get("/lobby/")
    assert page.status_code == 200
    assert "Play ranked" in page.content.decode()
    joined = client.post(reverse("ratings:queue_join"), {"next": "/lobby/"}, follow=True)
    assert joined.status_code == 200
    assert "Leave the queue" in client.get("/lobby/").content.decode()
