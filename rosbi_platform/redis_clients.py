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
    """Django's Redis cache client, but one ``redis.Redis`` per connection pool instead of a
    new one for every cache call (Django builds one per ``get``/``set``)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._reused: dict[tuple[int, int], redis.Redis] = {}

    def get_client(self, key=None, *, write: bool = False) -> redis.Redis:
        pool = self._get_connection_pool(write)
        slot = (os.getpid(), id(pool))
        client = self._reused.get(slot)
        if client is None:
            client = self._reused[slot] = self._client(connection_pool=pool)
        return client


class ReusingRedisCache(RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` with ``ReusingRedisCacheClient``."""

    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = ReusingRedisCacheClient
