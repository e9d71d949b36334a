"""Chaos: a live, rated Partie of four players spread over two web servers survives the loss of
a web server, of Redis, of PostgreSQL and of a worker process in the middle of the game.

Each scenario runs on a private stack (``tests.chaos.stack``): its own PostgreSQL and Redis,
two uvicorn processes, a Celery worker and beat. Seats 0 and 1 connect to the first web
server, seats 2 and 3 to the second. After every scenario the same invariants hold:

* no move lost and none applied twice: the table's event versions run 1..N without a gap,
  every card is played at most once per deal, and every move a player had acknowledged is
  stored exactly once, at the version of its ack;
* every player's state equals a fresh snapshot within 10 s of the end;
* the rating change of the Partie is applied exactly once (one job, four changes, one game
  each);
* the surviving web servers, the worker and beat are alive.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import psutil
import pytest

from tests.chaos.players import Player, fresh_snapshot
from tests.chaos.stack import Stack, wait_until

pytestmark = [pytest.mark.slow, pytest.mark.chaos]

PARTIE_SECONDS = 240.0
CONVERGE_SECONDS = 10.0


@pytest.fixture(scope="module")
def stack():
    """PostgreSQL and Redis of our own, with a migrated template database.

    Not under pytest's private temporary folders: the embedded server runs as a user of its
    own (when we are root), which must be able to reach its data directory."""
    root = Path(tempfile.mkdtemp(prefix="rosbi-chaos-"))
    root.chmod(0o755)
    stack = Stack(root=root)
    try:
        stack.start_postgres()
        stack.start_redis()
        stack.migrate_template()
        yield stack
    finally:
        stack.close()
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def platform(stack, request):
    """A fresh database and the platform's processes for one scenario."""
    stack.new_database(f"chaos_{request.node.callspec.id}")
    ports = [stack.start_web("web1"), stack.start_web("web2")]
    stack.start_worker()
    stack.start_beat()
    try:
        yield stack, ports
    finally:
        stack.stop_processes()
        for name in sorted(stack.logs):  # shown by pytest only when the scenario failed
            print(f"----- {name}\n{stack.log_tail(name)}")


def seat_players(stack: Stack, ports: list[int]) -> tuple[int, list[Player]]:
    """A started, rated table of four logged-in players (the load bench's set-up command)."""
    plan_file = stack.root / f"{stack.database}.json"
    stack.manage(
        "bench_tables", "--tables", "1", "--turn-seconds", "0", "--rated", "--out", str(plan_file)
    )
    plan = json.loads(Path(plan_file).read_text())
    slot = plan["slots"][0]
    table_id = slot["tables"][0]
    players = [
        Player(
            seat=seat,
            session=info["session"],
            table_id=table_id,
            servers=[ports[seat // 2], ports[1 - seat // 2]],
            cookie_name=plan["session_cookie"],
        )
        for seat, info in enumerate(slot["players"])
    ]
    return table_id, players


def moves_stored(stack: Stack, table_id: int) -> int:
    return stack.sql(
        "SELECT count(*) FROM games_tableevent WHERE table_id = %s AND kind = 'move'", (table_id,)
    )[0][0]


async def play_with_chaos(
    stack: Stack,
    ports: list[int],
    chaos: Callable[[Stack, list[Player], int], Awaitable[list[int]]],
    after_moves: int = 40,
) -> tuple[int, list[Player], list[int]]:
    """Play a whole Partie; once ``after_moves`` moves are stored, run ``chaos``, which
    returns the ports still serving. Returns the table, the players and those ports."""
    table_id, players = seat_players(stack, ports)
    stop = asyncio.Event()
    games = [asyncio.create_task(p.play(stop)) for p in players]
    try:
        deadline = time.monotonic() + PARTIE_SECONDS
        while moves_stored(stack, table_id) < after_moves:
            assert time.monotonic() < deadline, "the Partie did not get going"
            await asyncio.sleep(0.1)
        serving = await chaos(stack, players, table_id)
        done, _pending = await asyncio.wait(games, timeout=max(1.0, deadline - time.monotonic()))
        for task in done:
            task.result()  # a player that crashed fails the scenario with its error
        assert all(p.finished for p in players), {
            p.seat: (p.state or {}).get("version") for p in players
        }
    finally:
        stop.set()
        await asyncio.gather(*games, return_exceptions=True)
        await asyncio.gather(*(p.close() for p in players))
    return table_id, players, serving


async def check_invariants(stack: Stack, table_id: int, players: list[Player], ports: list[int]):
    # Every client converges on the server's truth.
    deadline = time.monotonic() + CONVERGE_SECONDS
    while True:
        fresh = [await fresh_snapshot(ports[0], p) for p in players]
        if all(p.state == snapshot for p, snapshot in zip(players, fresh, strict=True)):
            break
        assert time.monotonic() < deadline, "a client's state differs from a fresh snapshot"
        await asyncio.sleep(0.5)

    # No gap, no double: versions 1..N, each card once per deal, each ack stored once.
    events = stack.sql(
        "SELECT version, kind, data FROM games_tableevent WHERE table_id = %s ORDER BY version",
        (table_id,),
    )
    versions = [version for version, _kind, _data in events]
    assert versions == list(range(1, len(versions) + 1))
    moves = [(data["deal_number"], data["move"]) for _v, kind, data in events if kind == "move"]
    cards = [m for m in moves if m[1] != "pass"]
    assert len(cards) == len(set(cards)), "a card was played twice in one deal"
    by_version = {version: (kind, data) for version, kind, data in events}
    for player in players:
        for version, move in player.acked.items():
            kind, data = by_version[version]
            assert kind == "move" and data["move"] == move and data["seat"] == player.seat
    deals = stack.sql(
        "SELECT count(*) FROM games_partiedeal d JOIN games_partie p ON p.id = d.partie_id "
        "WHERE p.table_id = %s AND d.penalties IS NOT NULL",
        (table_id,),
    )[0][0]
    assert deals == 6

    # The rating change is applied once, whatever was killed on the way.
    def rated_once() -> bool:
        jobs = stack.sql(
            "SELECT r.status FROM ratings_ratedpartie r JOIN games_partie p ON p.id = r.partie_id"
            " WHERE p.table_id = %s",
            (table_id,),
        )
        changes = stack.sql(
            "SELECT count(*) FROM ratings_ratingchange c JOIN games_partie p "
            "ON p.id = c.partie_id WHERE p.table_id = %s",
            (table_id,),
        )[0][0]
        return jobs == [("applied",)] and changes == 4

    wait_until(rated_once, 60, "the rating change")
    games_played = stack.sql("SELECT games FROM ratings_playerrating ORDER BY user_id")
    assert [games for (games,) in games_played] == [1, 1, 1, 1]


async def no_chaos(stack: Stack, players: list[Player], table_id: int) -> list[int]:
    return [p for p in (players[0].servers[0], players[2].servers[0])]


async def kill_first_web_server(stack: Stack, players: list[Player], table_id: int) -> list[int]:
    stack.kill("web1")
    return [players[2].servers[0]]


async def restart_redis(stack: Stack, players: list[Player], table_id: int) -> list[int]:
    stack.kill_redis()
    await asyncio.sleep(2.0)  # moves go on meanwhile: stored, but no broadcast reaches anyone
    stack.start_redis()
    return [players[0].servers[0], players[2].servers[0]]


async def restart_postgres(stack: Stack, players: list[Player], table_id: int) -> list[int]:
    stack.stop_postgres()
    await asyncio.sleep(3.0)  # moves sent now are refused with "try again"
    stack.start_postgres()
    return [players[0].servers[0], players[2].servers[0]]


async def kill_worker_children_at_the_end(
    stack: Stack, players: list[Player], table_id: int
) -> list[int]:
    """Kill every worker child again and again from the last deal until the Partie is handed
    off: the game-end task is killed while it runs and must still take effect exactly once."""

    def finishing() -> bool:
        rows = stack.sql(
            "SELECT count(*) FROM games_partiedeal d JOIN games_partie p ON p.id = d.partie_id"
            " WHERE p.table_id = %s",
            (table_id,),
        )
        return rows[0][0] >= 6

    while not finishing():
        await asyncio.sleep(0.05)
    deadline = time.monotonic() + 8.0
    killed = 0
    while time.monotonic() < deadline:
        for child in stack.worker_children():
            with contextlib.suppress(psutil.NoSuchProcess):  # it may have exited meanwhile
                child.kill()
                killed += 1
        await asyncio.sleep(0.02)
    assert killed > 0
    return [players[0].servers[0], players[2].servers[0]]


SCENARIOS = {
    "calm": no_chaos,
    "web_killed": kill_first_web_server,
    "redis_restarted": restart_redis,
    "postgres_restarted": restart_postgres,
    "worker_child_killed": kill_worker_children_at_the_end,
}


@pytest.mark.parametrize("scenario", list(SCENARIOS))
async def test_a_partie_survives(platform, scenario):
    stack, ports = platform
    table_id, players, serving = await play_with_chaos(stack, ports, SCENARIOS[scenario])

    await check_invariants(stack, table_id, players, serving)
    for name in ["worker", "beat"] + [f"web{n + 1}" for n, p in enumerate(ports) if p in serving]:
        assert stack.alive(name), f"{name} died:\n{stack.log_tail(name)}"
    if scenario == "postgres_restarted":
        refused = sum(p.errors["unavailable"] for p in players)
        assert sum(p.errors.total() for p in players) == refused, [p.errors for p in players]
