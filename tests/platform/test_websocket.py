"""Websocket routing through the full ASGI application, Origin checks included."""

import pytest
from channels.testing.websocket import WebsocketCommunicator

from rosbi_platform.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


async def test_foreign_origin_is_refused():
    communicator = WebsocketCommunicator(
        application, "/ws/ping/", headers=[(b"origin", b"https://evil.example")]
    )
    connected, _code = await communicator.connect()

    assert connected is False
    await communicator.disconnect()


async def test_allowed_origin_is_accepted_and_echoed():
    communicator = WebsocketCommunicator(
        application, "/ws/ping/", headers=[(b"origin", b"http://localhost:8000")]
    )
    connected, _subprotocol = await communicator.connect()
    assert connected is True

    await communicator.send_json_to({"hello": "table"})
    reply = await communicator.receive_json_from(timeout=5)

    assert reply == {"type": "pong", "echo": {"hello": "table"}, "user": None}
    await communicator.disconnect()


async def test_unknown_websocket_path_is_closed():
    communicator = WebsocketCommunicator(
        application, "/ws/nowhere/", headers=[(b"origin", b"http://localhost:8000")]
    )
    with pytest.raises(ValueError, match="No route found"):
        await communicator.connect()
