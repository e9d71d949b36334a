"""CPU and wall time per API read, in one process, beside the API's own floor.

Runs Django's test client against the database ``bench/api/reads.py seed`` filled (same
``DATABASE_URL``), ``DEBUG=false``, with a bench user's ``read`` token, and prints per endpoint
the median CPU time of the process and wall time over ``--repeat`` requests. The same-run
baseline is ``/api/v1/me`` (token lookup, middleware, DRF and one tiny serializer: what every
API request pays before its own work)::

    DATABASE_URL=... REDIS_URL=... .venv/bin/python bench/api/inprocess.py --repeat 30
    ... --profile "/api/v1/parties?page_size=50"     # cProfile of one endpoint instead
"""

from __future__ import annotations

import argparse
import cProfile
import itertools
import json
import os
import pstats
import random
import statistics
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "bench" / "api"))

BASELINE = "/api/v1/me"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--profile", help="profile this path instead of timing them all")
    args = parser.parse_args()

    os.environ.setdefault("DEBUG", "false")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("SECRET_KEY", "bench-api-inprocess-" + "x" * 50)
    os.environ.setdefault("SECURE_SSL_REDIRECT", "false")
    import reads

    reads.setup_django()
    from django.test import Client

    # Round the bench users' tokens, as the open loop does (each token's own limit is 600/min).
    secrets = json.loads((reads.OUT_DIR / "tokens.json").read_text())
    clients = itertools.cycle(
        [Client(HTTP_AUTHORIZATION=f"Bearer {s}", raise_request_exception=True) for s in secrets]
    )

    def get(path: str) -> None:
        response = next(clients).get(path)
        if response.status_code != 200:
            raise SystemExit(f"{path}: HTTP {response.status_code} {response.content[:200]!r}")

    if args.profile:
        for _ in range(3):
            get(args.profile)
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(args.repeat):
            get(args.profile)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(45)
        return

    rng = random.Random(1)
    fresh = random.Random()  # unseeded: pages an earlier run left cached are unlikely
    paths = [BASELINE, *reads.targets(rng), "/api/v1/leaderboard?page=300&page_size=50"]
    names = ["baseline: /api/v1/me", *paths[1:]]
    names[4] = "/api/v1/leaderboard, each request a page not read before"
    names[-1] = "/api/v1/leaderboard?page=300, read again"
    print(f"load average before: {os.getloadavg()[0]:.2f}; {args.repeat} requests each, medians")
    print("| endpoint | CPU ms | wall ms | bytes |")
    print("| --- | --- | --- | --- |")
    for name, path in zip(names, paths, strict=True):
        for _ in range(3):
            get(path)
        cpu, wall = [], []
        for _ in range(args.repeat):
            if name.endswith("not read before"):  # a fresh page each time: built, not cached
                path = f"/api/v1/leaderboard?page={fresh.randint(1, 1000)}&page_size=50"
            c0, w0 = time.process_time(), time.perf_counter()
            response = next(clients).get(path)
            cpu.append((time.process_time() - c0) * 1000)
            wall.append((time.perf_counter() - w0) * 1000)
        size = len(response.content)
        print(
            f"| {name} | {statistics.median(cpu):.1f} | {statistics.median(wall):.1f} | {size:,} |"
        )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
