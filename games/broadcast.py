"""Broadcasts to the channel layer from any thread or process, after the transaction commits.

Every app that pushes to websocket groups (games' tables and lobby, tournaments' event pages)
calls ``send_to_group``; nothing else talks to the channel layer from synchronous code.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import logging
import os
import threading
from typing import Any

from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)


class Publisher:
    """One event loop thread per process that publishes to the channel layer.

    ``async_to_sync`` from a plain thread (Celery workers, the sweeper) would start a new loop
    and a new Redis connection for every broadcast; this keeps one of each. ``send`` only
    queues: the committing thread never waits for Redis (a worker's database threads go on to
    the next move), and one task publishes the queue in submission order, which keeps a
    table's events in version order.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._queue: asyncio.Queue[tuple[str, dict[str, Any]]] | None = None
        self._pid: int | None = None
        self._drainer: asyncio.Task[None] | None = None

    def _running_loop(self) -> tuple[asyncio.AbstractEventLoop, asyncio.Queue[Any]]:
        with self._lock:
            if self._loop is None or self._queue is None or self._pid != os.getpid():
                loop = asyncio.new_event_loop()
                queue: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()
                self._drainer = loop.create_task(self._drain(queue))
                threading.Thread(
                    target=loop.run_forever, name="games-broadcast", daemon=True
                ).start()
                self._loop, self._queue, self._pid = loop, queue, os.getpid()
                atexit.register(self._shutdown)
            return self._loop, self._queue

    @staticmethod
    async def _drain(queue: asyncio.Queue[Any]) -> None:
        while True:
            group, message = await queue.get()
            if isinstance(message, asyncio.Event):  # a flush marker: all before it is sent
                message.set()
                continue
            layer = get_channel_layer()
            if layer is None:
                continue
            for attempt in (1, 2):
                try:
                    await layer.group_send(group, message)
                    break
                except Exception:  # noqa: BLE001 - clients heal a lost publish by versions
                    # The first publish after Redis restarted meets a dead pooled connection;
                    # the second attempt opens a new one. Still failing: Redis is down, and
                    # clients catch up by `sync` (after a gap, or after silence).
                    if attempt == 2:
                        logger.exception("broadcast to %s failed", group)

    def send(self, group: str, message: dict[str, Any]) -> None:
        if get_channel_layer() is None:
            return
        loop, queue = self._running_loop()
        loop.call_soon_threadsafe(queue.put_nowait, (group, message))

    def flush(self, timeout: float = 5.0) -> None:
        """Wait until everything queued so far is published (tests, and at process exit so
        that one-shot commands such as ``sweep_clocks`` lose no broadcast)."""
        loop, queue = self._loop, self._queue
        if loop is None or queue is None or self._pid != os.getpid() or not loop.is_running():
            return

        async def marker() -> None:
            reached = asyncio.Event()
            queue.put_nowait(("", reached))
            await reached.wait()

        try:
            asyncio.run_coroutine_threadsafe(marker(), loop).result(timeout)
        except Exception:  # noqa: BLE001 - a flush is best effort, like the publish itself
            logger.warning("broadcast queue not flushed within %.1f s", timeout)

    def _shutdown(self) -> None:
        """At process exit: publish what is queued, then stop the loop cleanly."""
        loop = self._loop
        if loop is None or self._pid != os.getpid() or not loop.is_running():
            return
        self.flush()
        drainer = self._drainer

        async def stop_drainer() -> None:
            if drainer is not None:
                drainer.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await drainer

        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(stop_drainer(), loop).result(1.0)
        loop.call_soon_threadsafe(loop.stop)


publisher = Publisher()


def send_to_group(group: str, message: dict[str, Any]) -> None:
    """Publish after commit; a lost publish is healed by the clients' version checks."""
    try:
        publisher.send(group, message)
    except Exception:  # noqa: BLE001 - a broadcast must never undo or block a committed move
        logger.exception("broadcast to %s failed", group)
