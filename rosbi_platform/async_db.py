"""Reads on the event loop: a websocket handshake's short reads without a thread hop.

A table socket's handshake reads three rows (the session with its user, the seat and access,
the table's version). On threads (`db_threads`), each read cost a hop: asgiref's
``SyncToAsync``, an executor future, a pool checkout and the GIL handed back and forth. In a
reconnect storm those hops were a fifth of a web worker's CPU, and the same storm with the
reads made inline took 27 % less server CPU (docs/performance.md, "fifth pass"). Here such
reads run on psycopg's async connections on the worker's own event loop.

Each event loop has at most ``DATABASE_ASYNC_POOL_SIZE`` connections (the environment, kept
as ``ASYNC_POOL_SIZE`` in ``DATABASES["default"]``; default 2),
kept open and reused, in autocommit (a read holds no transaction and no lock once answered),
with statements prepared by psycopg after a few uses. A process therefore holds at most
``DATABASE_POOL_SIZE + DATABASE_ASYNC_POOL_SIZE`` PostgreSQL connections. A connection that
died (a PostgreSQL restart) fails its read once; the read is retried on a new connection, and
an error on that one goes to the caller as it would from the ORM.

Only reads that the ORM would run as plain SQL belong here (``fetch_one``); writes and
anything transactional stay with Django's connections.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Sequence
from typing import Any

import psycopg
from django.db import connections

DEFAULT_SIZE = 2


class _LoopConnections:
    """The connections of one event loop: at most ``size`` at once, idle ones reused."""

    def __init__(self, size: int) -> None:
        self.idle: list[psycopg.AsyncConnection] = []
        self.slots = asyncio.Semaphore(size)
        self.opened: weakref.WeakSet[psycopg.AsyncConnection] = weakref.WeakSet()

    async def connect(self) -> psycopg.AsyncConnection:
        params = connections["default"].get_connection_params()
        params.pop("cursor_factory", None)  # Django's sync cursor class
        params.pop("prepare_threshold", None)  # psycopg's default: prepare after 5 uses
        connection = await psycopg.AsyncConnection.connect(autocommit=True, **params)
        self.opened.add(connection)
        return connection

    async def fetch_one(self, sql: str, params: Sequence[Any] | dict[str, Any]) -> tuple | None:
        async with self.slots:
            connection = self.idle.pop() if self.idle else None
            if connection is None or connection.closed:
                connection = await self.connect()
            try:
                return await self._read(connection, sql, params)
            except psycopg.OperationalError:  # it died (a PostgreSQL restart): once more
                return await self._read(await self.connect(), sql, params)

    async def _read(
        self, connection: psycopg.AsyncConnection, sql: str, params: Sequence[Any] | dict[str, Any]
    ) -> tuple | None:
        """One read on ``connection``: kept for reuse if it answered, thrown away if not."""
        try:
            cursor = await connection.execute(sql, params)
            row = await cursor.fetchone()
        except BaseException:
            await _discard(connection)
            raise
        self.idle.append(connection)
        return row

    def close(self) -> None:
        """Close every connection now (without the loop, which may be gone)."""
        for connection in list(self.opened):
            if not connection.closed:
                connection.pgconn.finish()
        self.idle.clear()


async def _discard(connection: psycopg.AsyncConnection) -> None:
    try:
        await connection.close()
    except Exception:  # noqa: BLE001 - it is being thrown away
        connection.pgconn.finish()


_by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopConnections] = (
    weakref.WeakKeyDictionary()
)


def _connections_of_this_loop() -> _LoopConnections:
    loop = asyncio.get_running_loop()
    pool = _by_loop.get(loop)
    if pool is None:
        pool = _by_loop[loop] = _LoopConnections(pool_size())
    return pool


def pool_size() -> int:
    return int(connections["default"].settings_dict.get("ASYNC_POOL_SIZE", DEFAULT_SIZE))


async def fetch_one(sql: str, params: Sequence[Any] | dict[str, Any]) -> tuple | None:
    """The first row of a read-only statement (``%s`` or ``%(name)s`` placeholders), or None."""
    return await _connections_of_this_loop().fetch_one(sql, params)


def close_all() -> None:
    """Close every loop's connections (tests, before PostgreSQL drops their database)."""
    for pool in list(_by_loop.values()):
        pool.close()
