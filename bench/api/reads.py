"""API v1 read benchmark: an open loop of GETs against a running server (issue 15's figures).

Two steps, against the same database (``DATABASE_URL``) the server uses::

    DATABASE_URL=... REDIS_URL=... .venv/bin/python bench/api/reads.py seed
    .venv/bin/python bench/api/reads.py run --server http://127.0.0.1:8791 \\
        --database rosbi_l --rate 100 --seconds 60

``seed`` (idempotent) makes 100,000 rated players, a 1,000-entrant event with standings, 55
finished public Parties (three random bots each) and 20 bench users with ``read`` tokens
(``var/bench_api/tokens.json``; a token's own throttle is 600 requests a minute, so the
requests go round the tokens). ``run`` sends ``--rate`` GETs a second for ``--seconds`` s,
round robin: the lobby (``/api/v1/tables``), a player's profile, a page of 50 finished
Parties, a leaderboard page (pages spread over the 100,000 players) and around-me, and the
standings of the 1,000-entrant event; latency from each request's scheduled time to its last
byte; PostgreSQL's backends of the database every second (flat means the pool holds). Figures
are printed and saved to ``var/bench_api/reads-<stamp>.json``. Targets (docs/performance.md):
p50 <= 20 ms, p99 <= 150 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

REPO_ROOT = Path(__file__).resolve().parents[2]
OUT_DIR = REPO_ROOT / "var" / "bench_api"
PLAYERS = 100_000
ENTRANTS = 1_000
PARTIES = 55
TOKEN_USERS = 20
EVENT_SLUG = "bench-api-1000"
# The same-run baseline: what every API request pays (token, middleware, DRF, one tiny answer).
BASELINE = "/api/v1/me"


def setup_django() -> None:
    sys.path.insert(0, str(REPO_ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rosbi_platform.settings")
    import django

    django.setup()


def seed() -> None:
    """Everything the read targets need; what exists already is kept."""
    setup_django()
    import datetime as dt

    from django.contrib.auth.hashers import make_password
    from django.utils import timezone

    from games import bot_turns, lobby
    from games.models import Partie
    from ratings.models import PlayerRating
    from rosbi_platform.accounts import tokens
    from rosbi_platform.accounts.models import Club, Profile, User
    from tournaments.models import Entry, Standing, Tournament

    now = timezone.now()
    rng = random.Random(15)
    password = make_password(None)
    have = User.objects.filter(username__startswith="api-rated-").count()
    for start in range(have, PLAYERS, 5000):
        batch = [
            User(username=f"api-rated-{n:06d}", password=password)
            for n in range(start, min(PLAYERS, start + 5000))
        ]
        users = User.objects.bulk_create(batch)
        Profile.objects.bulk_create([Profile(user=u, display_name=u.username) for u in users])
        PlayerRating.objects.bulk_create(
            [
                PlayerRating(
                    user=u,
                    mu=rng.gauss(1500, 150),
                    sigma=rng.uniform(60, 140),
                    games=rng.randint(0, 200),
                    last_played=now - dt.timedelta(days=rng.uniform(0, 45)),
                )
                for u in users
            ]
        )
        print(f"rated players: {start + len(users)}", flush=True)

    club, _ = Club.objects.get_or_create(slug="bench-api", defaults={"name": "Bench API"})
    event, created = Tournament.objects.get_or_create(
        slug=EVENT_SLUG,
        defaults={"club": club, "name": "Bench 1,000", "starts_at": now, "status": "finished"},
    )
    if created:
        entrants = list(User.objects.filter(username__startswith="api-rated-")[:ENTRANTS])
        entries = Entry.objects.bulk_create(
            [Entry(tournament=event, user=u, status="checked_in") for u in entrants]
        )
        Standing.objects.bulk_create(
            [
                Standing(
                    tournament=event,
                    entry=entry,
                    rank=rank,
                    points=float(ENTRANTS - rank),
                    penalty=float(rank),
                    opponents_points=0.0,
                    table_wins=0,
                    rounds_played=5,
                    rounds_absent=0,
                )
                for rank, entry in enumerate(entries, start=1)
            ]
        )
        print("event with 1,000 entrants and standings", flush=True)

    owner, _ = User.objects.get_or_create(username="api-bench-owner")
    played = Partie.objects.filter(table__owner=owner, finished_at__isnull=False).count()
    for _n in range(played, PARTIES):
        table = lobby.create_table(
            owner=owner, size=3, seat_owner=False, fill_with_bots=True, bot_level="random"
        )
        lobby.start_table(table.pk, owner)
        bot_turns.play_bot_turns(table.pk)
    print(f"finished Parties: {PARTIES}", flush=True)

    # Beat numbers the ladder every minute; a fresh seed is numbered here so pages exist at once.
    from ratings.leaderboard import refresh_leaderboard

    print(f"ranked players: {refresh_leaderboard()}", flush=True)

    OUT_DIR.mkdir(parents=True, exist_ok=True)
    secrets = []
    for n in range(TOKEN_USERS):
        user, _ = User.objects.get_or_create(username=f"api-bench-{n:02d}")
        secrets.append(tokens.create_token(user, "bench", ["read"]).secret)
    (OUT_DIR / "tokens.json").write_text(json.dumps(secrets))
    print(f"{len(secrets)} tokens in {OUT_DIR / 'tokens.json'}")


def targets(rng: random.Random) -> list[str]:
    """The read paths, in the order the open loop cycles through them."""
    pages = PLAYERS // 50 // 4  # ranked players are a fraction of the rated ones
    return [
        "/api/v1/tables",
        f"/api/v1/players/api-rated-{rng.randrange(PLAYERS):06d}",
        "/api/v1/parties?page_size=50",
        f"/api/v1/leaderboard?page={rng.randint(1, pages)}&page_size=50",
        "/api/v1/leaderboard/around-me",
        f"/api/v1/tournaments/{EVENT_SLUG}/standings",
    ]


def run(args: argparse.Namespace) -> None:
    sys.path.insert(0, str(REPO_ROOT / "bench" / "load"))
    import prodlib
    import reads as load_reads

    secrets = json.loads((OUT_DIR / "tokens.json").read_text())

    def make_plan(seed: int, seconds: float) -> list[tuple[str, dict[str, str]]]:
        rng = random.Random(seed)
        plan = []
        for i in range(int(args.rate * seconds)):
            round_robin = targets(rng)
            path = BASELINE if args.baseline else round_robin[i % len(round_robin)]
            plan.append((path, {"Authorization": f"Bearer {secrets[i % len(secrets)]}"}))
        return plan

    plan = make_plan(1, args.seconds)
    # Warm-up: the same mix at the same rate, other leaderboard pages and profiles (seed 2),
    # not counted: a freshly started server's first requests of each kind fill its caches,
    # pools and threads (in a cold run the first 3 s held most of the slow requests).
    warmup = make_plan(2, args.warmup) if args.warmup > 0 else []

    samples: list[dict[str, Any]] = []
    stop = threading.Event()

    def sample() -> None:
        pg = prodlib.PgConnections(args.database)
        while not stop.wait(1.0):
            samples.append(pg.count())
        pg.close()

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    server = urlparse(args.server)
    pool = load_reads.Pool(server.hostname or "127.0.0.1", server.port or 80)

    async def measure() -> dict[str, Any]:
        try:
            if warmup:
                await load_reads.open_loop(pool, warmup, args.rate, args.warmup)
            return await load_reads.open_loop(pool, plan, args.rate, args.seconds)
        finally:
            pool.close()  # inside the loop: its connections' transports need it

    figures = asyncio.run(measure())
    stop.set()
    sampler.join()
    totals = [s["total"] for s in samples]
    figures["pg_backends"] = {
        "min": min(totals, default=None),
        "max": max(totals, default=None),
        "first": totals[0] if totals else None,
        "last": totals[-1] if totals else None,
    }
    figures["loadavg"] = prodlib.loadavg()
    figures["warmup_seconds"] = args.warmup
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    out = OUT_DIR / f"reads-{time.strftime('%Y%m%d-%H%M%S')}.json"
    out.write_text(json.dumps(figures, indent=2, default=str))
    latency = figures["latency_ms"]
    figures["baseline"] = args.baseline
    print(
        f"{'baseline ' + BASELINE if args.baseline else 'API reads'}: "
        f"{figures['answered']}/{figures['requests']} answered at {figures['rate_served']:.1f}/s;"
        f" p50 {latency['p50']:.1f} ms, p99 {latency['p99']:.1f} ms;"
        f" errors {figures['errors'] or 'none'}; PostgreSQL backends {figures['pg_backends']}"
    )
    print(f"requests over 150 ms by second of the run: {figures['over_150ms_by_second']}")
    print(f"figures: {out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    steps = parser.add_subparsers(dest="step", required=True)
    steps.add_parser("seed", help="make the data (idempotent)")
    go = steps.add_parser("run", help="the open loop against a running server")
    go.add_argument("--server", default="http://127.0.0.1:8791")
    go.add_argument("--database", default="rosbi_l", help="for counting its backends")
    go.add_argument("--rate", type=float, default=100.0)
    go.add_argument("--seconds", type=float, default=60.0)
    go.add_argument(
        "--warmup", type=float, default=0.0, help="seconds of the same mix first, not counted"
    )
    go.add_argument(
        "--baseline", action="store_true", help=f"every request to {BASELINE} (the API's floor)"
    )
    args = parser.parse_args()
    if args.step == "seed":
        seed()
    else:
        run(args)


if __name__ == "__main__":
    main()
