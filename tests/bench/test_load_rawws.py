"""The storm's lean websocket client (bench/load/rawws.py) against a real websocket server.

The server is the ``websockets`` library's, which enforces RFC 6455 on what clients send
(masked frames, a valid upgrade): the lean client must pass its checks and read every frame
length the server may use.
"""

from __future__ import annotations

import asyncio
import json
import sys
from http import HTTPStatus
from pathlib import Path

import pytest
from websockets.asyncio.server import serve

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "load"))

import rawws  # noqa: E402

pytestmark = pytest.mark.asyncio


async def _echo(ws) -> None:
    async for message in ws:
        command = json.loads(message)
        if command["do"] == "echo":
            await ws.send(message)
        elif command["do"] == "sizes":  # 7-bit, 16-bit and 64-bit payload lengths
            for size in (5, 300, 70_000):
                await ws.send(json.dumps({"pad": "x" * size}))
        elif command["do"] == "ping":
            pong = await ws.ping(b"are you there")
            await asyncio.wait_for(pong, 5)
            await ws.send(json.dumps({"pong": "received"}))
        elif command["do"] == "close":
            await ws.close(4003, "forbidden")


def _refuse_foreign(connection, request):
    if request.headers.get("Origin") != "http://ours":
        return connection.respond(HTTPStatus.FORBIDDEN, "foreign origin\n")
    return None


async def _server():
    return await serve(_echo, "127.0.0.1", 0, process_request=_refuse_foreign)


async def test_frames_of_every_length_go_both_ways_and_pings_are_answered():
    async with await _server() as server:
        port = server.sockets[0].getsockname()[1]
        ws = await rawws.connect(f"ws://127.0.0.1:{port}/ws/x/?since=3", {"Origin": "http://ours"})
        long_text = json.dumps({"do": "echo", "text": "ü" * 40_000})  # a masked 64-bit frame
        ws.send_text(long_text)
        assert (await ws.recv()).decode() == long_text

        ws.send_text(json.dumps({"do": "sizes"}))
        sizes = [len(json.loads(await ws.recv())["pad"]) for _ in range(3)]
        assert sizes == [5, 300, 70_000]

        ws.send_text(json.dumps({"do": "ping"}))
        assert json.loads(await ws.recv()) == {"pong": "received"}
        await ws.close()


async def test_a_close_from_the_server_raises_with_its_code():
    async with await _server() as server:
        port = server.sockets[0].getsockname()[1]
        ws = await rawws.connect(f"ws://127.0.0.1:{port}/", {"Origin": "http://ours"})
        ws.send_text(json.dumps({"do": "close"}))
        with pytest.raises(rawws.Closed) as closed:
            await ws.recv()
        assert closed.value.code == 4003


async def test_a_refused_upgrade_raises_with_the_status():
    async with await _server() as server:
        port = server.sockets[0].getsockname()[1]
        with pytest.raises(rawws.HandshakeRefused) as refused:
            await rawws.connect(f"ws://127.0.0.1:{port}/", {"Origin": "http://theirs"})
        assert refused.value.status == 403
