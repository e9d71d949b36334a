"""The two-factor rule at the websocket handshake (docs/accounts.md): a site moderator or
club owner whose session has not passed the second factor opens no table socket, as they open
no page; after the code step they do, and players who need no second factor are not asked."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.testing.websocket import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from games.consumers import CLOSE_UNAUTHENTICATED
from rosbi_platform.accounts.models import ClubMembership
from rosbi_platform.asgi import application
from rosbi_platform.db_threads import close_thread_connections
from tests import two_factor
from tests.games.factories import SiteModeratorFactory, TableFactory, UserFactory
from tests.tournaments.factories import MembershipFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


@database_sync_to_async
def session_of(kind: str, *, second_factor: bool) -> tuple[str, int]:
    if kind == "owner":
        user = MembershipFactory(role=ClubMembership.Role.OWNER).user
    elif kind == "moderator":
        user = SiteModeratorFactory()
    else:
        user = UserFactory()
    client = Client()
    if second_factor:
        client.force_login(user)
    else:
        two_factor.login_without_second_factor(client, user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value, TableFactory(public=True).pk


async def handshake(session: str, table_id: int) -> dict:
    communicator = WebsocketCommunicator(
        application,
        f"/ws/tables/{table_id}/",
        headers=[
            (b"origin", b"http://localhost:8000"),
            (b"cookie", f"{settings.SESSION_COOKIE_NAME}={session}".encode()),
        ],
    )
    try:
        connected, _ = await communicator.connect(timeout=10)
        assert connected is True  # accepted first, so the browser can read the close code
        return await communicator.receive_output(timeout=10)
    finally:
        await communicator.disconnect()
        await sync_to_async(close_thread_connections)()


@pytest.mark.parametrize("kind", ["owner", "moderator"])
async def test_without_the_second_factor_the_socket_is_closed_as_not_logged_in(kind):
    session, table_id = await session_of(kind, second_factor=False)

    first = await handshake(session, table_id)

    assert first == {"type": "websocket.close", "code": CLOSE_UNAUTHENTICATED}


@pytest.mark.parametrize("kind", ["owner", "moderator", "player"])
async def test_after_the_second_factor_and_for_players_the_socket_serves(kind):
    session, table_id = await session_of(kind, second_factor=kind != "player")

    first = await handshake(session, table_id)

    assert first["type"] == "websocket.send"
    assert '"snapshot"' in first["text"]
