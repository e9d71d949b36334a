"""Database work from async code on small thread pools of its own.

Channels' ``database_sync_to_async`` runs every call of a worker on one shared thread and
closes old connections before and after each. For the hot socket paths (a handshake's
session, user and access reads; a move) that one thread is a queue: in a reconnect storm
thousands of handshakes wait for each other's database round trips one by one. A
`ThreadGroup` runs such calls on a few threads of its own; each call hands its connection
back to the pool afterwards (with ``CONN_MAX_AGE=0``), and the pool checks connections that
sat idle (rosbi_platform/db_pool.py), so no call starts with a check of its own.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import SyncToAsync
from django.db import connections

_groups: list[ThreadGroup] = []


def close_broken_or_old_connections() -> None:
    """Give back this thread's connections that failed or passed ``CONN_MAX_AGE``."""
    now = time.monotonic()
    for conn in connections.all(initialized_only=True):
        expired = conn.close_at is not None and now >= conn.close_at
        if conn.connection is not None and (conn.errors_occurred or expired):
            conn.close_if_unusable_or_obsolete()


class _PooledCall(SyncToAsync):
    def thread_handler(self, loop: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().thread_handler(loop, *args, **kwargs)
        finally:
            close_broken_or_old_connections()


class ThreadGroup:
    """A named pool of ``size`` threads (and so at most ``size`` database connections)."""

    def __init__(self, name: str, size: int) -> None:
        self.size = size
        self.executor = ThreadPoolExecutor(max_workers=size, thread_name_prefix=name)
        _groups.append(self)

    def call(self, function: Callable[..., Any]) -> Callable[..., Any]:
        """``function`` as an awaitable that runs on one of this group's threads."""
        return _PooledCall(function, thread_sensitive=False, executor=self.executor)

    def close_connections(self, timeout: float = 30) -> None:
        """Close every thread's connections; each thread runs one closer (they meet at a
        barrier, so no thread can take two)."""
        barrier = threading.Barrier(self.size)

        def close() -> None:
            barrier.wait(timeout)
            connections.close_all()

        futures = [self.executor.submit(close) for _ in range(self.size)]
        for future in futures:
            future.result(timeout)


def close_thread_connections(timeout: float = 30) -> None:
    """For tests, before PostgreSQL drops their database: close what every group keeps, and
    the event loops' connections (`rosbi_platform.async_db`)."""
    from rosbi_platform import async_db

    for group in _groups:
        group.close_connections(timeout)
    async_db.close_all()
