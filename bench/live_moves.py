"""Cost of one move through the live-table service: latency percentiles and queries per move.

Plays whole Parties at 4-seat tables of humans (every move through ``submit_move``, with
clocks) and of heuristic bots (the bot loop) on a throwaway PostgreSQL database created next to
the configured one (``DATABASE_URL``, else the embedded PostgreSQL) and dropped afterwards, and
prints the figures. Broadcasts go to the configured channel layer (the embedded Redis by
default), as in production.

    .venv/bin/python bench/live_moves.py --parties 3
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parties", type=int, default=3)
    args = parser.parse_args()

    root = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(root))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rosbi_platform.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection

    # A database of its own (migrated, dropped at the end): the development data stays untouched.
    configured_name = connection.settings_dict["NAME"]
    connection.settings_dict["TEST"]["NAME"] = f"rosbi_bench_live_moves_{os.getpid()}"
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        run(args.parties, settings, connection)
    finally:
        connection.creation.destroy_test_db(configured_name, verbosity=0)


def run(parties: int, settings, connection) -> None:
    from django.test.utils import CaptureQueriesContext

    from games import bot_turns, lobby, moves, selectors
    from games.models import Table
    from rosbi_platform import celery_app
    from rosbi_platform.accounts.models import User

    settings.GAMES_BOT_THINK_SECONDS = 0
    celery_app.conf.task_always_eager = True

    human_ms: list[float] = []
    human_cpu_ms: list[float] = []
    human_queries: list[int] = []
    bot_ms: list[float] = []
    snapshot_ms: list[float] = []
    original = bot_turns.play_bot_turn

    def timed_bot_turn(*a, **k):
        start = time.perf_counter()
        result = original(*a, **k)
        if result is not None:
            bot_ms.append((time.perf_counter() - start) * 1000)
        return result

    bot_turns.play_bot_turn = timed_bot_turn
    for n in range(parties):
        users = [User.objects.create(username=f"bench{n}-{k}-{time.time_ns()}") for k in range(4)]
        table = lobby.create_table(owner=users[0], size=4, turn_seconds=30)
        for user in users[1:]:
            lobby.join_table(table.pk, user)
        lobby.start_table(table.pk, users[0], seed=n)
        while True:
            state = Table.objects.get(pk=table.pk)
            if state.status != Table.Status.PLAYING:
                break
            user = users[state.turn_seat]
            start = time.perf_counter()
            view = selectors.build_snapshot(table.pk, user)
            snapshot_ms.append((time.perf_counter() - start) * 1000)
            with CaptureQueriesContext(connection) as queries:
                start, cpu = time.perf_counter(), time.process_time()
                result = moves.submit_move(
                    table.pk, view["deal"]["legal_moves"][0], view["version"], user=user
                )
                human_ms.append((time.perf_counter() - start) * 1000)
                human_cpu_ms.append((time.process_time() - cpu) * 1000)
            assert result.status == "applied", result
            human_queries.append(len(queries.captured_queries))
        owner = users[0]
        bots = lobby.create_table(
            owner=owner, size=4, seat_owner=False, fill_with_bots=True, bot_level="heuristic"
        )
        lobby.start_table(bots.pk, owner, seed=n)

    def line(name: str, values: list[float]) -> str:
        ordered = sorted(values)
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
        return (
            f"{name:<28} n={len(values):>5}  p50={statistics.median(values):7.2f} ms"
            f"  p99={p99:7.2f} ms  mean={statistics.fmean(values):7.2f} ms"
        )

    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"PostgreSQL; {parties} Parties of 4 humans + as many of 4 bots")
    print(line("snapshot (build_snapshot)", snapshot_ms))
    print(line("human move (submit_move)", human_ms))
    print(line("  CPU time of this process", human_cpu_ms))
    print(line("bot move (heuristic)", bot_ms))
    print(
        "queries per human move (BEGIN/COMMIT included): "
        f"median {statistics.median(human_queries)}, max {max(human_queries)}"
    )


if __name__ == "__main__":
    main()
