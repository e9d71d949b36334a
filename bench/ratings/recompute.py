"""Time ``recompute_all_ratings`` on 100,000 synthetic rated Parties stored in PostgreSQL.

    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/rosbi_bench_ratings
    .venv/bin/python bench/ratings/recompute.py                    # build, then time two runs
    .venv/bin/python bench/ratings/recompute.py --parties 20000
    .venv/bin/python bench/ratings/recompute.py --keep-db --reset  # reuse the rows, all pending
    .venv/bin/python bench/ratings/recompute.py --build-only        # build, time nothing
    .venv/bin/python bench/ratings/recompute.py --keep-db --runs first,same,changed,perturbed

Builds tables, Parties and their rating jobs (3-6 seats, 2,000 players, some bots and
leavers) with bulk inserts, then prints the seconds of a full recompute (maths in memory,
batched writes) and of a second, identical run. The budget is 15 s for 100,000 Parties.
DATABASE_URL is required and must name a database of the bench's own (it deletes every Partie
there), never the development database.

Run 1 is a first run only on a fresh build or with ``--reset`` (which deletes the rating
changes and ratings and marks every job pending); run 2 then finds everything applied.
``--runs`` lists the timed runs instead, each prepared (untimed) as named: ``first`` (reset),
``same`` (nothing changed), ``changed`` (a change of a rating parameter, the bots' fixed
rating: nearly every stored change differs), ``perturbed`` (every stored change nudged),
``thinned`` (nine stored changes in ten deleted); every run but ``first`` also prints how many
stored changes it rewrote or inserted.
Each run prints wall time, the CPU time of this process and of the server process serving
the connection (read from /proc: the server must be local), plus the load average: on a shared
machine wall time includes waiting for a CPU. It also prints how long this process (all
threads) and the server process waited for a CPU while runnable (``/proc/.../schedstat``): on
an idle machine those waits vanish, and since a first run streams its rows to the server while
the replay goes on (the server is then the longer chain), wall minus the server's wait
approximates the wall time of an idle machine.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import sys
import time
from pathlib import Path

from django.db.models import F

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parties", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep-db", action="store_true", help="reuse existing synthetic rows")
    parser.add_argument(
        "--reset", action="store_true", help="with --keep-db: make run 1 a first run again"
    )
    parser.add_argument(
        "--runs",
        default="as-is,same",
        help=(
            "comma-separated timed runs, each prepared (untimed) as named: as-is (nothing done), "
            "first (--reset first: nothing stored, every job pending), same (nothing changed), "
            "changed (RATINGS_BOT_MU moved by 100 first: every change after the first bot table "
            "differs), perturbed (every stored change's mu_after nudged first: all rows differ), "
            "thinned (nine stored changes in ten deleted first: a rerun that mostly inserts)"
        ),
    )
    parser.add_argument("--build-only", action="store_true", help="build the rows, time nothing")
    args = parser.parse_args()
    runs = args.runs.split(",")
    unknown = set(runs) - set(PREPARE)
    if unknown:
        parser.error(f"unknown runs: {', '.join(sorted(unknown))}")

    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        parser.error("set DATABASE_URL to a PostgreSQL database of the bench's own")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rosbi_platform.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    from ratings.models import RatedPartie
    from ratings.updates import recompute_all_ratings

    if not (args.keep_db and RatedPartie.objects.count() >= args.parties):
        started = time.perf_counter()
        build(args.parties, args.players, args.seed)
        print(f"built {args.parties:,} Parties in {time.perf_counter() - started:.1f} s")
    elif args.reset:
        reset()
    if args.build_only:
        return

    def quiet(done: int, total: int) -> None:
        return None

    for run, kind in enumerate(runs, start=1):
        PREPARE[kind]()
        before = snapshot_changes() if kind != "first" else None
        server_started = server_cpu()
        waits_started = run_queue_waits()
        started, cpu_started = time.perf_counter(), time.process_time()
        count = recompute_all_ratings(progress=quiet)
        seconds = time.perf_counter() - started
        cpu = time.process_time() - cpu_started
        server = server_cpu()
        waits = [end - begin for begin, end in zip(waits_started, run_queue_waits(), strict=True)]
        on_server = (
            f", {server - server_started:.2f} s CPU of the PostgreSQL server process"
            if server is not None and server_started is not None
            else ""
        )
        waited = " / ".join(f"{w:.2f}" for w in waits)
        differing = f", {differing_changes(before)} changes rewritten" if before else ""
        print(
            f"recompute run {run} ({kind}{differing}): {count:,} Parties in {seconds:.2f} s wall, "
            f"{cpu:.2f} s CPU of this process{on_server} (budget 15 s; "
            f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
            f"waited for a CPU: {waited} s this process / server)"
        )


def change_bot_mu() -> None:
    """A change of a rating parameter: the bots' fixed rating becomes a value no earlier run
    used (1600-1700, from the clock), so every Partie with a bot seat, and everything after it
    for the players who met that bot, rates differently. The run prints how many changes it
    rewrote."""
    from django.conf import settings

    settings.RATINGS_BOT_MU = 1600.0 + (time.time_ns() // 1000 % 100_000) / 1000
    vacuum()


def perturb() -> None:
    """Every stored rating change differs from the replay (``mu_after`` nudged)."""
    from django.db import transaction

    from ratings.models import RatingChange

    with transaction.atomic():
        RatingChange.objects.update(mu_after=F("mu_after") + 0.5)
    vacuum()


def thin() -> None:
    """Nine stored rating changes in ten are gone: a rerun that mostly inserts."""
    from django.db import connection, transaction

    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM ratings_ratingchange WHERE id % 10 <> 0")
    vacuum()


def snapshot_changes() -> str:
    """Copy the stored changes' keys and values aside, to count afterwards what a run rewrote."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE IF EXISTS bench_changes_before")
        cursor.execute(
            "CREATE TABLE bench_changes_before AS SELECT partie_id, user_id, mu_before, "
            "sigma_before, mu_after, sigma_after FROM ratings_ratingchange"
        )
    return "bench_changes_before"


def differing_changes(table: str) -> str:
    """How many changes differ from the copy ``snapshot_changes`` took (or are new), of all."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*), sum(CASE WHEN b.partie_id IS NULL OR b.mu_before <> c.mu_before "
            "OR b.sigma_before <> c.sigma_before OR b.mu_after <> c.mu_after "
            "OR b.sigma_after <> c.sigma_after THEN 1 ELSE 0 END) "
            f"FROM ratings_ratingchange c LEFT JOIN {table} b "
            "ON b.partie_id = c.partie_id AND b.user_id = c.user_id"
        )
        total, differing = cursor.fetchone()
        cursor.execute(f"DROP TABLE {table}")
    return f"{differing or 0:,} of {total:,}"


PREPARE = {
    "as-is": lambda: None,
    "first": lambda: reset(),
    "same": lambda: None,
    "changed": lambda: change_bot_mu(),
    "perturbed": lambda: perturb(),
    "thinned": lambda: thin(),
}


def backend_pid() -> int:
    """The pid of the PostgreSQL backend serving this connection."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def run_queue_waits() -> list[float]:
    """Seconds this process (all its threads) and the backend serving this connection
    (a local server) have spent runnable but waiting for a CPU (``schedstat``)."""

    def waited(pid: int) -> float:
        try:
            tasks = list(Path(f"/proc/{pid}/task").iterdir())
            return sum(int((t / "schedstat").read_text().split()[1]) for t in tasks) / 1e9
        except OSError:
            return 0.0

    pid = backend_pid()
    return [waited(os.getpid()), waited(pid)]


def server_cpu() -> float | None:
    """CPU seconds (user + system) of the PostgreSQL backend serving this connection, read
    from /proc (a local server only); None when it cannot be read."""
    pid = backend_pid()
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def reset() -> None:
    """Back to the state before any rating: no changes, no ratings, every job pending."""
    from django.db import transaction

    from ratings.models import PlayerRating, RatedPartie, RatingChange, RatingLedger

    with transaction.atomic():
        RatingChange.objects.all()._raw_delete(RatingChange.objects.db)
        PlayerRating.objects.all().delete()
        RatedPartie.objects.exclude(status=RatedPartie.Status.SKIPPED).update(
            status=RatedPartie.Status.PENDING, applied_at=None
        )
        RatingLedger.objects.update(applied=0, last_finished_at=None, last_partie_id=None)
    vacuum()


def vacuum() -> None:
    """Clean up the dead rows repeated resets leave (autovacuum lags far behind
    on a busy machine), so every run starts from the tables production would have."""
    from django.db import connection

    with connection.cursor() as cursor:
        for table in ("ratings_ratingchange", "ratings_ratedpartie", "ratings_playerrating"):
            cursor.execute(f"VACUUM ANALYZE {table}")


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
