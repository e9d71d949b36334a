"""Broadcasts after commit: queued without waiting for Redis, published in order, flushed."""

from __future__ import annotations

import asyncio
import threading

import pytest
from channels.layers import get_channel_layer

from games import broadcast

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


async def test_broadcasts_from_several_threads_keep_each_threads_order():
    layer = get_channel_layer()
    channel = await layer.new_channel()
    group = "broadcast-order-test"
    await layer.group_add(group, channel)
    await asyncio.sleep(0.05)  # let the subscription reach Redis

    def publish(thread: int) -> None:
        for n in range(20):
            broadcast.send_to_group(group, {"type": "x", "thread": thread, "n": n})

    threads = [threading.Thread(target=publish, args=(t,)) for t in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    await asyncio.to_thread(broadcast.publisher.flush)

    received = [await asyncio.wait_for(layer.receive(channel), 5) for _ in range(60)]
    for thread in range(3):
        assert [m["n"] for m in received if m["thread"] == thread] == list(range(20))
    await layer.group_discard(group, channel)
