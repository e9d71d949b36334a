"""Django keeps one cache backend per thread and, under ASGI, every request runs on a thread
of its own: the backends of all threads must share one connection pool per process, so a
request reuses a Redis connection instead of opening (and handshaking) a new one. Such a pool
keeps its connections for the life of the process, so it must also get past connections
that died with a restarted Redis, and stay out of a forked child's way."""

from __future__ import annotations

import contextlib
import os
import socket
import threading

import pytest
import redis
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache

from rosbi_platform import redis_clients
from rosbi_platform.redis_clients import ReusingRedisCache

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


# --------------------------------------------------------------------------- Redis restarts


@pytest.fixture
def own_cache(redis_url):
    """A cache backend of the project's class on ``url`` (a pool of its own: the pools are
    keyed by server), closed afterwards."""
    made: list[RedisCache] = []

    def make(url: str = redis_url, **options: object) -> RedisCache:
        backend = ReusingRedisCache(url, {"KEY_PREFIX": "rosbi-test-pools", "OPTIONS": options})
        made.append(backend)
        return backend

    yield make
    for backend in made:
        for slot in [slot for slot in redis_clients._pools if slot[1] == backend._servers[0]]:
            pool = redis_clients._pools.pop(slot)
            redis_clients._pool_clients.pop(id(pool), None)
            pool.disconnect()


def own_connection_ids(backend: RedisCache) -> list[int]:
    """Redis's client ids of the connections in the backend's pool."""
    ids = []
    for connection in backend._cache._get_connection_pool(True)._available_connections:
        connection.send_command("CLIENT", "ID")
        ids.append(connection.read_response())
    return ids


def test_a_cache_call_after_redis_closed_its_connections_succeeds(own_cache, redis_url):
    """What a restart does to the pool's idle connections, done by Redis itself to this
    test's connections alone (the machine's Redis is shared: never a restart, nor a
    ``CLIENT KILL`` of every client). redis-py's pool sees the closed socket when it hands
    the connection out and connects again; kept so that a redis-py or option that loses
    this check is seen."""
    backend = own_cache()
    backend.set("restart", "before", 30)
    ids = own_connection_ids(backend)
    assert ids
    admin = redis.Redis.from_url(redis_url)
    try:
        for client_id in ids:
            assert admin.client_kill_filter(_id=client_id) == 1
    finally:
        admin.close()

    assert backend.get("restart") == "before"
    backend.set("restart", "after", 30)
    assert backend.get("restart") == "after"
    assert not set(own_connection_ids(backend)) & set(ids)


class CuttingProxy:
    """A TCP proxy in front of the test Redis whose connections can be cut the way a restart
    cuts them when the client cannot see it yet (the restart raced the pool's check, or a
    proxy or NAT in between lost the connection): the next command is answered by the
    connection closing. ``stall`` instead lets commands through to nobody (a Redis that does
    not answer)."""

    def __init__(self, redis_url: str) -> None:
        self.upstream = redis.connection.parse_url(redis_url)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.url = f"redis://127.0.0.1:{self.port}/{self.upstream.get('db', 0)}"
        self.accepted = 0
        self.cut_ones: set[socket.socket] = set()
        self.stalled = False
        self.servers: list[socket.socket] = []
        threading.Thread(target=self.accept_forever, daemon=True).start()

    def connect_upstream(self) -> socket.socket:
        if "path" in self.upstream:
            server = socket.socket(socket.AF_UNIX)
            server.connect(self.upstream["path"])
            return server
        return socket.create_connection(
            (self.upstream.get("host", "localhost"), self.upstream.get("port", 6379))
        )

    def accept_forever(self) -> None:
        while True:
            try:
                client, _address = self.listener.accept()
            except OSError:
                return
            self.accepted += 1
            server = self.connect_upstream()
            self.servers.append(server)
            threading.Thread(target=self.to_server, args=(client, server), daemon=True).start()
            threading.Thread(target=self.to_client, args=(server, client), daemon=True).start()

    def to_server(self, client: socket.socket, server: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := client.recv(65536):
                if server in self.cut_ones:
                    break  # the command reaches a server that is gone
                if not self.stalled:
                    server.sendall(data)
        client.close()

    def to_client(self, server: socket.socket, client: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := server.recv(65536):
                client.sendall(data)
        if server not in self.cut_ones:
            client.close()
        server.close()

    def cut(self) -> None:
        """Lose every connection to Redis; the clients' sockets stay open until they send."""
        for server in self.servers:
            self.cut_ones.add(server)
            with contextlib.suppress(OSError):
                server.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self.listener.close()
        self.cut()


@pytest.fixture
def proxy(redis_url):
    proxy = CuttingProxy(redis_url)
    yield proxy
    proxy.close()


def test_a_connection_lost_unseen_costs_no_cache_call(own_cache, proxy):
    backend = own_cache(proxy.url)
    backend.set("unseen", "before", 30)
    assert proxy.accepted == 1

    proxy.cut()

    assert backend.get("unseen") == "before"  # failed with "Connection closed by server"
    assert proxy.accepted == 2


def test_a_redis_that_does_not_answer_is_asked_once(own_cache, proxy):
    """Callers that fail open (the leaderboard's renumbering mark) wait one time-out, as
    before: a time-out is not retried."""
    backend = own_cache(proxy.url, socket_timeout=0.2)
    backend.set("stalled", "before", 30)

    proxy.stalled = True

    with pytest.raises(redis.TimeoutError):
        backend.get("stalled")
    assert proxy.accepted == 1


def test_a_redis_that_is_down_fails_the_call(own_cache):
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port = probe.getsockname()[1]  # closed again: nothing listens there
    backend = own_cache(f"redis://127.0.0.1:{port}/0")

    with pytest.raises(redis.ConnectionError):
        backend.get("down")


def test_a_forked_child_gets_a_pool_of_its_own():
    """A Celery pool worker is forked from a parent that may have used the cache: the child
    must never share the parent's sockets."""
    caches["default"].get("rosbi-test-redis-clients")
    parent_pool = caches["default"]._cache._get_connection_pool(False)
    child = os.fork()
    if child == 0:  # pragma: no cover - the child's verdict is its exit status
        status = 1
        try:
            caches["default"].get("rosbi-test-redis-clients")
            pool = caches["default"]._cache._get_connection_pool(False)
            status = 0 if pool is not parent_pool else 2
        finally:
            os._exit(status)
    _pid, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
