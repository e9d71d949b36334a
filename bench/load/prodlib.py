"""Shared helpers of the production-shape scenarios (storm.py, soak.py, reads.py).

Pure helpers (percentiles, windows, growth) are kept free of I/O so tests/bench can check them;
the rest looks at processes (psutil) and PostgreSQL (psycopg) on 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

import psutil

PG_DSN = "host=127.0.0.1 port=5432 user=postgres dbname={database}"


# -------------------------------------------------------------------- pure helpers


def percentile(ordered: list[float], fraction: float) -> float:
    """Nearest-rank percentile of an already sorted list (nan when empty)."""
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "count": len(ordered),
        "p50": percentile(ordered, 0.50),
        "p95": percentile(ordered, 0.95),
        "p99": percentile(ordered, 0.99),
        "max": ordered[-1] if ordered else float("nan"),
    }


def windows(
    timed: list[tuple[float, float]], start: float, end: float, width: float
) -> list[dict[str, Any]]:
    """Split (time, value) pairs into windows of ``width`` s from ``start``; a summary each."""
    out = []
    edge = start
    while edge < end - 1e-9:
        upper = min(edge + width, end)
        values = [v for t, v in timed if edge <= t < upper]
        out.append(
            {"from_s": round(edge - start, 1), "to_s": round(upper - start, 1), **summary(values)}
        )
        edge = upper
    return out


def sample_at(samples: list[dict[str, Any]], offset: float, key: str = "t") -> dict[str, Any]:
    """The sample whose ``key`` is nearest to ``offset``."""
    return min(samples, key=lambda s: abs(s[key] - offset))


def growth_percent(before: float, after: float) -> float:
    return 100.0 * (after - before) / before if before else float("nan")


# -------------------------------------------------------------------- processes


def uvicorn_workers(server_pid: int) -> list[psutil.Process]:
    """uvicorn's worker processes (children of the supervisor), without multiprocessing helpers."""
    master = psutil.Process(server_pid)
    return [
        p
        for p in master.children(recursive=True)
        if "resource_tracker" not in " ".join(p.cmdline())
    ]


def process_tree(pid: int) -> list[psutil.Process]:
    """A process and its descendants (the Celery worker and its pool processes)."""
    try:
        top = psutil.Process(pid)
    except psutil.Error:
        return []
    return [top, *top.children(recursive=True)]


def rss_mb(process: psutil.Process) -> float:
    try:
        return process.memory_info().rss / 2**20
    except psutil.Error:
        return float("nan")


def cpu_s(processes: list[psutil.Process]) -> float:
    return sum(cpu_split(processes))


def cpu_split(processes: list[psutil.Process]) -> tuple[float, float]:
    """User and system CPU seconds of ``processes`` so far (system: the kernel's share)."""
    user = system = 0.0
    for p in processes:
        try:
            times = p.cpu_times()
        except psutil.Error:
            continue
        user += times.user
        system += times.system
    return user, system


def loadavg() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


class MachineBusy:
    """Share of both cores busy (all processes) between two calls of ``read``."""

    def __init__(self) -> None:
        self.last = psutil.cpu_times()
        self.at = time.monotonic()

    def read(self) -> float:
        now, at = psutil.cpu_times(), time.monotonic()
        busy = sum(getattr(now, f) - getattr(self.last, f) for f in ("user", "system", "nice"))
        share = 100 * busy / max(1e-9, at - self.at) / (os.cpu_count() or 1)
        self.last, self.at = now, at
        return share


class PgConnections:
    """Counts the backends of one database (this sampler's own connection left out)."""

    def __init__(self, database: str) -> None:
        import psycopg

        self.database = database
        self.conn = psycopg.connect(PG_DSN.format(database=database), autocommit=True)

    def count(self) -> dict[str, int]:
        with self.conn.cursor() as cur:
            cur.execute(
                "SELECT state, count(*) FROM pg_stat_activity"
                " WHERE datname = %s AND pid <> pg_backend_pid() GROUP BY state",
                (self.database,),
            )
            by_state = {str(state): n for state, n in cur.fetchall()}
        return {"total": sum(by_state.values()), **by_state}

    def close(self) -> None:
        self.conn.close()


def add_common_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--plan", required=True, help="JSON plan of manage.py bench_tables")
    parser.add_argument("--url", default="ws://127.0.0.1:8765")
    parser.add_argument("--origin", default="http://127.0.0.1:8765")
    parser.add_argument("--server-pid", type=int, required=True, help="uvicorn supervisor pid")
    parser.add_argument("--celery-pids", default="", help="worker,beat pids (RSS sampled)")
    parser.add_argument("--database", default="rosbi_bench", help="for pg_stat_activity")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument(
        "--py-spy", help="record the first worker with py-spy (raw folded stacks) to this file"
    )


def celery_processes(pids: str) -> list[psutil.Process]:
    found: list[psutil.Process] = []
    for raw in filter(None, pids.split(",")):
        found.extend(process_tree(int(raw)))
    return found


def select_slots(
    plan: dict[str, Any], rounds: str, database: str | None, limit: int = 0
) -> list[dict[str, Any]]:
    """Groups of four with one table each, taken from the given rounds of a plan.

    ``rounds`` is ``""`` (each group's tables as planned, all rounds in a row, as client.py
    plays them) or a comma list of round numbers (``"1,2"``): every (group, round) becomes a
    slot with that one table, so a plan left by an earlier run (a soak's later rounds) can
    serve again. With ``database`` set, tables already finished are left out.
    """
    if not rounds:
        slots = list(plan["slots"])
    else:
        wanted = [int(r) for r in rounds.split(",")]
        slots = [
            {"tables": [slot["tables"][r]], "players": slot["players"]}
            for r in wanted
            for slot in plan["slots"]
            if r < len(slot["tables"])
        ]
        if database:
            import psycopg

            with psycopg.connect(PG_DSN.format(database=database)) as conn:
                finished = {
                    row[0]
                    for row in conn.execute(
                        "SELECT id FROM games_table WHERE status = 'finished' AND id = ANY(%s)",
                        ([s["tables"][0] for s in slots],),
                    )
                }
            slots = [s for s in slots if s["tables"][0] not in finished]
    return slots[:limit] if limit else slots


def start_py_spy(out: str | None, pid: int, seconds: float) -> Any:
    """py-spy on one worker (50 Hz, without pausing it), or None; stop with ``finish_py_spy``."""
    if not out:
        return None
    import subprocess
    import sys

    binary = os.path.join(os.path.dirname(sys.executable), "py-spy")
    return subprocess.Popen(
        [
            binary,
            "record",
            "-p",
            str(pid),
            "-d",
            str(int(seconds)),
            "-r",
            "50",
            "-f",
            "raw",
            "-o",
            out,
            "--nonblocking",
            "--gil",  # only the thread holding the GIL: where the CPU goes, not who waits
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def finish_py_spy(process: Any) -> None:
    if process is None:
        return
    try:
        process.wait(timeout=60)
    except Exception:  # noqa: BLE001 - never leave it running
        process.kill()
        process.wait(timeout=10)


def load_slots(
    spec: str, rounds: str, database: str | None, limit: int = 0
) -> tuple[str, list[dict[str, Any]]]:
    """(session cookie name, slots) from ``plan.json[:rounds]+other.json[:rounds]...``.

    Each part's rounds default to ``rounds``; parts are concatenated in order before ``limit``.
    """
    import json
    from pathlib import Path

    cookie = ""
    slots: list[dict[str, Any]] = []
    for part in spec.split("+"):
        path, _, own_rounds = part.partition(":")
        plan = json.loads(Path(path).read_text())
        cookie = cookie or plan["session_cookie"]
        slots += select_slots(plan, own_rounds or rounds, database)
    return cookie, (slots[:limit] if limit else slots)
