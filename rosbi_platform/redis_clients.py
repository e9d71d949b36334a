"""One Redis client per process for the platform's own counters and queues.

A ``redis.Redis`` object is thread-safe and owns a connection pool; building one per call
costs about a millisecond of Python (its table of ~170 response callbacks) and a new
connection. Keyed by process id, so a forked child (a Celery pool worker) never reuses its
parent's sockets.
"""

from __future__ import annotations

import os
import threading

import redis
from django.conf import settings
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.backoff import NoBackoff
from redis.retry import Retry

TIMEOUT_SECONDS = 1.0

_clients: dict[int, redis.Redis] = {}
_lock = threading.Lock()


def shared_client() -> redis.Redis:
    """This process's client of ``settings.REDIS_URL`` (short time-outs: callers fail open)."""
    pid = os.getpid()
    client = _clients.get(pid)
    if client is not None:
        return client
    with _lock:
        client = _clients.get(pid)
        if client is None:
            client = redis.Redis.from_url(
                settings.REDIS_URL,
                socket_timeout=TIMEOUT_SECONDS,
                socket_connect_timeout=TIMEOUT_SECONDS,
                # No retries with back-off: a caller that fails open must not wait seconds
                # for a Redis that is down.
                retry=Retry(NoBackoff(), 0),
            )
            _clients.clear()
            _clients[pid] = client
        return client


class ReusingRedisCacheClient(RedisCacheClient):
    """Django's Redis cache client, with one connection pool and one ``redis.Redis`` per
    process and server instead of new ones all the time.

    Django builds a ``redis.Redis`` for every cache call, and its cache handler keeps one
    backend (with its own pools) per thread; under ASGI every request runs on a thread of its
    own, so each request opened a new connection and paid Redis's handshake (a py-spy profile
    of the API under load: 12 % of a worker in connecting). Pools here are shared by every
    backend instance of the process, keyed by server and options, and dropped in a forked
    child (a Celery pool worker never reuses its parent's sockets).

    A shared pool keeps its connections for the life of the process, so a connection that
    died with its server (a restart, a proxy or NAT dropping it) is met again later. The pool
    replaces one it can see is closed when it hands it out; one whose end only shows when it
    is used (the restart raced that check, or nothing closed the socket on this side yet)
    made that cache call fail. Its connections therefore send a command once more, on a new
    connection, after a connection error (``reconnect_once``): nothing extra in the normal
    case, and a Redis that is down or slow still fails the call as fast as before."""

    def _get_connection_pool(self, write: bool) -> redis.ConnectionPool:
        index = self._get_connection_pool_index(write)
        slot = (os.getpid(), self._servers[index], repr(sorted(self._pool_options.items())))
        pool = _pools.get(slot)
        if pool is None:
            with _lock:
                pool = _pools.get(slot)
                if pool is None:
                    options = {"retry": reconnect_once(), **self._pool_options}
                    pool = self._pool_class.from_url(self._servers[index], **options)
                    _pools[slot] = pool
        return pool

    def get_client(self, key=None, *, write: bool = False) -> redis.Redis:
        pool = self._get_connection_pool(write)
        client = _pool_clients.get(id(pool))
        if client is None:
            client = _pool_clients.setdefault(id(pool), self._client(connection_pool=pool))
        return client


_pools: dict[tuple[int, str, str], redis.ConnectionPool] = {}
_pool_clients: dict[int, redis.Redis] = {}


def reconnect_once() -> Retry:
    """The cache connections' retry policy: a command that meets a dead connection is sent
    once more, at once, on a new one. Only connection errors: a time-out (a Redis that does
    not answer) fails at the first one, so callers that fail open wait no longer than before;
    and a timed-out command may well have run, where a reset connection's most often did not.
    (A write whose answer alone was lost runs twice: the same for ``set`` and ``delete``, one
    count more for a counter, and an ``add`` then reports its key as taken.)"""
    return Retry(NoBackoff(), 1, supported_errors=(redis.ConnectionError,))


class ReusingRedisCache(RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` with ``ReusingRedisCacheClient``."""

    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = ReusingRedisCacheClient
