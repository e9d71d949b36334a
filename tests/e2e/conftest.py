"""Browser tests: Debian's Chromium driven by Playwright against a real ASGI server.

The server is uvicorn running the project's ASGI application (HTTP, static files and
websockets) in a background thread of the test process, so it sees the test database whatever
the server: the embedded PostgreSQL of a developer machine or the server PostgreSQL in CI. Celery
tasks run eagerly and bots do not think, which makes a whole Partie take seconds.

A missing Chromium fails the test with the command that installs it: never a skip.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
IN_CI = os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def chromium_executable() -> str:
    """CHROMIUM_PATH (set by .ci/run) or Debian's /usr/bin/chromium; fails loudly when absent."""
    path = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
    resolved = path if os.path.isfile(path) else shutil.which(path)
    if resolved is None or not os.access(resolved, os.X_OK):
        pytest.fail(
            f"Chromium not found at {path!r}. Install Debian's package with "
            "`apt-get update && apt-get install -y chromium` (or set CHROMIUM_PATH to a "
            "Chromium binary)." + (" [CI=true: .ci/run installs it]" if IN_CI else ""),
            pytrace=False,
        )
    return resolved


@pytest.fixture(scope="module")
def chromium():
    """One headless Chromium per test module (a launch costs seconds on a busy machine);
    each test opens its own context, so cookies and storage never leak between tests.
    Not per session: while it runs, Playwright's loop occupies this thread, and the suite's
    async (Channels) tests that come after the browser modules need the thread back.

    Playwright's sync API keeps an event loop running in this thread, which makes Django
    refuse ORM calls from the test body; they are plain synchronous calls, so allow them.
    """
    from playwright.sync_api import sync_playwright

    executable = chromium_executable()
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
            try:
                yield browser
            finally:
                browser.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def instant_bots(settings):
    """Run Celery tasks inline and let bots move without a pause, restoring both afterwards."""
    from rosbi_platform import celery_app

    settings.GAMES_BOT_THINK_SECONDS = 0
    previous = (celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates)
    celery_app.conf.task_always_eager = True
    celery_app.conf.task_eager_propagates = True
    yield
    celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates = previous


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass(frozen=True)
class LiveServer:
    url: str


@pytest.fixture
def asgi_live_server(
    transactional_db, redis_url, settings, instant_bots, monkeypatch
) -> Iterator[LiveServer]:
    """uvicorn serving rosbi_platform.asgi (plus static files) on a loopback port.

    The server's worker threads open their own database connections; with persistent
    connections (CONN_MAX_AGE) they would outlive the test and keep PostgreSQL from dropping
    the test database, so every request and consumer call closes its connection here.
    """
    import uvicorn
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
    from django.db import connections

    from rosbi_platform.asgi import application

    monkeypatch.setitem(connections.databases["default"], "CONN_MAX_AGE", 0)

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "127.0.0.1", "localhost"]
    port = free_port()
    config = uvicorn.Config(
        ASGIStaticFilesHandler(application),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        lifespan="off",
        ws="websockets-sansio",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="uvicorn-e2e", daemon=True)
    thread.start()
    started = time.monotonic()
    while not server.started:
        if not thread.is_alive() or time.monotonic() - started > 15:
            pytest.fail("the uvicorn test server did not start", pytrace=False)
        time.sleep(0.02)
    try:
        yield LiveServer(url=f"http://127.0.0.1:{port}")
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture
def screenshot_dir() -> Path:
    """Where screenshots go: ROSBI_SCREENSHOT_DIR (CI sets it to a directory kept as an
    artefact, see .ci/run; docs/img for the README) or var/screenshots."""
    from tests.e2e.screens import screenshot_dir as configured

    return configured()
