"""Reconnect storm: every socket dropped at once, then all reconnect; how long until all are served.

``--target tables``: four sockets per table of the plan (each seat's session), each takes its
snapshot and keeps its ``version``; at one moment every socket is dropped (the TCP connection
aborted, as a network blip or a proxy restart would), and each reconnects after a delay drawn
like ``static/js/table.js``'s first retry (0.5 s x 0.75-1.25) with ``?since=<version>``.
``--target ping``: the same storm against the bare Channels echo route ``/ws/ping/`` (same
cookies, so the same session and user look-up at the handshake): the baseline.

A socket is *served* when the answer to a ``ping`` sent right after the handshake arrives: a
consumer handles its frames one after the other, so the ``pong`` comes after ``connect()``
finished, i.e. after the replay (the events after ``since``, none when nothing was missed) or
the snapshot. Frames before the ``pong`` are counted (events replayed, snapshots).

    bench/load/prod.sh storm --target tables
    bench/load/prod.sh storm --target ping
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import multiprocessing
import os
import random
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import prodlib  # noqa: E402
import rawws  # noqa: E402

CONNECT_CONCURRENCY = 50  # first connection only (not measured), as client.py
SERVED_TIMEOUT_S = 60.0
PING = json.dumps({"type": "ping"})
PONG = json.dumps({"type": "pong"}).encode()  # the consumers' answer, byte for byte


class Socket:
    def __init__(self, path: str, session: str) -> None:
        self.path = path
        self.session = session
        self.ws: Any = None
        self.version = -1


async def open_and_serve(
    sock: Socket, args: argparse.Namespace, query: str, result: dict[str, Any]
) -> None:
    """Connect, send a ping, read until the pong: fills ``result`` (times are monotonic)."""
    began = time.monotonic()
    sock.ws = await rawws.connect(
        f"{args.url}{sock.path}{query}",
        {"Cookie": f"{args.cookie_name}={sock.session}", "Origin": args.origin},
    )
    result["handshake"] = time.monotonic() - began
    sock.ws.send_text(PING)
    while True:
        raw = await sock.ws.recv()
        if raw == PONG:
            result["served"] = time.monotonic()
            return
        frame = json.loads(raw)
        kind = frame.get("type")
        if kind == "pong":
            result["served"] = time.monotonic()
            return
        if kind == "snapshot":
            sock.version = frame["version"]
            result["snapshots"] = result.get("snapshots", 0) + 1
        elif kind == "event":
            if frame.get("version") is not None:
                sock.version = max(sock.version, frame["version"])
            result["events"] = result.get("events", 0) + 1
        elif kind == "error":
            result.setdefault("error_frames", []).append(frame.get("code"))


async def storm_process(
    sockets: list[Socket], args: argparse.Namespace, barrier: Any, shared: Any
) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    errors: collections.Counter = collections.Counter()
    limit = asyncio.Semaphore(CONNECT_CONCURRENCY)

    async def first(sock: Socket) -> None:
        async with limit:
            result: dict[str, Any] = {}
            try:
                await asyncio.wait_for(open_and_serve(sock, args, "", result), SERVED_TIMEOUT_S)
            except Exception as error:  # noqa: BLE001 - counted
                errors[f"first connect: {type(error).__name__}"] += 1

    await asyncio.gather(*(first(s) for s in sockets))
    opened = sum(1 for s in sockets if s.ws is not None)
    await loop.run_in_executor(None, barrier.wait)  # all open: the parent measures RSS
    await loop.run_in_executor(None, barrier.wait)  # the parent has set the drop time
    drop_at = shared.value
    rng = random.Random()
    results: list[dict[str, Any]] = []
    await asyncio.sleep(max(0.0, drop_at - time.monotonic()))
    for sock in sockets:  # the drop: no close handshake, the TCP connection just goes away
        if sock.ws is not None:
            sock.ws.transport.abort()
    dropped_in = time.monotonic() - drop_at

    async def again(sock: Socket) -> None:
        result: dict[str, Any] = {}
        results.append(result)
        delay = rng.uniform(args.delay_min, args.delay_max)
        await asyncio.sleep(max(0.0, drop_at + delay - time.monotonic()))
        query = ""
        if args.target == "tables" and sock.version >= 0 and not args.plain:
            query = f"?since={max(0, sock.version - args.behind)}"
        result["started"] = time.monotonic() - drop_at
        try:
            await asyncio.wait_for(open_and_serve(sock, args, query, result), SERVED_TIMEOUT_S)
            result["served"] -= drop_at
        except Exception as error:  # noqa: BLE001 - counted
            result.pop("served", None)
            name = type(error).__name__
            if isinstance(error, rawws.HandshakeRefused):
                name = f"HTTP {error.status}"
            errors[f"reconnect: {name}"] += 1

    await asyncio.gather(*(again(s) for s in sockets if s.ws is not None))
    await loop.run_in_executor(None, barrier.wait)  # all served: the parent measures RSS
    await loop.run_in_executor(None, barrier.wait)  # measured: close
    await asyncio.gather(
        *(s.ws.close() for s in sockets if s.ws is not None), return_exceptions=True
    )
    return {
        "opened": opened,
        "results": results,
        "errors": dict(errors),
        "dropped_in_s": dropped_in,
    }


def child(
    sockets: list[Socket], args: argparse.Namespace, barrier: Any, shared: Any, out: Any
) -> None:
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    cpu = time.process_time()
    try:
        part = asyncio.run(storm_process(sockets, args, barrier, shared))
    except Exception as error:  # noqa: BLE001 - reported by the parent, never hangs it
        part = {"opened": 0, "results": [], "errors": {f"client crashed: {error!r}": 1}}
        barrier.abort()
    part["cpu_s"] = time.process_time() - cpu
    out.put(part)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    prodlib.add_common_arguments(parser)
    parser.add_argument("--target", choices=["tables", "ping"], default="tables")
    parser.add_argument("--tables", type=int, default=0, help="first N tables (0: all)")
    parser.add_argument("--processes", type=int, default=2, help="client processes")
    parser.add_argument("--delay-min", type=float, default=0.375, help="reconnect delay (s)")
    parser.add_argument("--delay-max", type=float, default=0.625)
    parser.add_argument("--behind", type=int, default=0, help="reconnect with since=version-N")
    parser.add_argument("--plain", action="store_true", help="reconnect without ?since=")
    parser.add_argument(
        "--rounds", default="0", help="plan rounds (0,1,2); --plan a.json:1,2+b.json:0 mixes plans"
    )
    args = parser.parse_args()
    args.cookie_name, slots = prodlib.load_slots(args.plan, args.rounds, args.database, args.tables)
    sockets = [
        Socket(
            f"/ws/tables/{slot['tables'][0]}/" if args.target == "tables" else "/ws/ping/",
            player["session"],
        )
        for slot in slots
        for player in slot["players"]
    ]
    workers = prodlib.uvicorn_workers(args.server_pid)
    celery = prodlib.celery_processes(args.celery_pids)
    pg = prodlib.PgConnections(args.database)
    busy = prodlib.MachineBusy()

    def rss() -> list[float]:
        return [round(prodlib.rss_mb(w), 1) for w in workers]

    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(args.processes + 1)
    shared = context.Value("d", 0.0)
    out = context.Queue()
    load_before = prodlib.loadavg()
    rss_before = rss()
    children = [
        context.Process(
            target=child, args=(sockets[k :: args.processes], args, barrier, shared, out)
        )
        for k in range(args.processes)
    ]
    began = time.monotonic()
    for c in children:
        c.start()
    barrier.wait(timeout=900)
    connect_s = time.monotonic() - began
    rss_open = rss()
    pg_open = pg.count()["total"]
    time.sleep(2)
    load_drop = prodlib.loadavg()
    busy.read()
    cpu_start = prodlib.cpu_split(workers)
    shared.value = time.monotonic() + 0.5
    spy = prodlib.start_py_spy(
        f"{args.py_spy}.{args.target}" if args.py_spy else None, workers[0].pid, 20
    )
    barrier.wait(timeout=60)
    # While the storm lasts: the workers' RSS and the PostgreSQL backends every 0.25 s (a
    # thread: the main thread waits on the barrier until every child has served its sockets).
    timeline: list[dict[str, Any]] = []
    storm_over = threading.Event()

    def sample() -> None:
        while not storm_over.is_set():
            timeline.append(
                {
                    "t": round(time.monotonic() - shared.value, 2),
                    "rss_mb": rss(),
                    "pg": pg.count()["total"],
                }
            )
            storm_over.wait(0.25)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    barrier.wait(timeout=SERVED_TIMEOUT_S * 3)
    all_back_s = time.monotonic() - shared.value
    storm_over.set()
    sampler.join()
    cpu_end = prodlib.cpu_split(workers)
    storm_user, storm_system = (end - start for end, start in zip(cpu_end, cpu_start, strict=True))
    busy_storm = busy.read()
    rss_served = rss()
    pg_served = pg.count()["total"]
    celery_rss = [round(prodlib.rss_mb(p), 1) for p in celery]
    barrier.wait(timeout=60)
    parts = [out.get(timeout=120) for _ in children]
    prodlib.finish_py_spy(spy)
    for c in children:
        c.join(timeout=30)
    pg.close()

    results = [r for part in parts for r in part["results"]]
    served = sorted(r["served"] for r in results if "served" in r)
    handshakes = sorted(r["handshake"] * 1000 for r in results if "handshake" in r)
    started = sorted(r["started"] for r in results if "started" in r)
    errors: collections.Counter = collections.Counter()
    for part in parts:
        errors.update(part["errors"])
    error_frames = collections.Counter(c for r in results for c in r.get("error_frames", []))
    opened = sum(part["opened"] for part in parts)
    figures = {
        "scenario": "storm",
        "target": args.target,
        "tables": len(slots),
        "sockets": len(sockets),
        "opened": opened,
        "processes": args.processes,
        "since": "plain" if args.plain else f"version-{args.behind}",
        "reconnect_delay_s": [args.delay_min, args.delay_max],
        "first_connect_s": connect_s,
        "reconnected": len(results),
        "served": len(served),
        "all_served_s": served[-1] if served and len(served) == len(results) else None,
        "last_served_s": served[-1] if served else None,
        "served_s": prodlib.summary(served),
        "handshake_ms": prodlib.summary(handshakes),
        "last_reconnect_started_s": started[-1] if started else None,
        "barrier_s": all_back_s,
        "events_replayed": sum(r.get("events", 0) for r in results),
        "snapshots": sum(r.get("snapshots", 0) for r in results),
        "errors": dict(errors),
        "error_frames": dict(error_frames),
        "rss_before_mb": rss_before,
        "rss_open_mb": rss_open,
        "rss_peak_mb": [max(s["rss_mb"][k] for s in timeline) for k in range(len(workers))]
        if timeline
        else rss_served,
        "rss_served_mb": rss_served,
        "celery_rss_mb": celery_rss,
        "pg_connections_open": pg_open,
        "pg_connections_peak": max([s["pg"] for s in timeline] + [pg_served]),
        "pg_connections_served": pg_served,
        "server_cpu_s_storm": storm_user + storm_system,
        "server_system_cpu_s_storm": storm_system,
        "machine_busy_percent_storm": busy_storm,
        "client_cpu_s": sum(part.get("cpu_s", 0.0) for part in parts),
        "timeline": timeline,
        "load_before": load_before,
        "load_at_drop": load_drop,
        "load_end": prodlib.loadavg(),
        "machine_cores": os.cpu_count(),
    }
    print_figures(figures)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2))


def print_figures(f: dict[str, Any]) -> None:
    where = "/ws/tables/<id>/" if f["target"] == "tables" else "/ws/ping/"
    print(
        f"storm: {f['sockets']} sockets on {where} ({f['tables']} tables' sessions), "
        f"{f['processes']} client processes, reconnect after "
        f"{f['reconnect_delay_s'][0]}-{f['reconnect_delay_s'][1]} s, since={f['since']}"
    )
    s, h = f["served_s"], f["handshake_ms"]
    rows = [
        ("first connect (all sockets)", f"{f['first_connect_s']:.1f} s ({f['opened']} opened)"),
        (
            "ALL SERVED after the drop",
            f"{f['all_served_s']:.2f} s"
            if f["all_served_s"] is not None
            else f"NOT ALL ({f['served']} of {f['reconnected']}; last {f['last_served_s']})",
        ),
        ("served p50 / p95 / p99", f"{s['p50']:.2f} / {s['p95']:.2f} / {s['p99']:.2f} s"),
        ("handshake p50 / p99 / max", f"{h['p50']:.0f} / {h['p99']:.0f} / {h['max']:.0f} ms"),
        ("replayed events / snapshots", f"{f['events_replayed']} / {f['snapshots']}"),
        ("errors", json.dumps(f["errors"]) if f["errors"] else "none"),
        ("error frames", json.dumps(f["error_frames"]) if f["error_frames"] else "none"),
        (
            "worker RSS before/open/peak/after",
            " | ".join(
                "/".join(f"{x:.0f}" for x in f[k])
                for k in ("rss_before_mb", "rss_open_mb", "rss_peak_mb", "rss_served_mb")
            )
            + " MB",
        ),
        (
            "PostgreSQL connections",
            f"open {f['pg_connections_open']}, peak {f['pg_connections_peak']}, "
            f"after {f['pg_connections_served']}",
        ),
        (
            "server CPU in the storm",
            f"{f['server_cpu_s_storm']:.1f} s (kernel {f['server_system_cpu_s_storm']:.1f} s); "
            f"machine busy {f['machine_busy_percent_storm']:.0f} %",
        ),
        ("client CPU", f"{f['client_cpu_s']:.1f} s"),
        (
            "load before / at drop / end",
            f"{f['load_before']} / {f['load_at_drop']} / {f['load_end']}",
        ),
    ]
    for name, value in rows:
        print(f"  {name:<34} {value}")


if __name__ == "__main__":
    main()
