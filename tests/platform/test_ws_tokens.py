"""Websocket handshakes of programs: no Origin with a ``play`` token is accepted as the
token's user; no Origin without one, a foreign Origin, or a token without ``play`` is refused
(HTTP 403 at the handshake)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing.websocket import WebsocketCommunicator

from games import lobby
from rosbi_platform.accounts import tokens
from rosbi_platform.asgi import application
from tests.games.factories import UserFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


@database_sync_to_async
def user_with_token(*scopes: str):
    user = UserFactory()
    return user, tokens.create_token(user, "bot", scopes or ("read", "play")).secret


def socket(path: str, secret: str | None = None, origin: bytes | None = None):
    headers = []
    if secret is not None:
        headers.append((b"authorization", f"Bearer {secret}".encode()))
    if origin is not None:
        headers.append((b"origin", origin))
    return WebsocketCommunicator(application, path, headers=headers)


async def test_a_play_token_without_origin_connects_as_its_user():
    user, secret = await user_with_token()
    communicator = socket("/ws/ping/", secret)
    connected, _ = await communicator.connect()
    assert connected is True
    await communicator.send_json_to({"hi": 1})
    assert (await communicator.receive_json_from(timeout=5))["user"] == user.username
    await communicator.disconnect()


@pytest.mark.parametrize(
    ("scopes", "origin", "valid"),
    [
        (None, None, True),  # no token, no Origin
        (("read", "play"), b"https://evil.example", True),  # a foreign Origin stays refused
        (("read",), None, True),  # the token lacks play
        (("read", "play"), None, False),  # a revoked or mistyped token
    ],
)
async def test_the_handshake_is_refused(scopes, origin, valid):
    secret = None
    if scopes is not None:
        user, secret = await user_with_token(*scopes)
        if not valid:
            await revoke_all(user)
    communicator = socket("/ws/ping/", secret, origin)
    connected, _ = await communicator.connect()
    assert connected is False
    await communicator.disconnect()


@database_sync_to_async
def revoke_all(user) -> None:
    for token in user.access_tokens.all():
        tokens.revoke_token(user, token.pk)


async def test_a_bot_gets_its_own_seat_in_the_table_snapshot():
    user, secret = await user_with_token()
    table = await database_sync_to_async(lobby.create_table)(owner=user, size=3)
    communicator = socket(f"/ws/tables/{table.pk}/", secret)
    connected, _ = await communicator.connect()
    assert connected is True
    snapshot = await communicator.receive_json_from(timeout=5)
    assert snapshot["type"] == "snapshot"
    assert snapshot["you"] == {"user_id": user.pk, "seat": 0, "role": "player"}
    await communicator.disconnect()
