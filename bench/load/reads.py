"""Page reads during play: an open loop of HTTP GETs while client.py's players play moves.

A child process runs the players (client.py's, open loop: a move per table every ``--period``
s). Once every socket is open and the warm-up is over, this process sends ``--rate`` requests
a second for ``--seconds`` s to one static file served by whitenoise (the baseline), then the same rate
for the same time to the public pages (round robin: ``/``, ``/lobby/``,
``/tournaments/``, ``/ladder/``, ``/rules/``, a table page (with a seated player's session,
the page needs a log-in), the replay page of a finished Partie), all during play. Every
second it counts PostgreSQL's backends of the database. Latency runs from the request's
*scheduled* time (an open loop: a late send counts against the server, not for it) until the
whole body is read; keep-alive connections are reused, new ones opened when all are busy.

    bench/load/prod.sh reads --rate 100 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import multiprocessing
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import client  # noqa: E402
import prodlib  # noqa: E402

REQUEST_TIMEOUT_S = 10.0
MAX_CONNECTIONS = 200


class Pool:
    """Keep-alive HTTP/1.1 connections to one host:port (plain asyncio streams)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
        self.opened = 0
        self.retried = 0
        self.limit = asyncio.Semaphore(MAX_CONNECTIONS)

    async def get(self, path: str, headers: dict[str, str]) -> tuple[int, int]:
        """(status, body bytes) of one GET; the connection goes back to the pool if kept."""
        async with self.limit:
            reused = bool(self.idle)
            if reused:
                reader, writer = self.idle.pop()
            else:
                reader, writer = await asyncio.open_connection(self.host, self.port)
                self.opened += 1
            lines = [f"GET {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
            lines += [f"{k}: {v}" for k, v in headers.items()]
            request = ("\r\n".join(lines) + "\r\n\r\n").encode()
            writer.write(request)
            try:
                status, size, keep = await read_response(reader)
            except (asyncio.IncompleteReadError, ConnectionError) as error:
                writer.close()
                stale = not getattr(error, "partial", b"")
                if not (reused and stale):
                    raise
                # The server closed this idle keep-alive connection (uvicorn: after 5 s) just
                # as the request went out; like every HTTP client, send a GET again on a new one.
                self.retried += 1
                reader, writer = await asyncio.open_connection(self.host, self.port)
                self.opened += 1
                writer.write(request)
                try:
                    status, size, keep = await read_response(reader)
                except BaseException:
                    writer.close()
                    raise
            except BaseException:
                writer.close()
                raise
            if keep:
                self.idle.append((reader, writer))
            else:
                writer.close()
            return status, size

    def close(self) -> None:
        for _, writer in self.idle:
            writer.close()
        self.idle = []


async def read_response(reader: asyncio.StreamReader) -> tuple[int, int, bool]:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    fields = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            fields[name.strip().lower()] = value.strip().lower()
    size = 0
    if "content-length" in fields:
        size = int(fields["content-length"])
        await reader.readexactly(size)
    elif fields.get("transfer-encoding") == "chunked":
        while True:
            chunk = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            await reader.readexactly(chunk + 2)
            size += chunk
            if chunk == 0:
                break
    else:
        size = len(await reader.read())
        return status, size, False
    return status, size, fields.get("connection") != "close"


async def open_loop(
    pool: Pool, targets: list[tuple[str, dict[str, str]]], rate: float, seconds: float
) -> dict[str, Any]:
    """``rate`` GETs a second for ``seconds``, targets in turn; figures per path and in all."""
    timed: list[tuple[str, float]] = []
    errors: collections.Counter = collections.Counter()
    sizes: dict[str, int] = {}
    lateness: list[float] = []
    slow_by_second: collections.Counter = collections.Counter()  # requests over 150 ms
    start = time.perf_counter() + 0.05
    total = int(rate * seconds)

    async def one(path: str, headers: dict[str, str], due: float) -> None:
        lateness.append(time.perf_counter() - due)
        try:
            status, size = await asyncio.wait_for(pool.get(path, headers), REQUEST_TIMEOUT_S)
        except TimeoutError:
            errors[f"{path}: timeout"] += 1
            return
        except Exception as error:  # noqa: BLE001 - counted
            errors[f"{path}: {type(error).__name__}"] += 1
            return
        if status != 200:
            errors[f"{path}: HTTP {status}"] += 1
        sizes[path] = size
        timed.append((path, (time.perf_counter() - due) * 1000))
        if timed[-1][1] > 150:
            slow_by_second[int(due - start)] += 1

    tasks = []
    for i in range(total):
        due = start + i / rate
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        path, headers = targets[i % len(targets)]
        tasks.append(asyncio.create_task(one(path, headers, due)))
    await asyncio.gather(*tasks)
    wall = time.perf_counter() - start
    per_path = {}
    for path, _ in targets:
        per_path[path] = {
            **prodlib.summary([ms for p, ms in timed if p == path]),
            "bytes": sizes.get(path),
        }
    return {
        "requests": total,
        "answered": len(timed),
        "rate_offered": rate,
        "rate_served": len(timed) / wall,
        "latency_ms": prodlib.summary([ms for _, ms in timed]),
        "per_path": per_path,
        "errors": dict(errors),
        "send_late_ms_max": max(lateness) * 1000 if lateness else None,
        "connections_opened": pool.opened,
        "stale_keepalive_retried": pool.retried,
        # When the tail happened: second of the run -> requests over 150 ms (bursts show here).
        "over_150ms_by_second": dict(sorted(slow_by_second.items())),
    }


class Sampler(threading.Thread):
    """PostgreSQL backends and the workers' CPU every second, tagged with the current phase."""

    def __init__(self, database: str, workers: list[Any]) -> None:
        super().__init__(daemon=True)
        self.pg = prodlib.PgConnections(database)
        self.workers = workers
        self.phase = "idle"
        self.samples: list[dict[str, Any]] = []
        self.stop = threading.Event()

    def run(self) -> None:
        cpu, at = prodlib.cpu_s(self.workers), time.monotonic()
        while not self.stop.wait(1.0):
            now_cpu, now = prodlib.cpu_s(self.workers), time.monotonic()
            self.samples.append(
                {
                    "phase": self.phase,
                    "pg": self.pg.count(),
                    "worker_cpu_percent": round(100 * (now_cpu - cpu) / (now - at), 1),
                }
            )
            cpu, at = now_cpu, now
        self.pg.close()


def finished_table(database: str) -> int | None:
    import psycopg

    with psycopg.connect(prodlib.PG_DSN.format(database=database)) as conn:
        row = conn.execute(
            "SELECT id FROM games_table WHERE status = 'finished' ORDER BY id DESC LIMIT 1"
        ).fetchone()
    return row[0] if row else None


def static_path() -> str:
    """The hashed name the pages link for css/site.css (collectstatic's manifest)."""
    manifest = Path("var/staticfiles/staticfiles.json")
    if manifest.exists():
        paths = json.loads(manifest.read_text())["paths"]
        return "/static/" + paths.get("css/site.css", "css/site.css")
    return "/static/css/site.css"


def phase_pg(samples: list[dict[str, Any]], phase: str) -> dict[str, Any]:
    totals = [s["pg"]["total"] for s in samples if s["phase"] == phase]
    cpu = [s["worker_cpu_percent"] for s in samples if s["phase"] == phase]
    return {
        "pg_min": min(totals) if totals else None,
        "pg_max": max(totals) if totals else None,
        "pg_series": totals,
        "worker_cpu_percent_mean": sum(cpu) / len(cpu) if cpu else None,
    }


async def http_phases(
    args: argparse.Namespace, plan: dict[str, Any], sampler: Sampler
) -> dict[str, Any]:
    host_port = args.origin.split("://", 1)[1]
    host, port = host_port.split(":")
    base = {"Accept": "text/html,*/*", "Accept-Encoding": "gzip, br", "User-Agent": "rosbi-bench"}
    slot = plan["slots"][0]
    cookie = f"{plan['session_cookie']}={slot['players'][0]['session']}"
    pages = [(p, base) for p in ("/", "/lobby/", "/tournaments/", "/ladder/", "/rules/")]
    pages.append((f"/tables/{slot['tables'][0]}/", {**base, "Cookie": cookie}))
    finished = finished_table(args.database)
    if finished is not None:
        pages.append((f"/tables/{finished}/replay/", base))
    static = [(static_path(), {**base, "Accept": "text/css,*/*"})]
    out: dict[str, Any] = {"replay_table": finished}
    # The baseline first: after the pages an overloaded server may still be rendering pages
    # whose clients gave up, which would slow the static file's phase too.
    for name, targets in (("static", static), ("pages", pages)):
        pool = Pool(host, int(port))
        sampler.phase = name
        spy = prodlib.start_py_spy(
            f"{args.py_spy}.{name}" if args.py_spy else None, args.worker_pid, args.seconds / 2
        )
        out[name] = await open_loop(pool, targets, args.rate, args.seconds)
        await asyncio.get_running_loop().run_in_executor(None, prodlib.finish_py_spy, spy)
        sampler.phase = "between"
        pool.close()
        await asyncio.sleep(1.0)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    prodlib.add_common_arguments(parser)
    parser.add_argument("--tables", type=int, default=0, help="first N tables play (0: all)")
    parser.add_argument("--period", type=float, default=5.0, help="s between a table's moves")
    parser.add_argument("--rate", type=float, default=100.0, help="requests per second")
    parser.add_argument("--seconds", type=float, default=60.0, help="per phase (pages, static)")
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--rounds", default="", help="plan rounds to play (default: as planned)")
    args = parser.parse_args()
    cookie_name, slots = prodlib.load_slots(args.plan, args.rounds, args.database, args.tables)
    plan = {"session_cookie": cookie_name}
    play = argparse.Namespace(
        url=args.url,
        origin=args.origin,
        mode="open",
        period=args.period,
        warmup=args.warmup,
        duration=2 * args.seconds + 5,
        cookie_name=cookie_name,
    )
    workers = prodlib.uvicorn_workers(args.server_pid)
    args.worker_pid = workers[0].pid
    celery = prodlib.celery_processes(args.celery_pids)
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(2)
    results = context.Queue()
    load_before = prodlib.loadavg()
    player = context.Process(target=client.client_process, args=(slots, play, barrier, results))
    player.start()
    sampler = Sampler(args.database, workers)
    sampler.start()
    barrier.wait(timeout=900)  # every socket open
    barrier.wait(timeout=60)  # play starts (warm-up first)
    time.sleep(args.warmup)
    busy = prodlib.MachineBusy()
    load_start = prodlib.loadavg()
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    http = asyncio.run(http_phases(args, {**plan, "slots": slots}, sampler))
    busy_percent = busy.read()
    load_end = prodlib.loadavg()
    moves = results.get(timeout=300)
    player.join(timeout=30)
    sampler.stop.set()
    sampler.join()
    latency = sorted(moves["latency_ms"])
    figures = {
        "scenario": "reads",
        "tables": len(slots),
        "sockets": moves["sockets_at_start"],
        "period_s": args.period,
        "rate": args.rate,
        "seconds": args.seconds,
        "replay_table": http["replay_table"],
        "pages": {**http["pages"], **phase_pg(sampler.samples, "pages")},
        "static": {**http["static"], **phase_pg(sampler.samples, "static")},
        "pg_all_max": max((s["pg"]["total"] for s in sampler.samples), default=None),
        "moves": {
            "moves_per_s": moves["moves_counted"] / play.duration,
            "p50": prodlib.percentile(latency, 0.50),
            "p99": prodlib.percentile(latency, 0.99),
            "errors": moves["errors"],
            "gaps": moves["gaps"],
        },
        "worker_rss_mb": [round(prodlib.rss_mb(w), 1) for w in workers],
        "celery_rss_mb": [round(prodlib.rss_mb(p), 1) for p in celery],
        "machine_busy_percent": busy_percent,
        "load_before": load_before,
        "load_start": load_start,
        "load_end": load_end,
        "machine_cores": os.cpu_count(),
    }
    print_figures(figures)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2))


def print_figures(f: dict[str, Any]) -> None:
    m = f["moves"]
    print(
        f"reads: {f['rate']:.0f} GET/s for {f['seconds']:.0f} s per phase while {f['tables']} "
        f"tables ({f['sockets']} sockets) play a move every {f['period_s']:g} s"
    )
    print(
        f"  moves during the reads: {m['moves_per_s']:.1f}/s, p50 {m['p50']:.1f} ms, "
        f"p99 {m['p99']:.1f} ms, errors {m['errors'] or 'none'}, gaps {m['gaps']}"
    )
    for name in ("pages", "static"):
        p = f[name]
        lat = p["latency_ms"]
        print(
            f"  {name:<7} served {p['rate_served']:.1f}/s ({p['answered']}/{p['requests']}), "
            f"p50 / p95 / p99 / max {lat['p50']:.1f} / {lat['p95']:.1f} / {lat['p99']:.1f} / "
            f"{lat['max']:.1f} ms, errors {p['errors'] or 'none'}, connections opened "
            f"{p['connections_opened']} ({p['stale_keepalive_retried']} for a GET sent again "
            f"after the server closed an idle keep-alive one), PostgreSQL backends {p['pg_min']}-{p['pg_max']}, "
            f"worker CPU {p['worker_cpu_percent_mean'] or 0:.0f} % of one core"
        )
        if name == "pages":
            for path, s in p["per_path"].items():
                print(
                    f"      {path:<28} p50 {s['p50']:.1f}  p99 {s['p99']:.1f}  max "
                    f"{s['max']:.1f} ms  ({s['bytes']} bytes)"
                )
    print(f"  PostgreSQL backends, max over the run: {f['pg_all_max']}")
    print(f"  machine busy {f['machine_busy_percent']:.0f} % of {f['machine_cores']} cores")
    print(f"  load before / start / end {f['load_before']} / {f['load_start']} / {f['load_end']}")


if __name__ == "__main__":
    main()
