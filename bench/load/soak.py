"""Soak: an open loop of moves for a long time, each uvicorn worker's RSS sampled as it goes.

The players are client.py's (four sockets per table, a move per table every ``--period`` s on
average, groups moving on to their next table when a Partie ends); this script adds a sampler
(every ``--sample`` s: each worker's RSS, the Celery worker's and beat's, PostgreSQL backends,
moves, errors, gaps, load) and per-window figures (``--window`` s: p50/p99 latency, moves,
errors, gaps). RSS growth is reported from ``--growth-from`` s to the end of the window.

    bench/load/prod.sh soak --period 5 --duration 1800 --warmup 10
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import client  # noqa: E402
import prodlib  # noqa: E402


class TimedCounter(collections.Counter):
    """A Counter that also logs (time, key) each time a count goes up."""

    def __init__(self) -> None:
        super().__init__()
        self.log: list[tuple[float, str]] = []

    def __setitem__(self, key: str, value: int) -> None:
        if value > self.get(key, 0):
            self.log.append((time.perf_counter(), key))
        super().__setitem__(key, value)


class SoakStats(client.Stats):
    """client.Stats plus a timeline of (send time, latency ms) and timed gaps / late ticks."""

    def __init__(self) -> None:
        super().__init__()
        self.timeline: list[tuple[float, float]] = []
        self.gap_times: list[float] = []
        self.late_times: list[float] = []
        self.errors = TimedCounter()

    def __setattr__(self, name: str, value: Any) -> None:
        counted = name in ("gaps", "late_ticks") and hasattr(self, "gap_times")
        if counted and value > getattr(self, name):
            (self.gap_times if name == "gaps" else self.late_times).append(time.perf_counter())
        super().__setattr__(name, value)


class SoakTable(client.Table):
    def complete(self, pending: client.Pending, now: float) -> None:
        super().complete(pending, now)
        if pending.counted:
            self.stats.timeline.append((pending.sent, (now - pending.sent) * 1000))


async def sampler(
    args: argparse.Namespace,
    stats: SoakStats,
    workers: list[Any],
    celery: list[Any],
    start: float,
    end: float,
    samples: list[dict[str, Any]],
) -> None:
    pg = prodlib.PgConnections(args.database)
    busy = prodlib.MachineBusy()
    cpu_last, at_last = prodlib.cpu_s(workers), time.perf_counter()
    tick = start
    try:
        while tick <= end + 1e-6:
            delay = tick - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            now = time.perf_counter()
            cpu_now = prodlib.cpu_s(workers)
            sample = {
                "t": round(now - start, 1),
                "worker_rss_mb": [round(prodlib.rss_mb(w), 1) for w in workers],
                "celery_rss_mb": [round(prodlib.rss_mb(p), 1) for p in celery],
                "pg_connections": pg.count(),
                "moves": len(stats.timeline),
                "errors": sum(stats.errors.values()),
                "gaps": stats.gaps,
                "late_ticks": stats.late_ticks,
                "sockets_opened": stats.sockets,
                "worker_cpu_percent": round(
                    100 * (cpu_now - cpu_last) / max(1e-9, now - at_last), 1
                ),
                "machine_busy_percent": round(busy.read(), 1),
                "load": prodlib.loadavg(),
            }
            cpu_last, at_last = cpu_now, now
            samples.append(sample)
            print(
                "  t={t:>6.0f}s rss {rss} MB  celery {cel:.0f} MB  pg {pg}  moves {m}  "
                "errors {e}  gaps {g}  cpu {c:.0f}%  busy {b:.0f}%  load {l}".format(
                    t=sample["t"],
                    rss="/".join(f"{x:.0f}" for x in sample["worker_rss_mb"]),
                    cel=sum(sample["celery_rss_mb"]),
                    pg=sample["pg_connections"]["total"],
                    m=sample["moves"],
                    e=sample["errors"],
                    g=sample["gaps"],
                    c=sample["worker_cpu_percent"],
                    b=sample["machine_busy_percent"],
                    l=sample["load"],
                ),
                flush=True,
            )
            tick += args.sample
    finally:
        pg.close()


async def run(args: argparse.Namespace, plan: dict[str, Any]) -> dict[str, Any]:
    slots = plan["slots"][: args.tables or None]
    stats = SoakStats()
    tables = [SoakTable(slot, args, stats) for slot in slots]
    workers = prodlib.uvicorn_workers(args.server_pid)
    celery = prodlib.celery_processes(args.celery_pids)
    rss_before = [prodlib.rss_mb(w) for w in workers]
    load_before = prodlib.loadavg()
    limit = asyncio.Semaphore(client.CONNECT_CONCURRENCY)
    began = time.perf_counter()
    await asyncio.gather(*(t.connect(limit) for t in tables))
    connect_s = time.perf_counter() - began
    rss_connected = [prodlib.rss_mb(w) for w in workers]
    print(f"  {stats.sockets} sockets open in {connect_s:.1f} s; measuring", flush=True)
    start = time.perf_counter() + args.warmup
    end = start + args.duration
    samples: list[dict[str, Any]] = []
    sampling = asyncio.create_task(sampler(args, stats, workers, celery, start, end, samples))
    await asyncio.gather(*(t.play((start, end), limit) for t in tables))
    drain_until = time.perf_counter() + client.DRAIN_SECONDS
    while any(t.pending is not None for t in tables) and time.perf_counter() < drain_until:
        await asyncio.sleep(0.05)
    stopped_early = time.perf_counter() < end - 1
    if stopped_early:
        sampling.cancel()  # every table stalled or ran out of Parties: nothing left to sample
    else:
        await sampling
    args.stopping = True
    await asyncio.gather(*(t.close() for t in tables), return_exceptions=True)

    window_rows = prodlib.windows(stats.timeline, start, end, args.window)
    for row in window_rows:
        lo, hi = start + row["from_s"], start + row["to_s"]
        row["moves_per_s"] = row["count"] / max(1e-9, hi - lo)
        row["errors"] = dict(collections.Counter(k for t, k in stats.errors.log if lo <= t < hi))
        row["gaps"] = sum(1 for t in stats.gap_times if lo <= t < hi)
        row["late_ticks"] = sum(1 for t in stats.late_times if lo <= t < hi)
    growth = {}
    if samples:
        first = prodlib.sample_at(samples, args.growth_from)
        last = samples[-1]
        growth = {
            "from_s": first["t"],
            "to_s": last["t"],
            "per_worker_mb": [
                [a, b] for a, b in zip(first["worker_rss_mb"], last["worker_rss_mb"], strict=True)
            ],
            "per_worker_percent": [
                round(prodlib.growth_percent(a, b), 2)
                for a, b in zip(first["worker_rss_mb"], last["worker_rss_mb"], strict=True)
            ],
            "total_percent": round(
                prodlib.growth_percent(sum(first["worker_rss_mb"]), sum(last["worker_rss_mb"])), 2
            ),
        }
    everything = prodlib.summary([v for _, v in stats.timeline])
    return {
        "scenario": "soak",
        "tables": len(slots),
        "sockets": len(slots) * 4,
        "period_s": args.period,
        "duration_s": args.duration,
        "stopped_early": stopped_early,
        "connect_s": connect_s,
        "moves": everything["count"],
        "moves_per_s": everything["count"] / args.duration,
        "latency_ms": everything,
        "errors": dict(stats.errors),
        "gaps": stats.gaps,
        "late_ticks": stats.late_ticks,
        "parties_finished": stats.parties_finished,
        "sockets_opened_later": stats.sockets - len(slots) * 4,
        "rss_before_mb": rss_before,
        "rss_connected_mb": rss_connected,
        "rss_growth": growth,
        "windows": window_rows,
        "samples": samples,
        "load_before": load_before,
        "load_end": prodlib.loadavg(),
    }


def print_figures(f: dict[str, Any]) -> None:
    print(
        f"soak: {f['tables']} tables, {f['sockets']} sockets, a move per table every "
        f"{f['period_s']:g} s, {f['duration_s']:.0f} s measured"
        + (" (STOPPED EARLY)" if f["stopped_early"] else "")
    )
    lat = f["latency_ms"]
    print(
        f"  moves/s {f['moves_per_s']:.1f} ({f['moves']} moves), Parties finished "
        f"{f['parties_finished']}, sockets reopened {f['sockets_opened_later']}"
    )
    print(
        f"  latency p50 / p95 / p99 / max  {lat['p50']:.1f} / {lat['p95']:.1f} / "
        f"{lat['p99']:.1f} / {lat['max']:.1f} ms"
    )
    print(
        f"  errors {json.dumps(f['errors']) if f['errors'] else 'none'}; gaps {f['gaps']}; "
        f"late ticks {f['late_ticks']}"
    )
    print("  window        moves/s   p50 ms   p99 ms   max ms  errors  gaps")
    for w in f["windows"]:
        print(
            f"  {w['from_s'] / 60:>4.0f}-{w['to_s'] / 60:<4.0f}min  {w['moves_per_s']:>7.1f}  "
            f"{w['p50']:>7.1f}  {w['p99']:>7.1f}  {w['max']:>7.1f}  "
            f"{sum(w['errors'].values()):>6}  {w['gaps']:>4}"
        )
    g = f["rss_growth"]
    if g:
        print(
            f"  worker RSS {g['from_s'] / 60:.1f} min -> {g['to_s'] / 60:.1f} min: "
            + ", ".join(f"{a:.0f} -> {b:.0f} MB" for a, b in g["per_worker_mb"])
            + f"  ({', '.join(f'{p:+.1f} %' for p in g['per_worker_percent'])}; "
            f"total {g['total_percent']:+.1f} %)"
        )
    pg = [s["pg_connections"]["total"] for s in f["samples"]]
    if pg:
        print(f"  PostgreSQL connections min / max {min(pg)} / {max(pg)}")
    print(f"  load before / end {f['load_before']} / {f['load_end']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    prodlib.add_common_arguments(parser)
    parser.add_argument("--tables", type=int, default=0, help="use the first N (0: all)")
    parser.add_argument("--period", type=float, default=5.0, help="s between a table's moves")
    parser.add_argument("--duration", type=float, default=1800.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--sample", type=float, default=30.0, help="s between RSS samples")
    parser.add_argument("--window", type=float, default=300.0, help="s per latency window")
    parser.add_argument("--growth-from", type=float, default=300.0, help="RSS growth from (s)")
    args = parser.parse_args()
    args.mode = "open"
    args.stopping = False
    plan = json.loads(Path(args.plan).read_text())
    args.cookie_name = plan["session_cookie"]
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    figures = asyncio.run(run(args, plan))
    figures["machine_cores"] = os.cpu_count()
    print_figures(figures)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
