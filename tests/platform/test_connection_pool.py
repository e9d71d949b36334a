"""A crawl cannot exhaust PostgreSQL: a web process holds at most DATABASE_POOL_SIZE connections.

The defect: under ASGI every request may run on another thread, and persistent per-thread
connections (``CONN_MAX_AGE=60``) piled up (36 after 600 sequential GETs, 98 at 55 requests/s)
until PostgreSQL refused everyone. Here a real uvicorn process, configured like production,
serves a burst of concurrent page reads while we count its connections on the server.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import connection

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

REPO_ROOT = Path(__file__).resolve().parents[2]
POOL_SIZE = 3
APPLICATION = "rosbi-pool-test"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def database_url() -> str:
    """The test database, as a URL the server process can use, tagged with our name."""
    params = connection.get_connection_params()
    host = params.get("host") or "127.0.0.1"
    netloc = (
        quote(host, safe="") if host.startswith("/") else f"{host}:{params.get('port') or 5432}"
    )
    user = params.get("user") or "postgres"
    return f"postgres://{user}@{netloc}/{params['dbname']}?application_name={APPLICATION}"


def server_connections() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", [APPLICATION]
        )
        return cursor.fetchone()[0]


def test_a_burst_of_page_reads_never_holds_more_than_the_pool(settings):
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "DATABASE_POOL_SIZE": str(POOL_SIZE),
        "REDIS_URL": settings.REDIS_URL,
        "ANONYMOUS_PAGE_RATE": "off",
        "LOG_LEVEL": "WARNING",
    }
    server = subprocess.Popen(
        [
            sys.executable, "-m", "uvicorn", "rosbi_platform.asgi:application",
            "--host", "127.0.0.1", "--port", str(port), "--lifespan", "off", "--no-access-log",
        ],
        cwd=REPO_ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/tournaments/", timeout=5).read()
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)

        failures: list[BaseException] = []
        most = [0]
        done = threading.Event()

        def crawl() -> None:
            for _ in range(15):
                try:
                    for path in ("/tournaments/", "/ladder/", "/lobby/", "/"):
                        urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30).read()
                except BaseException as error:  # noqa: BLE001 - reported below
                    failures.append(error)

        def watch() -> None:
            try:
                while not done.is_set():
                    most[0] = max(most[0], server_connections())
                    time.sleep(0.05)
            finally:
                # This thread's own connection, or the test database outlives the run.
                connection.close()

        watcher = threading.Thread(target=watch)
        watcher.start()
        crawlers = [threading.Thread(target=crawl) for _ in range(24)]
        for crawler in crawlers:
            crawler.start()
        for crawler in crawlers:
            crawler.join()
        done.set()
        watcher.join()

        assert failures == []
        assert 1 <= most[0] <= POOL_SIZE, f"{most[0]} connections held at once"
        assert server_connections() <= POOL_SIZE
    finally:
        server.terminate()
        server.wait(timeout=10)
        deadline = time.monotonic() + 10  # let the server notice the closed connections
        while server_connections() and time.monotonic() < deadline:
            time.sleep(0.1)
