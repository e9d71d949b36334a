"""Where one move's server CPU goes: cProfile of ``submit_move`` at a started 4-human table.

By default the moves find their position cached (the fast path: one compare-and-swap write),
as the moves of a table mostly do in a worker; ``--cold`` empties the cache before each move
to time the locked path (row lock, reads, engine rebuild).

The load client measures the whole stack; this isolates the service call that every move
runs in a worker's database thread, on the benchmark database (``. bench/load/env.sh``), and
prints the functions with the most own time and the most cumulative time.

    . bench/load/env.sh && .venv/bin/python bench/load/profile_move.py --moves 150
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import os
import pstats
import statistics
import sys
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=150)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument(
        "--cold",
        action="store_true",
        help="empty the process's position cache before every move (the locked path only)",
    )
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rosbi_platform.settings")
    import django

    django.setup()
    from django.contrib.auth.hashers import make_password
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games import lobby, moves, selectors
    from games.live.positions import positions
    from games.models import Table
    from rosbi_platform.accounts.models import User

    query_counts: list[int] = []
    stamp = time.time_ns()
    password = make_password(None)
    users = [User.objects.create(username=f"prof{stamp}-{k}", password=password) for k in range(4)]

    def new_table() -> int:
        table = lobby.create_table(owner=users[0], size=4, turn_seconds=30)
        for user in users[1:]:
            lobby.join_table(table.pk, user)
        lobby.start_table(table.pk, users[0])
        return table.pk

    table_id = new_table()
    timings: dict[bool, list[tuple[float, float, float]]] = {False: [], True: []}
    profiler = cProfile.Profile()
    # First half timed without the profiler (honest figures), second half profiled.
    for index in range(2 * args.moves):
        profiled = index >= args.moves
        state = Table.objects.get(pk=table_id)
        if state.status != Table.Status.PLAYING:
            table_id = new_table()
            state = Table.objects.get(pk=table_id)
        user = users[state.turn_seat]
        # The legal moves come from a snapshot built outside the timing: only the move counts.
        view = selectors.build_snapshot(table_id, user)
        if args.cold:
            positions.clear()
        began, began_cpu, began_thread = (
            time.perf_counter(),
            time.process_time(),
            time.thread_time(),
        )
        if profiled:
            profiler.enable()
        # Queries are counted in the profiled half only (the capture costs CPU too).
        capture = CaptureQueriesContext(connection) if profiled else contextlib.nullcontext()
        with capture:
            result = moves.submit_move(
                table_id, view["deal"]["legal_moves"][0], view["version"], user=user
            )
        if profiled:
            profiler.disable()
        timings[profiled].append(
            (
                time.perf_counter() - began,
                time.process_time() - began_cpu,
                time.thread_time() - began_thread,
            )
        )
        if profiled:
            query_counts.append(len(capture.captured_queries))
        assert result.ok, result
    wall = sum(t[0] for t in timings[False]) / args.moves
    cpu = sum(t[1] for t in timings[False]) / args.moves
    own = sum(t[2] for t in timings[False]) / args.moves
    path = "cold cache: locked path" if args.cold else "warm cache"
    print(
        f"load average {os.getloadavg()[0]:.1f}; 2 x {args.moves} moves through submit_move"
        f" ({path})"
    )
    print(
        f"per move (unprofiled): wall {1000 * wall:.2f} ms, CPU {1000 * cpu:.2f} ms "
        f"(process: with the broadcast thread), {1000 * own:.2f} ms (the calling thread)"
    )
    print(
        f"queries per move (BEGIN/COMMIT included): median {statistics.median(query_counts)}, "
        f"mean {statistics.mean(query_counts):.2f}"
    )
    stats = pstats.Stats(profiler)
    stats.sort_stats("tottime").print_stats(args.top)
    stats.sort_stats("cumulative").print_stats(args.top)


if __name__ == "__main__":
    main()
