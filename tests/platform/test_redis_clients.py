"""Django keeps one cache backend per thread and, under ASGI, every request runs on a thread
of its own: the backends of all threads must share one connection pool per process, so a
request reuses a Redis connection instead of opening (and handshaking) a new one."""

from __future__ import annotations

import threading

import pytest
from django.core.cache import caches

pytestmark = [pytest.mark.redis]


def pool_and_read_in_a_new_thread() -> object:
    seen: list[object] = []

    def work() -> None:
        backend = caches["default"]
        backend.get("rosbi-test-redis-clients")
        seen.append(backend._cache._get_connection_pool(False))

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    return seen[0]


def test_cache_backends_of_different_threads_share_one_pool():
    caches["default"].get("rosbi-test-redis-clients")
    mine = caches["default"]._cache._get_connection_pool(False)
    assert pool_and_read_in_a_new_thread() is mine
    assert caches["default"]._cache.get_client() is caches["default"]._cache.get_client()


def test_requests_on_new_threads_open_no_new_connections():
    pool = pool_and_read_in_a_new_thread()
    opened = pool._created_connections
    for _ in range(5):
        assert pool_and_read_in_a_new_thread() is pool
    assert pool._created_connections == opened
