"""Scripted websocket players for the live-tables load benchmark; prints a table of figures.

Four sockets per table, each logged in as the player of one seat (session cookies made by
``manage.py bench_tables``). The seat on turn plays a random card from the ``legal_moves`` of
its own frames; a move's latency runs from the send until all four seats have received the
``move`` event. Two ways of pacing:

* ``--mode open``: every table plays a move every ``--period`` seconds on average (uniform
  0.5-1.5 x period, random phase), whatever the server does: the offered load is fixed.
* ``--mode closed``: every table plays its next move as soon as all four seats saw the
  previous one: the figure is the throughput the stack can sustain.

Moves sent during ``--duration`` seconds (after ``--warmup``) count; then the client stops
sending, waits for the moves in flight and closes every socket. Run by ``bench/load/run.sh``;
by hand (server running, plan made):

    .venv/bin/python bench/load/client.py --plan var/bench_load/tables.json \
        --url ws://127.0.0.1:8765 --server-pid PID --mode closed --duration 60
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
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
import websockets

CONNECT_CONCURRENCY = 50
MOVE_TIMEOUT_SECONDS = 10.0
STALL_SECONDS = 20.0
DRAIN_SECONDS = 5.0


@dataclass
class Pending:
    """The one move in flight at a table."""

    seat: int
    move: str
    sent: float
    counted: bool
    acked: float | None = None
    seen_by: set[int] = field(default_factory=set)


@dataclass
class Player:
    number: int
    user_id: int
    session: str
    ws: Any = None
    version: int = -1
    legal: list[str] = field(default_factory=list)
    finished: bool = False
    snapshot: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class Stats:
    """What one client process measured (plain lists and counters: sent back to the parent)."""

    latency_ms: list[float] = field(default_factory=list)
    ack_ms: list[float] = field(default_factory=list)
    moves_counted: int = 0
    moves_total: int = 0
    errors: collections.Counter = field(default_factory=collections.Counter)
    gaps: int = 0
    late_ticks: int = 0
    parties_finished: int = 0
    sockets: int = 0
    sockets_at_start: int = 0


class Table:
    """One group of four players: its current table id, the sockets, and the move in flight."""

    def __init__(self, slot: dict[str, Any], args: argparse.Namespace, stats: Stats) -> None:
        self.table_ids: list[int] = slot["tables"]
        self.round = 0
        self.players = [
            Player(n, p["user_id"], p["session"]) for n, p in enumerate(slot["players"])
        ]
        self.args = args
        self.stats = stats
        self.pending: Pending | None = None
        self.changed = asyncio.Event()
        self.rng = random.Random()
        self.readers: list[asyncio.Task] = []

    @property
    def table_id(self) -> int:
        return self.table_ids[self.round]

    # ---------------------------------------------------------------- sockets

    async def connect(self, limit: asyncio.Semaphore) -> None:
        for player in self.players:
            player.version, player.legal, player.finished = -1, [], False
            player.snapshot.clear()
            async with limit:
                player.ws = await websockets.connect(
                    f"{self.args.url}/ws/tables/{self.table_id}/",
                    additional_headers={
                        "Cookie": f"{self.args.cookie_name}={player.session}",
                        "Origin": self.args.origin,
                    },
                    max_size=2**22,
                    ping_interval=None,
                    open_timeout=60,
                    close_timeout=2,
                )
            self.readers.append(asyncio.create_task(self.read(player)))
        for player in self.players:
            await asyncio.wait_for(player.snapshot.wait(), 60)
        self.stats.sockets += len(self.players)

    async def close(self) -> None:
        for player in self.players:
            if player.ws is not None:
                await player.ws.close()
        for reader in self.readers:
            reader.cancel()
        self.readers = []

    async def read(self, player: Player) -> None:
        try:
            async for raw in player.ws:
                self.on_frame(player, json.loads(raw), time.perf_counter())
        except websockets.ConnectionClosedError as closed:
            if not self.args.stopping:
                code = closed.rcvd.code if closed.rcvd is not None else "none"
                self.stats.errors[f"socket closed ({code})"] += 1
        finally:
            # Wake the driver: a table whose socket died must not wait for its timeouts.
            self.changed.set()

    # ---------------------------------------------------------------- frames

    def on_frame(self, player: Player, frame: dict[str, Any], now: float) -> None:
        kind = frame.get("type")
        if kind == "snapshot":
            player.version = frame["version"]
            deal = frame["deal"]
            mine = deal is not None and deal["turn"] == player.number
            player.legal = list(deal["legal_moves"]) if mine else []
            player.finished = frame["table"]["status"] == "finished"
            player.snapshot.set()
        elif kind == "event" and frame["version"] is not None:
            self.on_event(player, frame, now)
        elif kind == "ack":
            pending = self.pending
            if pending is not None and pending.seat == player.number and pending.acked is None:
                pending.acked = now
        elif kind == "error":
            self.stats.errors[frame.get("code") or "error"] += 1
            pending = self.pending
            if pending is not None and pending.seat == player.number:
                self.pending = None
            if frame.get("code") != "stale":  # a stale move gets a fresh snapshot next
                player.legal = []
        self.changed.set()

    def on_event(self, player: Player, frame: dict[str, Any], now: float) -> None:
        version = frame["version"]
        if version <= player.version:
            return
        if version > player.version + 1:
            self.stats.gaps += 1
        player.version = version
        event = frame["event"]
        kind = event["kind"]
        if kind == "move":
            player.legal = list(event["legal_moves"])
            pending = self.pending
            if pending is not None and event["seat"] == pending.seat:
                pending.seen_by.add(player.number)
                if len(pending.seen_by) == len(self.players):
                    self.complete(pending, now)
        elif kind == "deal_started":
            player.legal = list(event["legal_moves"])
        elif kind == "partie_finished":
            player.legal = []
            player.finished = True

    def complete(self, pending: Pending, now: float) -> None:
        self.pending = None
        self.stats.moves_total += 1
        if pending.counted:
            self.stats.moves_counted += 1
            self.stats.latency_ms.append((now - pending.sent) * 1000)
            if pending.acked is not None:
                self.stats.ack_ms.append((pending.acked - pending.sent) * 1000)

    # ---------------------------------------------------------------- playing

    async def wait_until(self, condition, timeout: float) -> bool:
        deadline = time.perf_counter() + timeout
        while not condition():
            left = deadline - time.perf_counter()
            if left <= 0:
                return False
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                return condition()
        return True

    def on_turn(self) -> Player | None:
        return next((p for p in self.players if p.legal), None)

    def over(self) -> bool:
        return any(p.finished for p in self.players)

    async def play(self, window: tuple[float, float], limit: asyncio.Semaphore) -> None:
        """Play this group's Parties, table after table, until the window closes."""
        start, end = window
        period = self.args.period
        tick = start - self.args.warmup + self.rng.uniform(0, period)
        while True:
            while not self.over():
                if self.args.mode == "open":
                    delay = tick - time.perf_counter()
                    if delay > 0:
                        await asyncio.sleep(delay)
                    elif delay < -period:
                        self.stats.late_ticks += 1
                    tick += period * self.rng.uniform(0.5, 1.5)
                if time.perf_counter() >= end:
                    return
                ready = await self.wait_until(
                    lambda: self.over() or (self.pending is None and self.on_turn() is not None),
                    STALL_SECONDS,
                )
                if not ready:
                    self.stats.errors["stalled table"] += 1
                    return
                if self.over():
                    break
                player = self.on_turn()
                assert player is not None
                move = self.rng.choice(player.legal)
                player.legal = []
                sent = time.perf_counter()
                self.pending = Pending(player.number, move, sent, counted=start <= sent < end)
                await player.ws.send(
                    json.dumps({"type": "move", "move": move, "version": player.version, "id": "m"})
                )
                done = await self.wait_until(lambda: self.pending is None, MOVE_TIMEOUT_SECONDS)
                if not done:
                    self.stats.errors["move timeout"] += 1
                    self.pending = None
            self.stats.parties_finished += 1
            if self.round + 1 >= len(self.table_ids) or time.perf_counter() >= end:
                return
            await self.close()
            self.round += 1
            await self.connect(limit)


# -------------------------------------------------------------------- one client process


async def run_tables(
    slots: list[dict[str, Any]], args: argparse.Namespace, barrier: Any, stats: Stats
) -> None:
    tables = [Table(slot, args, stats) for slot in slots]
    limit = asyncio.Semaphore(CONNECT_CONCURRENCY)
    await asyncio.gather(*(t.connect(limit) for t in tables))
    stats.sockets_at_start = stats.sockets
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, barrier.wait)  # all sockets open: the parent measures RSS
    await loop.run_in_executor(None, barrier.wait)  # released together
    start = time.perf_counter() + args.warmup
    window = (start, start + args.duration)
    await asyncio.gather(*(t.play(window, limit) for t in tables))
    drain_until = time.perf_counter() + DRAIN_SECONDS
    while any(t.pending is not None for t in tables) and time.perf_counter() < drain_until:
        await asyncio.sleep(0.05)
    args.stopping = True
    await asyncio.gather(*(t.close() for t in tables), return_exceptions=True)


def client_process(
    slots: list[dict[str, Any]], args: argparse.Namespace, barrier: Any, results: Any
) -> None:
    stats = Stats()
    args.stopping = False
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    cpu = time.process_time()
    try:
        asyncio.run(run_tables(slots, args, barrier, stats))
    except Exception as error:  # noqa: BLE001 - reported by the parent, never hangs it
        stats.errors[f"client crashed: {error!r}"] += 1
        barrier.abort()
    results.put(
        {
            "latency_ms": stats.latency_ms,
            "ack_ms": stats.ack_ms,
            "moves_counted": stats.moves_counted,
            "moves_total": stats.moves_total,
            "errors": dict(stats.errors),
            "gaps": stats.gaps,
            "late_ticks": stats.late_ticks,
            "parties_finished": stats.parties_finished,
            "sockets": stats.sockets,
            "sockets_at_start": stats.sockets_at_start,
            "cpu_seconds": time.process_time() - cpu,
        }
    )


# -------------------------------------------------------------------- the parent: measures


def server_workers(server_pid: int) -> list[psutil.Process]:
    """uvicorn's worker processes (children of the supervisor), Python ones only."""
    master = psutil.Process(server_pid)
    return [
        p
        for p in master.children(recursive=True)
        if "resource_tracker" not in " ".join(p.cmdline())
    ]


def backing_services(database: str) -> list[psutil.Process]:
    """The PostgreSQL backends serving ``database`` and the Redis server on 127.0.0.1:6379.

    Redis is shared with the rest of the machine (other DB numbers), so its CPU is an upper
    bound for the benchmark's share; backends opened during the run are found at the end.
    """
    found = []
    for process in psutil.process_iter(["name", "cmdline"]):
        title = " ".join(process.info["cmdline"] or [])
        if (process.info["name"] == "postgres" and f" {database} " in title) or (
            process.info["name"] == "redis-server" and ":6379" in title
        ):
            found.append(process)
    return found


def cpu_by_pid(processes: list[psutil.Process]) -> dict[int, float]:
    times = {}
    for process in processes:
        try:
            times[process.pid] = sum(process.cpu_times()[:2])
        except psutil.Error:
            continue
    return times


def rss_mb(processes: list[psutil.Process]) -> float:
    return sum(p.memory_info().rss for p in processes) / 2**20


def cpu_seconds(processes: list[psutil.Process]) -> float:
    return sum(sum(p.cpu_times()[:2]) for p in processes)


def percentile(ordered: list[float], fraction: float) -> float:
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plan", default="var/bench_load/tables.json")
    parser.add_argument("--url", default="ws://127.0.0.1:8765")
    parser.add_argument("--origin", default="http://127.0.0.1:8765")
    parser.add_argument("--server-pid", type=int, required=True, help="uvicorn supervisor pid")
    parser.add_argument("--mode", choices=["open", "closed"], default="closed")
    parser.add_argument("--tables", type=int, default=0, help="use the first N (0: all)")
    parser.add_argument("--period", type=float, default=5.0, help="open loop: s between moves")
    parser.add_argument("--duration", type=float, default=60.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds played unmeasured")
    parser.add_argument("--processes", type=int, default=1, help="client processes")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--database", default="rosbi_bench", help="for PostgreSQL CPU figures")
    args = parser.parse_args()

    plan = json.loads(Path(args.plan).read_text())
    slots = plan["slots"][: args.tables or None]
    args.cookie_name = plan["session_cookie"]
    workers = server_workers(args.server_pid)
    if not workers:
        sys.exit(f"no worker processes under pid {args.server_pid}")

    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(args.processes + 1)
    results = context.Queue()
    share = [slots[k :: args.processes] for k in range(args.processes)]
    rss_before = rss_mb(workers)
    load_before = os.getloadavg()
    children = [
        context.Process(target=client_process, args=(part, args, barrier, results))
        for part in share
    ]
    connect_began = time.perf_counter()
    for child in children:
        child.start()
    barrier.wait(timeout=600)
    connect_seconds = time.perf_counter() - connect_began
    rss_connected = rss_mb(workers)
    barrier.wait(timeout=60)
    time.sleep(args.warmup)
    cpu_start, wall_start = cpu_seconds(workers), time.perf_counter()
    services_start = cpu_by_pid(backing_services(args.database))
    system_start = psutil.cpu_times()
    time.sleep(args.duration)
    cpu_end, wall_end = cpu_seconds(workers), time.perf_counter()
    services_end = cpu_by_pid(backing_services(args.database))
    services_cpu = sum(t - services_start.get(pid, 0.0) for pid, t in services_end.items())
    system_end = psutil.cpu_times()
    load_during = os.getloadavg()
    rss_end = rss_mb(workers)
    parts = [results.get(timeout=120) for _ in children]
    for child in children:
        child.join(timeout=30)

    latency = sorted(v for part in parts for v in part["latency_ms"])
    acks = sorted(v for part in parts for v in part["ack_ms"])
    errors: collections.Counter = collections.Counter()
    for part in parts:
        errors.update(part["errors"])
    sockets = sum(part["sockets_at_start"] for part in parts)
    reconnected = sum(part["sockets"] for part in parts) - sockets
    moves = sum(part["moves_counted"] for part in parts)
    busy = sum(
        getattr(system_end, f) - getattr(system_start, f) for f in ("user", "system", "nice")
    )
    figures = {
        "mode": args.mode,
        "tables": len(slots),
        "sockets": sockets,
        "sockets_opened_later": reconnected,
        "period_s": args.period if args.mode == "open" else None,
        "duration_s": args.duration,
        "moves": moves,
        "moves_per_s": moves / args.duration,
        "latency_p50_ms": percentile(latency, 0.50),
        "latency_p95_ms": percentile(latency, 0.95),
        "latency_p99_ms": percentile(latency, 0.99),
        "latency_max_ms": latency[-1] if latency else float("nan"),
        "ack_p50_ms": percentile(acks, 0.50),
        "ack_p99_ms": percentile(acks, 0.99),
        "errors": dict(errors),
        "gaps": sum(part["gaps"] for part in parts),
        "late_ticks": sum(part["late_ticks"] for part in parts),
        "parties_finished": sum(part["parties_finished"] for part in parts),
        "connect_s": connect_seconds,
        "rss_before_mb": rss_before,
        "rss_connected_mb": rss_connected,
        "rss_end_mb": rss_end,
        "rss_kb_per_socket": (rss_connected - rss_before) * 1024 / max(1, sockets),
        "server_cpu_percent": 100 * (cpu_end - cpu_start) / (wall_end - wall_start),
        "server_cpu_ms_per_move": 1000 * (cpu_end - cpu_start) / max(1, moves),
        "services_cpu_ms_per_move": 1000 * services_cpu / max(1, moves),
        "machine_busy_percent": 100 * busy / (wall_end - wall_start) / (os.cpu_count() or 1),
        "client_cpu_s": sum(part["cpu_seconds"] for part in parts),
        "load_before": [round(x, 2) for x in load_before],
        "load_end": [round(x, 2) for x in load_during],
    }
    print_figures(figures)
    if args.json:
        with open(args.json, "w") as out:
            json.dump(figures, out, indent=2)


def print_figures(f: dict[str, Any]) -> None:
    pace = f"open loop, a move every {f['period_s']:.0f} s" if f["mode"] == "open" else "closed"
    print(f"{f['tables']} tables, {f['sockets']} sockets, {pace}, {f['duration_s']:.0f} s measured")
    rows = [
        ("moves/s", f"{f['moves_per_s']:.1f}  ({f['moves']} moves)"),
        (
            "latency p50 / p95 / p99",
            "{:.1f} / {:.1f} / {:.1f} ms".format(
                f["latency_p50_ms"], f["latency_p95_ms"], f["latency_p99_ms"]
            ),
        ),
        ("latency max", f"{f['latency_max_ms']:.1f} ms"),
        ("ack p50 / p99", f"{f['ack_p50_ms']:.1f} / {f['ack_p99_ms']:.1f} ms"),
        ("errors", json.dumps(f["errors"]) if f["errors"] else "none"),
        ("version gaps / late ticks", f"{f['gaps']} / {f['late_ticks']}"),
        (
            "Parties finished",
            f"{f['parties_finished']} ({f['sockets_opened_later']} sockets reopened)",
        ),
        ("connect all sockets", f"{f['connect_s']:.1f} s"),
        (
            "worker RSS before / open / end",
            "{:.0f} / {:.0f} / {:.0f} MB".format(
                f["rss_before_mb"], f["rss_connected_mb"], f["rss_end_mb"]
            ),
        ),
        ("RSS growth per socket", f"{f['rss_kb_per_socket']:.1f} KB"),
        (
            "server CPU (2 workers)",
            "{:.0f} % of one core, {:.2f} ms per move".format(
                f["server_cpu_percent"], f["server_cpu_ms_per_move"]
            ),
        ),
        ("PostgreSQL + Redis CPU", f"{f['services_cpu_ms_per_move']:.2f} ms per move"),
        ("machine busy", f"{f['machine_busy_percent']:.0f} % of {os.cpu_count()} cores"),
        ("client CPU", f"{f['client_cpu_s']:.1f} s"),
        ("load average before / end", f"{f['load_before']} / {f['load_end']}"),
    ]
    for name, value in rows:
        print(f"  {name:<32} {value}")


if __name__ == "__main__":
    main()
