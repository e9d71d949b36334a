"""Time the platform's own pages and health probes in process (Django test client).

    .venv/bin/python bench/platform_requests.py [--requests 200]

Uses a throw-away embedded PostgreSQL (its own data directory in a temporary folder, removed
afterwards) seeded with the demo data, and the configured Redis (embedded unless REDIS_URL is
set). Prints median and p95 milliseconds per page/probe; the
Celery probe is left out because it waits up to its 1 s timeout by design.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

REPO_ROOT = Path(__file__).resolve().parents[1]


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()

    sys.path.insert(0, str(REPO_ROOT))
    scratch = tempfile.mkdtemp(prefix="rosbi-bench-")
    Path(scratch).chmod(0o755)  # the server may run as a user of its own (when we are root)
    from rosbi_platform import embedded_postgres

    socket_dir = embedded_postgres.ensure_embedded_postgres(Path(scratch) / "postgres")
    os.environ["DATABASE_URL"] = f"postgres://postgres@{quote(str(socket_dir), safe='')}/rosbi"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rosbi_platform.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import setup_test_environment

    from rosbi_platform.health import check_database, check_redis

    setup_test_environment()
    call_command("migrate", verbosity=0)
    with open(os.devnull, "w") as quiet:
        call_command("seed_demo", stdout=quiet)

    client = Client()
    targets = {
        "GET / (home)": lambda: client.get("/"),
        "GET /tournaments/": lambda: client.get("/tournaments/"),
        "GET /accounts/login/": lambda: client.get("/accounts/login/"),
        "GET / in German": lambda: client.get("/", HTTP_ACCEPT_LANGUAGE="de"),
        "probe: database SELECT 1": check_database,
        "probe: Redis PING": check_redis,
    }
    print(f"load average before the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'target':<28} {'median ms':>10} {'p95 ms':>10}   ({args.requests} runs each)")
    for name, call in targets.items():
        call()  # warm caches and connections
        samples = []
        for _ in range(args.requests):
            started = time.perf_counter()
            call()
            samples.append((time.perf_counter() - started) * 1000)
        print(f"{name:<28} {statistics.median(samples):>10.2f} {percentile(samples, 0.95):>10.2f}")

    from rosbi_platform import embedded_redis

    for socket_path in list(embedded_redis.started_by_this_process):
        embedded_redis.stop_when_idle_in_background(socket_path)
    from django.db import connections

    connections["default"].close_pool()
    embedded_postgres.stop_embedded_postgres(Path(scratch) / "postgres", only_if_idle=False)
    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
