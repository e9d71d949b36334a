"""Run web (uvicorn), Celery worker and Celery beat together, and stop all three together.

Each child gets its own process group, so Ctrl-C reaches only this supervisor, which then
shuts the children down in order (SIGTERM, then SIGKILL after a grace period) and finally stops
the embedded Redis and PostgreSQL if nothing else is still using them. A child that exits on
its own is started again; one that keeps dying (``MAX_RESTARTS`` within ``RESTART_WINDOW``
seconds) stops everything, since something is broken that a restart does not mend.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from rosbi_platform.embedded_postgres import stop_embedded_postgres
from rosbi_platform.embedded_redis import ensure_embedded_redis, stop_embedded_redis
from rosbi_platform.management.commands.seed_demo import read_demo_logins
from rosbi_platform.supervisor import Supervisor

GRACE_SECONDS = 10.0
MAX_RESTARTS = 5
RESTART_WINDOW = 60.0


def wait_for_port(host: str, port: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            probe.settimeout(0.2)
            if probe.connect_ex((host, port)) == 0:
                return True
        time.sleep(0.1)
    return False


def wait_until_healthy(
    url: str, timeout: float, should_stop: Callable[[], bool] = lambda: False
) -> bool:
    """Poll ``/healthz`` until it answers 200 (web, database, Redis and a worker all up).

    Its 503s while the worker starts are expected: the health view logs them at INFO, never
    as errors (``rosbi_platform.views.healthz``).
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not should_stop():
        try:
            with urllib.request.urlopen(f"{url}healthz", timeout=5) as response:
                if response.status == 200:
                    return True
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.5)
    return False


def login_box(url: str, logins: dict[str, Any] | None, healthy: bool = True) -> str:
    """The box ``make run`` ends its start-up with: where Rosbi runs, the demo log-ins, and
    how to get new passwords or start afresh."""
    lines = [f"Rosbi is running at {url}", f"admin: {url}admin/   health: {url}healthz", ""]
    if not healthy:
        lines[2:2] = ["(not every part answers /healthz yet: see the log above)"]
    organiser = (logins or {}).get("organiser")
    players = (logins or {}).get("players") or {}
    if organiser or players:
        if organiser:
            lines.append(f"organiser (admin):  {organiser['username']} / {organiser['password']}")
            # A site moderator and club owner: two-factor log-in is set up at the first log-in.
            lines.append("  (first log-in: set up two-factor log-in with an authenticator app)")
        by_password: dict[str, list[str]] = {}
        for username, password in sorted(players.items()):
            by_password.setdefault(password, []).append(username)
        for password, names in by_password.items():
            lines.append(f"players:  {', '.join(names)} / {password}")
    else:
        lines.append("demo log-ins: not stored on this machine")
    lines += [
        "",
        "new demo passwords:  make demo-logins",
        "start afresh:        make reset (deletes the local data), then make run",
        "another port:        PORT=8001 make run          stop: Ctrl-C",
    ]
    width = max(len(line) for line in lines)
    border = "+" + "-" * (width + 2) + "+"
    return "\n".join([border, *(f"| {line.ljust(width)} |" for line in lines), border])


def platform_commands(
    python: str, host: str, port: int, worker_concurrency: int, supervisor_pid: int
) -> dict[str, list[str]]:
    """The command lines of the three children: web, worker and beat.

    Beat runs at WARNING and without its banner: at INFO it logs every task it sends, one line
    a second for the turn-clock sweep, which scrolled the log-in box away (issue 29); its
    errors still show. The worker stays at INFO (its start-up, every task's failure and the
    tasks players cause) but logs the frequent sweeps' routine lines at DEBUG
    (``rosbi_platform.task_logging``).
    """
    return {
        "web": [
            python, "-m", "uvicorn", "rosbi_platform.asgi:application",
            "--host", host, "--port", str(port), "--no-access-log", "--lifespan", "off",
            "--ws-per-message-deflate", "false",  # small frames: see docs/performance.md
            "--ws-max-size", "65536",  # a client frame is a move or a chat line
        ],
        "worker": [
            python, "-m", "celery", "-A", "rosbi_platform", "worker",
            "--loglevel", "INFO", "--concurrency", str(worker_concurrency),
            "--hostname", f"worker-{supervisor_pid}@%h",
        ],
        "beat": [
            python, "-m", "celery", "-A", "rosbi_platform", "--quiet", "beat",
            "--loglevel", "WARNING",
        ],
    }  # fmt: skip


class Command(BaseCommand):
    help = "Run the ASGI server, a Celery worker and Celery beat until Ctrl-C."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
        parser.add_argument("--worker-concurrency", type=int, default=2)

    def handle(self, *args, host: str, port: int, worker_concurrency: int, **options) -> None:
        socket_path = settings.CONFIG.embedded_redis_socket
        if socket_path is not None:
            ensure_embedded_redis(socket_path)
        commands = platform_commands(
            sys.executable, host, port, worker_concurrency, supervisor_pid=os.getpid()
        )
        supervisor = Supervisor(
            commands, say=self.stderr.write, max_restarts=MAX_RESTARTS, window=RESTART_WINDOW
        )
        stop_requested = False

        def request_stop(signum, frame) -> None:
            nonlocal stop_requested
            stop_requested = True

        signal.signal(signal.SIGINT, request_stop)
        signal.signal(signal.SIGTERM, request_stop)
        exit_code = 0
        try:
            supervisor.start()
            if wait_for_port(host, port, timeout=60):
                shown_host = "127.0.0.1" if host in {"0.0.0.0", "::"} else host
                url = f"http://{shown_host}:{port}/"
                healthy = wait_until_healthy(
                    url, timeout=60, should_stop=lambda: stop_requested or not supervisor.check()
                )
                self.stdout.write(self.style.SUCCESS(login_box(url, read_demo_logins(), healthy)))
            while not stop_requested:
                if not supervisor.check():
                    exit_code = 1
                    break
                time.sleep(0.2)
        finally:
            supervisor.stop(GRACE_SECONDS)
            if socket_path is not None and stop_embedded_redis(socket_path, only_if_idle=True):
                self.stdout.write("embedded Redis stopped")
            postgres_dir = settings.CONFIG.embedded_postgres_dir
            if postgres_dir is not None:
                from django.db import connections

                connections["default"].close_pool()
                if stop_embedded_postgres(postgres_dir, only_if_idle=True):
                    self.stdout.write("embedded PostgreSQL stopped")
        self.stdout.write("all processes stopped")
        if exit_code:
            sys.exit(exit_code)
