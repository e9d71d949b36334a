"""A websocket handshake resolves its user off the worker's one shared sync thread.

With Channels' own ``AuthMiddleware`` every handshake's session and user queries queue on
that thread behind any other sync work (page views' database calls in the same worker, other
handshakes); in a reconnect storm they wait for each other one by one.
"""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.testing.websocket import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from rosbi_platform.asgi import application
from rosbi_platform.db_threads import close_thread_connections
from tests.games.factories import TableFactory, UserFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


@database_sync_to_async
def logged_in_session_and_table() -> tuple[str, int]:
    user = UserFactory()
    client = Client()
    client.force_login(user)
    table = TableFactory(public=True)
    return client.cookies[settings.SESSION_COOKIE_NAME].value, table.pk


async def test_the_user_is_resolved_while_the_shared_sync_thread_is_busy():
    session, table_id = await logged_in_session_and_table()
    release = threading.Event()
    busy = asyncio.ensure_future(sync_to_async(release.wait, thread_sensitive=True)(30))
    communicator = WebsocketCommunicator(
        application,
        f"/ws/tables/{table_id}/?since=0",  # nothing missed: no snapshot to build
        headers=[
            (b"origin", b"http://localhost:8000"),
            (b"cookie", f"{settings.SESSION_COOKIE_NAME}={session}".encode()),
        ],
    )
    try:
        connected, _ = await communicator.connect(timeout=10)
        assert connected is True
        # A socket whose user did not resolve is closed at once (4401, not logged in).
        assert await communicator.receive_nothing(timeout=1) is True
        assert not busy.done(), "the shared thread was busy the whole time"
    finally:
        release.set()
        await busy
        await communicator.disconnect()
        await sync_to_async(close_thread_connections)()
