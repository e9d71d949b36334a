"""Django's HTTP requests under ASGI reuse their threads (rosbi_platform/http_threads.py)."""

from __future__ import annotations

import asyncio
import threading

import pytest
from channels.testing import HttpCommunicator
from django.core.signals import request_started

from rosbi_platform.asgi import django_asgi_application
from rosbi_platform.http_threads import ReusedThreadASGIHandler

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


class RequestThreads:
    """Records the thread each request's synchronous code starts on."""

    def __init__(self, barrier: threading.Barrier | None = None) -> None:
        self.idents: list[int] = []
        self.barrier = barrier

    def __call__(self, **_kwargs) -> None:
        self.idents.append(threading.get_ident())
        if self.barrier is not None:
            self.barrier.wait()


def request_threads() -> int:
    """Threads of request executors alive now (the process's other threads come and go:
    counting them all made this test fail when one started or ended meanwhile)."""
    return sum(1 for thread in threading.enumerate() if thread.name.startswith("http-request"))


async def get(application, path: str = "/no-such-page/") -> int:
    communicator = HttpCommunicator(application, "GET", path, headers=[(b"host", b"localhost")])
    response = await communicator.get_response(timeout=10)
    await communicator.wait(timeout=10)  # the handler has finished, thread given back
    return response["status"]


async def test_sequential_requests_run_on_one_reused_thread():
    handler = ReusedThreadASGIHandler()
    seen = RequestThreads()
    request_started.connect(seen, dispatch_uid="test-http-threads")
    try:
        statuses = [await get(handler) for _ in range(3)]
        threads_after_first = request_threads()
        statuses.append(await get(handler))
    finally:
        request_started.disconnect(dispatch_uid="test-http-threads")

    assert statuses == [404, 404, 404, 404]
    assert len(set(seen.idents)) == 1, "each request started a thread of its own"
    assert seen.idents[0] != threading.get_ident()
    assert handler.idle_threads == 1
    assert request_threads() == threads_after_first


async def test_concurrent_requests_get_threads_of_their_own():
    # Both requests wait for each other on their own threads: on one shared thread the
    # barrier would break after its time-out and the requests would fail.
    handler = ReusedThreadASGIHandler()
    seen = RequestThreads(threading.Barrier(2, timeout=5))
    request_started.connect(seen, dispatch_uid="test-http-threads")
    try:
        statuses = await asyncio.gather(get(handler), get(handler))
    finally:
        request_started.disconnect(dispatch_uid="test-http-threads")

    assert statuses == [404, 404]
    assert len(set(seen.idents)) == 2
    assert handler.idle_threads == 2


async def test_idle_threads_are_bounded():
    handler = ReusedThreadASGIHandler(max_idle=1)
    seen = RequestThreads(threading.Barrier(3, timeout=5))
    request_started.connect(seen, dispatch_uid="test-http-threads")
    try:
        statuses = await asyncio.gather(*(get(handler) for _ in range(3)))
    finally:
        request_started.disconnect(dispatch_uid="test-http-threads")

    assert statuses == [404, 404, 404]
    assert handler.idle_threads == 1


def test_the_platform_serves_http_with_reused_threads():
    assert isinstance(django_asgi_application, ReusedThreadASGIHandler)
