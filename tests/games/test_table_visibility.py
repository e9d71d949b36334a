"""One rule of who may look at a table (``games.selectors.open_to_viewer``, plus site
moderators), asked alike by the table page, the API's list and detail and the websocket
handshake: before, the page and the socket let invited players in while the API hid the table
from them, and the API showed moderators a table whose page answered 403."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import invitations, lobby, selectors
from tests.api_clients import session_client, token_client
from tests.games.factories import SiteModeratorFactory, UserFactory

pytestmark = [pytest.mark.django_db]


def private_table_with_invitee():
    owner, invitee = UserFactory(), UserFactory()
    table = lobby.create_table(owner=owner, size=3, public=False)
    invitations.invite_player(table.pk, owner, invitee.username)
    return table, invitee


def page_status(user, table) -> int:
    client = session_client()
    client.force_login(user)
    return client.get(reverse("games:table", args=[table.pk])).status_code


def api_answers(user, table) -> tuple[int, bool]:
    client = token_client(user)
    listed = {row["id"] for row in client.get("/api/v1/tables").json()["results"]}
    return client.get(f"/api/v1/tables/{table.pk}").status_code, table.pk in listed


def test_an_invited_player_sees_the_private_table_on_the_page_and_in_the_api():
    table, invitee = private_table_with_invitee()

    assert page_status(invitee, table) == 200
    assert api_answers(invitee, table) == (200, True)
    assert selectors.viewer_access(table.pk, invitee, None).allowed


def test_a_moderator_opens_the_private_table_page_as_the_api_shows_it():
    table, _invitee = private_table_with_invitee()
    moderator = SiteModeratorFactory()

    assert api_answers(moderator, table) == (200, True)
    assert page_status(moderator, table) == 200
    access = selectors.viewer_access(table.pk, moderator, None)
    assert access.allowed and access.seat is None


def test_a_stranger_is_refused_everywhere_alike():
    table, _invitee = private_table_with_invitee()
    stranger = UserFactory()

    assert page_status(stranger, table) == 403
    assert api_answers(stranger, table) == (404, False)
    assert not selectors.viewer_access(table.pk, stranger, None).allowed
    assert selectors.viewer_access(table.pk, stranger, table.invite_code).allowed
