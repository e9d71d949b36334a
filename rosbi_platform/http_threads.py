"""Django's ASGI handler with reused request threads.

Django runs each HTTP request's synchronous code (middleware, views, the ORM) on a thread of
its own: ``ASGIHandler`` enters a fresh ``ThreadSensitiveContext`` per request, and asgiref
starts a new one-thread executor for it and shuts it down afterwards. Under the API benchmark
9 % of a web worker's samples were that thread's start-up and tear-down. Here a request takes
an idle one-thread executor from a small stack and gives it back when it ends, so a thread
serves one request at a time, as before, but is started once.

What Django keeps per thread stays correct: database connections are returned to the pool at
``request_finished`` (``CONN_MAX_AGE=0``), which runs on the request's thread before it ends;
``close_old_connections`` runs again at the next ``request_started``.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext
from django.core.handlers.asgi import ASGIHandler

#: Idle request threads kept per process; a burst above it starts (and later stops) more.
MAX_IDLE_THREADS = 16


class ReusedThreadASGIHandler(ASGIHandler):
    """``ASGIHandler`` whose requests run on reused one-thread executors."""

    def __init__(self, max_idle: int = MAX_IDLE_THREADS) -> None:
        super().__init__()
        self.max_idle = max_idle
        # Taken and given back only on the server's event loop: no lock needed.
        self._idle: list[ThreadPoolExecutor] = []

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        executor = self._take()
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            self._give_back(executor)

    def _take(self) -> ThreadPoolExecutor:
        if self._idle:
            return self._idle.pop()
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="http-request")

    def _give_back(self, executor: ThreadPoolExecutor) -> None:
        if len(self._idle) < self.max_idle:
            self._idle.append(executor)
        else:
            executor.shutdown(wait=False)

    @property
    def idle_threads(self) -> int:
        """How many request threads wait for the next request (for tests and benchmarks)."""
        return len(self._idle)
