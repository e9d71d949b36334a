"""Where one move's server CPU goes: cProfile of ``submit_move`` at a started 4-human table.

The load client measures the whole stack; this isolates the service call that every move
runs in a worker's database thread, on the benchmark database (``. bench/load/env.sh``), and
prints the functions with the most own time and the most cumulative time.

    . bench/load/env.sh && .venv/bin/python bench/load/profile_move.py --moves 150
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=150)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rosbi_platform.settings")
    import django

    django.setup()
    from django.contrib.auth.hashers import make_password

    from games import selectors, services
    from games.models import Table
    from rosbi_platform.accounts.models import User

    stamp = time.time_ns()
    password = make_password(None)
    users = [User.objects.create(username=f"prof{stamp}-{k}", password=password) for k in range(4)]

    def new_table() -> int:
        table = services.create_table(owner=users[0], size=4, turn_seconds=30)
        for user in users[1:]:
            services.join_table(table.pk, user)
        services.start_table(table.pk, users[0])
        return table.pk

    table_id = new_table()
    # The legal moves come from snapshots built outside the profile: only the move counts.
    plans = []
    profiler = cProfile.Profile()
    wall = cpu = 0.0
    for _ in range(args.moves):
        state = Table.objects.get(pk=table_id)
        if state.status != Table.Status.PLAYING:
            table_id = new_table()
            state = Table.objects.get(pk=table_id)
        user = users[state.turn_seat]
        view = selectors.build_snapshot(table_id, user)
        plans.append(view["version"])
        began, began_cpu = time.perf_counter(), time.process_time()
        profiler.enable()
        result = services.submit_move(
            table_id, view["deal"]["legal_moves"][0], view["version"], user=user
        )
        profiler.disable()
        wall += time.perf_counter() - began
        cpu += time.process_time() - began_cpu
        assert result.ok, result
    print(f"load average {os.getloadavg()[0]:.1f}; {args.moves} moves through submit_move")
    print(f"per move: wall {1000 * wall / args.moves:.2f} ms, CPU {1000 * cpu / args.moves:.2f} ms")
    stats = pstats.Stats(profiler)
    stats.sort_stats("tottime").print_stats(args.top)
    stats.sort_stats("cumulative").print_stats(args.top)


if __name__ == "__main__":
    main()
