"""CPU per call of the reads a table socket's handshake makes, beside a bare ``SELECT 1``.

A reconnect storm (docs/performance.md) runs every one of these thousands of times in seconds,
so their CPU, not PostgreSQL, sets how fast the sockets come back. Run against any migrated
database with at least one table (e.g. the one ``bench/api/reads.py seed`` filled)::

    DATABASE_URL=... REDIS_URL=... .venv/bin/python bench/live_handshake.py --calls 500

Prints the median of five batches per read: CPU time of this process and wall time per call.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]


def per_call(fn: Callable[[], object], calls: int) -> tuple[float, float]:
    for _ in range(min(50, calls)):
        fn()
    cpu, wall = [], []
    for _ in range(5):
        c0, w0 = time.process_time(), time.perf_counter()
        for _ in range(calls):
            fn()
        cpu.append((time.process_time() - c0) * 1000 / calls)
        wall.append((time.perf_counter() - w0) * 1000 / calls)
    return statistics.median(cpu), statistics.median(wall)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=500)
    args = parser.parse_args()
    sys.path.insert(0, str(REPO_ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rosbi_platform.settings")
    import django

    django.setup()
    from django.db import connection

    from games import selectors
    from games.models import Seat, Table

    # A seated player when there is one (the usual reconnect), else the table's owner looking on.
    seat = Seat.objects.filter(user__isnull=False).select_related("user", "table").first()
    table = seat.table if seat else Table.objects.select_related("owner").first()
    if table is None:
        raise SystemExit("no table in this database")
    user = seat.user if seat else table.owner

    def select_one() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()

    # Channels' AuthMiddleware: the session row, then the user (every socket, ping included).
    from channels.auth import get_user
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    from rosbi_platform.sessions import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "rosbi_platform.accounts.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()

    def session_and_user() -> None:
        scope = {"session": SessionStore(session_key=session.session_key)}
        assert get_user.func(scope).pk == user.pk

    reads = [
        ("baseline: SELECT 1", select_one),
        (
            "viewer_access (seat, look, invitation)",
            lambda: selectors.viewer_access(table.pk, user, None),
        ),
        ("events_since, nothing missed", lambda: selectors.events_since(table.pk, table.version)),
        ("session and user (Channels' get_user)", session_and_user),
        (
            "the same by the ORM: Table.version",
            lambda: Table.objects.filter(pk=table.pk).values_list("version", flat=True).first(),
        ),
    ]
    print(f"load average before: {os.getloadavg()[0]:.2f}; {args.calls} calls x 5 batches, medians")
    print("| read | CPU ms per call | wall ms per call |")
    print("| --- | --- | --- |")
    for name, fn in reads:
        cpu, wall = per_call(fn, args.calls)
        print(f"| {name} | {cpu:.3f} | {wall:.3f} |")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
