"""Time ``recompute_all_ratings`` on 100,000 synthetic rated Parties stored in a database.

    .venv/bin/python bench/ratings/recompute.py                  # fresh SQLite file in var/
    .venv/bin/python bench/ratings/recompute.py --parties 20000
    DATABASE_URL=postgres://... .venv/bin/python bench/ratings/recompute.py --keep-db

Builds tables, Parties and their rating jobs (3-6 seats, 2,000 players, some bots and
leavers) with bulk inserts, then prints the seconds of a full recompute (maths in memory,
batched writes) and of a second, identical run. The budget is 15 s for 100,000 Parties.
Without DATABASE_URL it uses its own SQLite file and never touches the development database.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parties", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep-db", action="store_true", help="reuse existing synthetic rows")
    args = parser.parse_args()

    if "DATABASE_URL" not in os.environ:
        db_file = ROOT / "var" / "bench_ratings.sqlite3"
        db_file.parent.mkdir(exist_ok=True)
        if not args.keep_db and db_file.exists():
            db_file.unlink()
        os.environ["DATABASE_URL"] = f"sqlite:///{db_file}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rosbi_platform.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    from ratings import services
    from ratings.models import RatedPartie

    if not (args.keep_db and RatedPartie.objects.count() >= args.parties):
        started = time.perf_counter()
        build(args.parties, args.players, args.seed)
        print(f"built {args.parties:,} Parties in {time.perf_counter() - started:.1f} s")

    def quiet(done: int, total: int) -> None:
        return None

    from django.db import connection

    for run in (1, 2):
        started, cpu_started = time.perf_counter(), time.process_time()
        count = services.recompute_all_ratings(progress=quiet)
        seconds = time.perf_counter() - started
        cpu = time.process_time() - cpu_started
        print(
            f"recompute run {run}: {count:,} Parties in {seconds:.2f} s wall, "
            f"{cpu:.2f} s CPU of this process ({connection.vendor}; budget 15 s; "
            f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)"
        )


def build(parties: int, players: int, seed: int) -> None:
    """Synthetic history: users, finished rated tables and Parties, and their rating jobs."""
    from django.db import transaction

    from games.models import Partie, Table
    from ratings.models import PlayerRating, RatedPartie, RatingChange
    from rosbi_platform.accounts.models import User

    rng = random.Random(seed)
    batch = 5_000
    with transaction.atomic():
        RatingChange.objects.all().delete()
        PlayerRating.objects.all().delete()
        RatedPartie.objects.all().delete()
        Partie.objects.all().delete()
        Table.objects.filter(name__startswith="bench ").delete()
        User.objects.filter(username__startswith="bench").delete()
        User.objects.bulk_create(
            [User(username=f"bench{i}", password="!") for i in range(players)], batch_size=batch
        )
        user_ids = list(
            User.objects.filter(username__startswith="bench").values_list("pk", flat=True)
        )
        owner = user_ids[0]
        Table.objects.bulk_create(
            [
                Table(
                    name=f"bench {i}",
                    owner_id=owner,
                    size=4,
                    rated=True,
                    invite_code=f"b{i}",
                    status=Table.Status.FINISHED,
                )
                for i in range(parties)
            ],
            batch_size=batch,
        )
        table_ids = list(
            Table.objects.filter(name__startswith="bench ")
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        start = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)
        moments = [start + dt.timedelta(seconds=300 * i) for i in range(parties)]
        Partie.objects.bulk_create(
            [
                Partie(table_id=t, first_dealer=0, finished_at=m, handed_off=True)
                for t, m in zip(table_ids, moments, strict=True)
            ],
            batch_size=batch,
        )
        partie_ids = list(Partie.objects.order_by("pk").values_list("pk", flat=True))
        jobs = []
        for partie_id, moment in zip(partie_ids, moments, strict=True):
            size = rng.choice((3, 4, 4, 4, 5, 6))
            humans = rng.sample(user_ids, k=size if rng.random() < 0.9 else size - 1)
            people = []
            for seat in range(size):
                uid = humans[seat] if seat < len(humans) else None
                people.append(
                    {
                        "seat": seat,
                        "user_id": uid,
                        "bot_level": None if uid else "heuristic",
                        "total": rng.randint(0, 80),
                        "place": 1,
                        "left": uid is not None and rng.random() < 0.01,
                    }
                )
            jobs.append(
                RatedPartie(
                    partie_id=partie_id,
                    finished_at=moment,
                    participants=people,
                    status=RatedPartie.Status.PENDING,
                )
            )
        RatedPartie.objects.bulk_create(jobs, batch_size=batch)


if __name__ == "__main__":
    main()
