"""Every write of the ratings app: recording finished Parties, applying and recomputing ratings,
the ranked queue and seasons.

Ratings of a pool change only while its ``RatingLedger`` row is locked, and always by replaying
rated Parties in ``(finished_at, partie_id)`` order through ``ratings.elo.update``. The same
replay serves the incremental task, a late arrival (rewind to the late Partie and replay what
follows) and the full recompute, which is why recompute equals incremental to the last bit.

House rules (see docs/ratings.md): bots take part in the maths as a fixed rating
(``RATINGS_BOT_MU``/``RATINGS_BOT_SIGMA``) and are never updated; a human who left a started
table is rated as last, with a total one point worse than the worst total at the table.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import math
import queue
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from django.conf import settings
from django.db import IntegrityError, OperationalError, connection, transaction
from django.db.models import F, Q, TextField
from django.db.models.functions import Cast
from django.utils import timezone
from django.utils.translation import gettext as _

from games.outcomes import PartieOutcome
from ratings import elo, matchmaking
from ratings.models import (
    LADDER_POOL,
    LadderQueueEntry,
    PlayerRating,
    RatedPartie,
    RatingChange,
    RatingLedger,
    Season,
    SeasonStanding,
)
from rosbi_platform.locking import in_row_lock, retry_on_conflict

logger = logging.getLogger(__name__)

T = TypeVar("T")
WRITE_BATCH = 5000
# A recompute inserting at least this many rating changes drops and rebuilds the history index.
REBUILD_INDEX_ABOVE = 50_000
# A PostgreSQL first run hands the rows of this many replayed Parties to the server at a time.
STREAM_JOBS = 5_000
HISTORY_INDEX = "change_history"
ProgressCallback = Callable[[int, int], None]


class QueueError(Exception):
    """A refused queue action, with a sentence for people."""


def _setting(name: str, default: Any) -> Any:
    return getattr(settings, name, default)


def bot_rating() -> elo.Rating:
    """The fixed rating a bot seat counts as (bots are never rated themselves)."""
    return elo.Rating(
        mu=float(_setting("RATINGS_BOT_MU", elo.INITIAL_MU)),
        sigma=float(_setting("RATINGS_BOT_SIGMA", elo.MIN_SIGMA)),
    )


def matchmaking_params() -> matchmaking.MatchmakingParams:
    """``MatchmakingParams`` with any field overridden by the ``RATINGS_MATCHMAKING`` dict."""
    return matchmaking.MatchmakingParams(**_setting("RATINGS_MATCHMAKING", {}))


# --------------------------------------------------------------------------- locking


def _with_ledger(pool: str, work: Callable[[RatingLedger], T]) -> T:
    """Run ``work`` in a transaction holding the pool's ledger row lock
    (``rosbi_platform.locking``); the ledger row is created first when missing."""

    def attempt() -> T:
        _ensure_ledger(pool)
        return in_row_lock(RatingLedger, work, pool=pool)

    return retry_on_conflict(attempt)


def _ensure_ledger(pool: str) -> None:
    """Create the pool's ledger row once; a concurrent creator wins the unique constraint."""
    if RatingLedger.objects.filter(pool=pool).exists():
        return
    try:
        with transaction.atomic():
            RatingLedger.objects.get_or_create(pool=pool)
    except IntegrityError:
        pass


# --------------------------------------------------------------------------- recording


def participants_of(outcome: PartieOutcome) -> list[dict[str, Any]]:
    """The rating input of a finished Partie: one entry per seat, leavers marked."""
    return [
        {
            "seat": seat.seat,
            "user_id": seat.user_id,
            "bot_level": seat.bot_level,
            "total": seat.total,
            "place": seat.place,
            "left": seat.left,
        }
        for seat in sorted(outcome.seats, key=lambda s: s.seat)
    ]


def _rated_humans(participants: list[dict[str, Any]]) -> int:
    return len({p["user_id"] for p in participants if p["user_id"] is not None})


def record_finished_partie(outcome: PartieOutcome) -> RatedPartie | None:
    """The ``partie_finished`` receiver: store the rating job and queue the task after commit.

    Runs inside the hand-off transaction, so the job commits with the hand-off or not at all.
    Firing twice stores one job (unique Partie); the task itself is idempotent.
    """
    if not outcome.rated:
        return None
    pool = outcome.rating_pool or LADDER_POOL
    participants = participants_of(outcome)
    status = (
        RatedPartie.Status.PENDING
        if _rated_humans(participants) >= 2
        else RatedPartie.Status.SKIPPED
    )
    try:
        with transaction.atomic():
            job, _created = RatedPartie.objects.get_or_create(
                partie_id=outcome.partie_id,
                defaults={
                    "pool": pool,
                    "finished_at": outcome.finished_at,
                    "participants": participants,
                    "status": status,
                },
            )
    except IntegrityError:
        job = RatedPartie.objects.get(partie_id=outcome.partie_id)
    if job.status == RatedPartie.Status.PENDING:
        from ratings.tasks import apply_pending_ratings_task

        transaction.on_commit(lambda: apply_pending_ratings_task.delay(pool))
    return job


# --------------------------------------------------------------------------- the replay


# A player's state during a replay: ``(mu, sigma, games, last_played as POSIX seconds,
# last_played as a datetime)``. Plain tuples, because the replay of 100,000 Parties creates
# about 430,000 of them; the first four items are what ``elo.update_values`` reads.
_State = tuple[float, float, int, float | None, dt.datetime | None]
_NEWCOMER: _State = (elo.INITIAL_MU, elo.INITIAL_SIGMA, 0, None, None)


def _state(rating: elo.Rating, last_played: dt.datetime | None) -> _State:
    return (rating.mu, rating.sigma, rating.games, rating.last_played, last_played)


def _rating(state: _State) -> elo.Rating:
    return elo.Rating(mu=state[0], sigma=state[1], games=state[2], last_played=state[3])


@dataclass(frozen=True)
class _Job:
    partie_id: int
    finished_at: dt.datetime
    participants: list[dict[str, Any]]

    @property
    def key(self) -> tuple[dt.datetime, int]:
        return (self.finished_at, self.partie_id)


@dataclass(frozen=True)
class _Reset:
    closed_at: dt.datetime
    pull: float
    sigma_bump: float


def soft_reset(rating: elo.Rating, pull: float, sigma_bump: float) -> elo.Rating:
    """A new season: mu moves ``pull`` of the way to 1500 and sigma grows by ``sigma_bump``
    (added in quadrature, capped at the newcomer value), so old ranks must be re-earned."""
    mu = elo.INITIAL_MU + (rating.mu - elo.INITIAL_MU) * (1.0 - pull)
    sigma = min(elo.INITIAL_SIGMA, math.hypot(rating.sigma, sigma_bump))
    return replace(rating, mu=mu, sigma=sigma)


# One rating change as written: the columns of ``_CHANGE_COLUMNS`` after ``pool``.
ChangeRow = tuple[Any, ...]
_CHANGE_COLUMNS = (
    "pool",
    "partie_id",
    "user_id",
    "finished_at",
    "seat",
    "total",
    "place",
    "left",
    "mu_before",
    "sigma_before",
    "games_before",
    "last_played_before",
    "mu_after",
    "sigma_after",
)


def _rate_job(job: _Job, states: dict[int, _State], bot: _State, changes: list[ChangeRow]) -> None:
    """Apply one Partie to ``states`` in memory; append the rating-change rows it causes."""
    people = job.participants
    if _rated_humans(people) < 2:
        return
    worst = max(p["total"] for p in people)
    totals = [worst + 1 if p["left"] else p["total"] for p in people]
    last_place = len(people)
    players = [bot if p["user_id"] is None else states.get(p["user_id"], _NEWCOMER) for p in people]
    finished_at = job.finished_at
    after = elo.update_values(players, totals, finished_at.timestamp())
    partie_id = job.partie_id
    for p, old, new in zip(people, players, after, strict=True):
        uid = p["user_id"]
        if uid is None:
            continue
        states[uid] = (*new, finished_at)
        changes.append(
            (
                partie_id,
                uid,
                finished_at,
                p["seat"],
                p["total"],
                last_place if p["left"] else p["place"],
                p["left"],
                old[0],
                old[1],
                old[2],
                old[4],
                new[0],
                new[1],
            )
        )


def _replay(
    jobs: list[_Job],
    states: dict[int, _State],
    resets: list[_Reset],
    progress: ProgressCallback | None = None,
    sink: Callable[[list[ChangeRow]], None] | None = None,
) -> list[ChangeRow]:
    """Apply jobs in order (season resets in between) to ``states``; all change rows.

    With ``sink``, the rows go to it instead, every ``STREAM_JOBS`` jobs and at the end (so
    the database can store them while the replay goes on), and nothing is returned."""
    bot = _state(bot_rating(), None)
    changes: list[ChangeRow] = []
    pending_resets = sorted(resets, key=lambda r: r.closed_at)
    next_reset = 0
    step = max(1, len(jobs) // 100)
    for index, job in enumerate(jobs):
        while next_reset < len(pending_resets) and pending_resets[next_reset].closed_at <= (
            job.finished_at
        ):
            _reset_states(states, pending_resets[next_reset])
            next_reset += 1
        _rate_job(job, states, bot, changes)
        if progress is not None and (index + 1) % step == 0:
            progress(index + 1, len(jobs))
        if sink is not None and (index + 1) % STREAM_JOBS == 0 and changes:
            sink(changes)
            changes = []
    for reset in pending_resets[next_reset:]:
        _reset_states(states, reset)
    if sink is not None:
        if changes:
            sink(changes)
        return []
    return changes


class _Converted(dict[Any, Any]):
    """``convert(value)`` for each distinct value, computed on first lookup: the 850,000
    datetimes of a recompute are 100,000 distinct ones. ``None`` becomes ``none``."""

    def __init__(self, convert: Callable[[Any], Any], none: Any = None) -> None:
        super().__init__({None: none})
        self.convert = convert

    def __missing__(self, key: Any) -> Any:
        value = self[key] = self.convert(key)
        return value


def _datetime_adapter() -> _Converted:
    """Datetimes as the database takes them as parameters (text on SQLite)."""
    if connection.vendor == "sqlite" and settings.USE_TZ:
        # What SQLite's adapt_datetimefield_value does to an aware value, minus its checks.
        tz = connection.timezone
        return _Converted(
            lambda m: (
                str(m.astimezone(tz).replace(tzinfo=None)) if m.utcoffset() is not None else str(m)
            )
        )
    return _Converted(connection.ops.adapt_datetimefield_value)


def _insert_changes(
    pool: str, changes: list[ChangeRow], a: _Converted | None = None, bulk: bool = False
) -> None:
    """Insert rating changes: ``COPY`` on PostgreSQL, else ``executemany`` in batches. At
    100,000 Parties the ORM's per-value SQL compilation costs more than the maths.

    ``bulk``: the recompute is (re)writing the whole pool, so the history index may be
    rebuilt (``_rebuild_history_index``); never for the incremental task, whose few rows
    would not pay for rebuilding the index over the whole table."""
    if not changes:
        return
    if connection.vendor == "postgresql":
        _copy_changes(pool, changes, bulk)
        return
    qn = connection.ops.quote_name
    columns = ", ".join(qn(c) for c in _CHANGE_COLUMNS)
    marks = ", ".join(["%s"] * len(_CHANGE_COLUMNS))
    sql = f"INSERT INTO {qn(RatingChange._meta.db_table)} ({columns}) VALUES ({marks})"
    a = a if a is not None else _datetime_adapter()
    with _rebuild_history_index(len(changes) if bulk else 0), connection.cursor() as cursor:
        for start in range(0, len(changes), WRITE_BATCH):
            cursor.executemany(
                sql,
                [
                    (pool, *row[:2], a[row[2]], *row[3:10], a[row[10]], *row[11:])
                    for row in changes[start : start + WRITE_BATCH]
                ],
            )


@contextmanager
def _rebuild_history_index(rows: int) -> Iterator[None]:
    """Around a bulk insert of ``rows`` rating changes: drop the ``change_history`` index
    first and build it again afterwards, in one sorted pass.

    Its keys arrive in random order, so keeping it up to date row by row made the insert of
    400,000 changes about twice as slow on SQLite and two to three times on PostgreSQL.
    Safe: DDL is transactional on both, and the caller holds the ledger lock inside one
    transaction, so any error rolls the index back with the rows. SQLite readers see the
    committed state (with the index) meanwhile; PostgreSQL readers of the table wait for the
    commit instead, as ``DROP INDEX`` locks it. PostgreSQL refuses to build an index on a table with pending deferred
    foreign-key checks, so those run first (the same checks the commit would run).
    """
    if rows < REBUILD_INDEX_ABOVE:
        yield
        return
    qn = connection.ops.quote_name
    table = RatingChange._meta.db_table
    index = next(i for i in RatingChange._meta.indexes if i.name == HISTORY_INDEX)
    columns = ", ".join(qn(RatingChange._meta.get_field(name).column) for name in index.fields)
    with connection.cursor() as cursor:
        cursor.execute(f"DROP INDEX {qn(HISTORY_INDEX)}")
    yield
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            keys = _change_foreign_keys()
            if keys:
                cursor.execute(f"SET CONSTRAINTS {keys} IMMEDIATE")
                cursor.execute(f"SET CONSTRAINTS {keys} DEFERRED")
        cursor.execute(f"CREATE INDEX {qn(HISTORY_INDEX)} ON {qn(table)} ({columns})")


def _change_foreign_keys() -> str:
    """PostgreSQL: the quoted names of ``RatingChange``'s foreign-key constraints, joined."""
    qn = connection.ops.quote_name
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, RatingChange._meta.db_table)
    return ", ".join(qn(name) for name, c in constraints.items() if c["foreign_key"])


def _replace_pool_changes(pool: str, changes: list[ChangeRow]) -> None:
    """Make the pool's stored rating changes exactly ``changes``, writing only what differs
    (SQLite; PostgreSQL does the same on the server, see ``_reconcile_statements``).

    The stored rows are read once and compared with the replay's, value for value as the
    database holds them (datetimes as the stored text: parsing 850,000 datetimes costs more
    than the whole replay). A row with the same key (Partie, player) and other values is
    updated in place, keeping its primary key; rows the replay no longer produced are deleted,
    new ones inserted. So a rerun over an unchanged history writes no rating change at all, a
    rerun after a change of the rating parameters rewrites values but deletes and inserts
    nothing, and the first run (nothing stored) only inserts.
    """
    if not RatingChange.objects.filter(pool=pool).exists():
        _insert_changes(pool, changes, bulk=True)
        return
    qn = connection.ops.quote_name
    table = qn(RatingChange._meta.db_table)
    position = {(row[0], row[1]): i for i, row in enumerate(changes)}
    a = _datetime_adapter()
    moment_sql = "CAST({} AS TEXT)" if connection.vendor == "sqlite" else "{}"
    columns = ", ".join(
        moment_sql.format(qn(c)) if c in ("finished_at", "last_played_before") else qn(c)
        for c in ("id", *_CHANGE_COLUMNS[1:])
    )
    select = f"SELECT {columns} FROM {table} WHERE {qn('pool')} = %s"
    to_delete: list[tuple[int]] = []
    # Rows whose values differ, as parameters of ``update``: the values after the key, then
    # the primary key. ``finished_at`` is set only where it differs: SQLite rewrites the
    # ``change_history`` entry of every row whose UPDATE sets an indexed column, even to the
    # same value (an index delete and insert in the statement's program).
    to_update: list[tuple[Any, ...]] = []
    to_move: list[tuple[Any, ...]] = []
    with connection.cursor() as cursor:
        cursor.execute(select, [pool])
        while stored_rows := cursor.fetchmany(WRITE_BATCH):
            for pk, *stored in stored_rows:
                i = position.pop((stored[0], stored[1]), None)
                if i is None:
                    to_delete.append((pk,))
                    continue
                row = changes[i]
                values = [*row[:2], a[row[2]], *row[3:10], a[row[10]], *row[11:]]
                if stored != values:
                    if stored[2] == values[2]:
                        to_update.append((*values[3:], pk))
                    else:
                        to_move.append((*values[2:], pk))
    rest = [qn(c) for c in _CHANGE_COLUMNS[4:]]
    update = "UPDATE {} SET {} WHERE {} = %s".format(
        table, ", ".join(f"{c} = %s" for c in rest), qn("id")
    )
    move = "UPDATE {} SET {} = %s, {} WHERE {} = %s".format(
        table, qn("finished_at"), ", ".join(f"{c} = %s" for c in rest), qn("id")
    )
    with connection.cursor() as cursor:
        for sql, params in (
            (f"DELETE FROM {table} WHERE {qn('id')} = %s", to_delete),
            (update, to_update),
            (move, to_move),
        ):
            for start in range(0, len(params), WRITE_BATCH):
                cursor.executemany(sql, params[start : start + WRITE_BATCH])
    new = sorted(position.values())
    _insert_changes(
        pool, changes if len(new) == len(changes) else [changes[i] for i in new], a, True
    )


def _reset_states(states: dict[int, _State], reset: _Reset) -> None:
    for uid, state in states.items():
        states[uid] = _state(soft_reset(_rating(state), reset.pull, reset.sigma_bump), state[4])


def _state_of_row(row: PlayerRating) -> _State:
    return (row.mu, row.sigma, row.games, _ts(row.last_played), row.last_played)


def _ts(moment: dt.datetime | None) -> float | None:
    return moment.timestamp() if moment is not None else None


def _copy_changes(pool: str, changes: list[ChangeRow], bulk: bool = False) -> None:
    """PostgreSQL: ``COPY ... FROM STDIN`` in text format, the lines built here.

    Formatting the rows ourselves (``repr`` of a float is its shortest exact text, which
    PostgreSQL reads back to the same double) costs half the CPU of psycopg's ``write_row``.
    A bulk insert also drops ``change_history`` and builds it afterwards (see
    ``_rebuild_history_index``).
    """
    lines = _CopyLines(pool)
    with (
        _rebuild_history_index(len(changes) if bulk else 0),
        connection.cursor() as cursor,
        cursor.cursor.copy(_copy_statement()) as copy,
    ):
        for start in range(0, len(changes), WRITE_BATCH):
            copy.write(lines(changes[start : start + WRITE_BATCH]))


def _copy_statement() -> str:
    qn = connection.ops.quote_name
    columns = ", ".join(qn(c) for c in _CHANGE_COLUMNS)
    return f"COPY {qn(RatingChange._meta.db_table)} ({columns}) FROM STDIN"


class _CopyLines:
    """Rating-change rows of one pool as lines of ``COPY``'s text format."""

    def __init__(self, pool: str) -> None:
        self.a = _Converted(dt.datetime.isoformat, none="\\N")
        self.prefix = _copy_text(pool) + "\t"

    def __call__(self, changes: list[ChangeRow]) -> str:
        a, prefix = self.a, self.prefix
        return "".join(
            [
                f"{prefix}{r[0]}\t{r[1]}\t{a[r[2]]}\t{r[3]}\t{r[4]}\t{r[5]}\t"
                f"{'t' if r[6] else 'f'}\t{r[7]!r}\t{r[8]!r}\t{r[9]}\t{a[r[10]]}\t"
                f"{r[11]!r}\t{r[12]!r}\n"
                for r in changes
            ]
        )


def _copy_text(value: str) -> str:
    """A string as a field of PostgreSQL's COPY text format."""
    for char, escaped in (("\\", "\\\\"), ("\t", "\\t"), ("\n", "\\n"), ("\r", "\\r")):
        value = value.replace(char, escaped)
    return value


def _write_states(pool: str, states: dict[int, _State], reset_others: bool = False) -> None:
    """Store ``states`` as the pool's PlayerRating rows (created where missing)."""
    existing = dict(PlayerRating.objects.filter(pool=pool).values_list("user_id", "pk"))
    updates = []
    to_create = []
    adapt = connection.ops.adapt_datetimefield_value
    now = timezone.now()
    for uid, (mu, sigma, games, _seconds, last_played) in states.items():
        pk = existing.pop(uid, None)
        if pk is None:
            to_create.append(
                PlayerRating(
                    user_id=uid, pool=pool, mu=mu, sigma=sigma, games=games, last_played=last_played
                )
            )
        else:
            played = adapt(last_played) if last_played is not None else None
            updates.append((mu, sigma, games, played, adapt(now), pk))
    if reset_others:
        for pk in existing.values():
            updates.append((elo.INITIAL_MU, elo.INITIAL_SIGMA, 0, None, adapt(now), pk))
    PlayerRating.objects.bulk_create(to_create, batch_size=WRITE_BATCH)
    if updates:
        qn = connection.ops.quote_name
        sql = (
            f"UPDATE {qn(PlayerRating._meta.db_table)} SET {qn('mu')} = %s, {qn('sigma')} = %s, "
            f"{qn('games')} = %s, {qn('last_played')} = %s, {qn('updated')} = %s "
            f"WHERE {qn('id')} = %s"
        )
        with connection.cursor() as cursor:
            for start in range(0, len(updates), WRITE_BATCH):
                cursor.executemany(sql, updates[start : start + WRITE_BATCH])


def _jobs(queryset: Any) -> list[_Job]:
    """Jobs in finishing order; the JSON is fetched as text and decoded here, which at
    100,000 rows is a third faster than the field's per-value converter."""
    return _decode_jobs(_job_rows(queryset))


_JobRow = tuple[int, dt.datetime, str]


def _job_rows(queryset: Any) -> list[_JobRow]:
    """``(partie_id, finished_at, participants as JSON text)`` in finishing order."""
    sql, params = (
        queryset.order_by("finished_at", "partie_id")
        .annotate(people=Cast("participants", TextField()))
        .values_list("partie_id", "finished_at", "people")
        .query.sql_with_params()
    )
    # A plain cursor: the ORM's per-row converters cost more than the rest of the load.
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _decode_jobs(rows: list[_JobRow]) -> list[_Job]:
    """The jobs of ``_job_rows``; touches no database (it runs while the server works)."""
    if rows and settings.USE_TZ and timezone.is_naive(rows[0][1]):
        tz = connection.timezone  # SQLite: naive datetimes in the connection's zone
        return [_Job(pid, m.replace(tzinfo=tz), json.loads(people)) for pid, m, people in rows]
    return [_Job(pid, finished, json.loads(people)) for pid, finished, people in rows]


def _after_key(key: tuple[dt.datetime, int], inclusive: bool = False) -> Q:
    moment, partie_id = key
    tail = Q(partie_id__gte=partie_id) if inclusive else Q(partie_id__gt=partie_id)
    return Q(finished_at__gt=moment) | (Q(finished_at=moment) & tail)


def _resets(pool: str, after: dt.datetime | None = None) -> list[_Reset]:
    seasons = Season.objects.filter(pool=pool, closed_at__isnull=False)
    if after is not None:
        seasons = seasons.filter(closed_at__gt=after)
    return [_Reset(s.closed_at, s.reset_pull, s.reset_sigma) for s in seasons]


def _advance_ledger(
    ledger: RatingLedger, key: tuple[dt.datetime, int] | None, applied: int
) -> None:
    if key is not None and (
        ledger.last_finished_at is None
        or key > (ledger.last_finished_at, ledger.last_partie_id or 0)
    ):
        ledger.last_finished_at, ledger.last_partie_id = key
    ledger.applied = applied
    ledger.save(update_fields=["applied", "last_finished_at", "last_partie_id"])


# --------------------------------------------------------------------------- applying


def apply_pending_ratings(pool: str = LADDER_POOL) -> int:
    """Apply every pending rated Partie of ``pool`` in finishing order; the number applied.

    Safe to run any number of times and concurrently: the ledger lock serialises runs, and a
    job is applied only while still pending under that lock. A job that sorts before the last
    applied one (its hand-off was late) rewinds the pool to it and replays what follows.
    """
    return _with_ledger(pool, _apply_pending_locked)


def _apply_pending_locked(ledger: RatingLedger) -> int:
    pool = ledger.pool
    pending = _jobs(RatedPartie.objects.filter(pool=pool, status=RatedPartie.Status.PENDING))
    if not pending:
        return 0
    high_water = (
        (ledger.last_finished_at, ledger.last_partie_id or 0)
        if ledger.last_finished_at is not None
        else None
    )
    if high_water is not None and pending[0].key < high_water:
        return _rewind_and_replay(ledger, pending)
    user_ids = {p["user_id"] for job in pending for p in job.participants if p["user_id"]}
    states = {
        row.user_id: _state_of_row(row)
        for row in PlayerRating.objects.filter(pool=pool, user_id__in=user_ids)
    }
    _insert_changes(pool, _replay(pending, states, []))
    _write_states(pool, states)
    _mark_applied([job.partie_id for job in pending])
    _advance_ledger(ledger, pending[-1].key, ledger.applied + len(pending))
    return len(pending)


def _mark_applied(partie_ids: list[int]) -> None:
    now = timezone.now()
    for start in range(0, len(partie_ids), WRITE_BATCH):
        RatedPartie.objects.filter(partie_id__in=partie_ids[start : start + WRITE_BATCH]).update(
            status=RatedPartie.Status.APPLIED, applied_at=now
        )


def _rewind_and_replay(ledger: RatingLedger, pending: list[_Job]) -> int:
    """A late Partie: undo every change after it, then replay from there in order.

    The state before the rewind point is each player's ``*_before`` at their first undone
    change. A season closed inside the rewound stretch makes that state inexact, so then the
    whole pool is recomputed instead.
    """
    pool = ledger.pool
    start = pending[0].key
    if Season.objects.filter(pool=pool, closed_at__gt=start[0]).exists():
        return _recompute_locked(ledger, None)
    jobs = _jobs(
        RatedPartie.objects.filter(
            Q(pool=pool)
            & _after_key(start, inclusive=True)
            & Q(status__in=[RatedPartie.Status.PENDING, RatedPartie.Status.APPLIED])
        )
    )
    later = RatingChange.objects.filter(pool=pool, partie_id__in=[job.partie_id for job in jobs])
    states: dict[int, _State] = {}
    for change in later.order_by("finished_at", "partie_id"):
        if change.user_id not in states:
            states[change.user_id] = (
                change.mu_before,
                change.sigma_before,
                change.games_before,
                _ts(change.last_played_before),
                change.last_played_before,
            )
    others = {p["user_id"] for job in jobs for p in job.participants if p["user_id"]} - set(states)
    for row in PlayerRating.objects.filter(pool=pool, user_id__in=others):
        states[row.user_id] = _state_of_row(row)
    later.delete()
    _insert_changes(pool, _replay(jobs, states, []))
    _write_states(pool, states)
    _mark_applied([job.partie_id for job in pending])
    _advance_ledger(ledger, jobs[-1].key if jobs else None, ledger.applied + len(pending))
    return len(pending)


def recompute_all_ratings(pool: str = LADDER_POOL, progress: ProgressCallback | None = None) -> int:
    """Recompute every rating of ``pool`` from its rated Parties and season resets.

    Deterministic: the same history gives the same ratings, equal to the incremental ones.
    The maths runs in memory; rows are written in batches. Returns the Parties replayed.
    """
    return _with_ledger(pool, lambda ledger: _recompute_locked(ledger, progress))


def _recompute_locked(ledger: RatingLedger, progress: ProgressCallback | None) -> int:
    pool = ledger.pool
    rated = RatedPartie.objects.filter(
        pool=pool, status__in=[RatedPartie.Status.PENDING, RatedPartie.Status.APPLIED]
    )
    states: dict[int, _State] = {}
    if connection.vendor == "postgresql":
        first = not RatingChange.objects.filter(pool=pool).exists()
        jobs = _stream_recompute(pool, _job_rows(rated), states, _resets(pool), progress, first)
    else:
        jobs = _jobs(rated)
        changes = _replay(jobs, states, _resets(pool), progress)
        _replace_pool_changes(pool, changes)
        rated.filter(status=RatedPartie.Status.PENDING).update(
            status=RatedPartie.Status.APPLIED, applied_at=timezone.now()
        )
    _write_states(pool, states, reset_others=True)
    _advance_ledger(ledger, jobs[-1].key if jobs else None, len(jobs))
    return len(jobs)


# The temporary tables of a PostgreSQL rerun: each piece of replayed changes, and the keys of
# every change replayed so far. Both live only in the recompute's transaction.
_PIECE = "rating_change_piece"
_SEEN = "rating_change_seen"


def _reconcile_statements(pool: str) -> tuple[list[str], str, list[str], list[tuple[str, list]]]:
    """PostgreSQL rerun: ``(setup, copy, per_piece, finish)``, the statements that make the
    pool's stored changes equal to the replayed ones, a piece at a time, writing only what
    differs.

    Each piece is copied into a temporary table and merged: a stored row with the same key
    (Partie, player) whose values differ is updated in place (the key columns never change,
    so no foreign-key check fires and the row keeps its primary key); a row with a new key is
    inserted (and checked as any insert). At the end, stored rows whose key no piece produced
    are deleted. Floats travel as ``repr`` (exact) and compare as doubles on the server, so
    an identical rerun writes nothing.
    """
    qn = connection.ops.quote_name
    table = qn(RatingChange._meta.db_table)
    names = [qn(c) for c in _CHANGE_COLUMNS]
    columns = ", ".join(names)
    values = names[3:]  # after pool, partie_id, user_id
    partie, user = qn("partie_id"), qn("user_id")
    setup = [
        f"CREATE TEMPORARY TABLE {_PIECE} ON COMMIT DROP AS "
        f"SELECT {columns} FROM {table} WITH NO DATA",
        f"CREATE TEMPORARY TABLE {_SEEN} ON COMMIT DROP AS "
        f"SELECT {partie}, {user} FROM {table} WITH NO DATA",
    ]
    per_piece = [
        f"MERGE INTO {table} AS c USING {_PIECE} AS n ON "
        f"c.{partie} = n.{partie} AND c.{user} = n.{user} AND c.{qn('pool')} = n.{qn('pool')} "
        f"WHEN MATCHED AND ({', '.join(f'c.{v}' for v in values)}) IS DISTINCT FROM "
        f"({', '.join(f'n.{v}' for v in values)}) "
        f"THEN UPDATE SET {', '.join(f'{v} = n.{v}' for v in values)} "
        f"WHEN NOT MATCHED THEN INSERT ({columns}) VALUES ({', '.join(f'n.{c}' for c in names)})",
        f"INSERT INTO {_SEEN} SELECT {partie}, {user} FROM {_PIECE}",
        f"TRUNCATE {_PIECE}",
    ]
    finish = [
        (f"ANALYZE {_SEEN}", []),
        (
            f"DELETE FROM {table} AS c WHERE c.{qn('pool')} = %s AND NOT EXISTS "
            f"(SELECT FROM {_SEEN} AS n WHERE c.{partie} = n.{partie} AND c.{user} = n.{user})",
            [pool],
        ),
        (f"DROP TABLE {_PIECE}, {_SEEN}", []),
    ]
    return setup, f"COPY {_PIECE} ({columns}) FROM STDIN", per_piece, finish


_JOIN_METHODS = ("enable_hashjoin", "enable_mergejoin")


@contextmanager
def _index_lookups(cursor: Any) -> Iterator[None]:
    """PostgreSQL, inside the block: join by looking each row up in an index.

    For a rerun's piece (about 21,000 changes) matched against the whole table the planner,
    which has no statistics of the fresh temporary table, hashed all 423,000 stored rows for
    every piece and statement (0.1-0.17 s each, 20 pieces: an identical rerun took 6.3 s of
    server CPU instead of 1.7 s); the unique index on (Partie, player) finds each row in about
    1.5 us. The previous settings come back at the end (``SET LOCAL``: a rollback restores
    them too).
    """
    cursor.execute("SELECT " + ", ".join(f"current_setting('{n}')" for n in _JOIN_METHODS))
    saved = list(cursor.fetchone())
    cursor.execute("SELECT " + ", ".join(f"set_config('{n}', 'off', true)" for n in _JOIN_METHODS))
    yield
    cursor.execute(
        "SELECT " + ", ".join(f"set_config('{n}', %s, true)" for n in _JOIN_METHODS), saved
    )


def _stream_recompute(
    pool: str,
    rows: list[_JobRow],
    states: dict[int, _State],
    resets: list[_Reset],
    progress: ProgressCallback | None,
    first: bool,
) -> list[_Job]:
    """PostgreSQL: replay and store every change, the server working on the other core while
    this process decodes and replays; the jobs replayed.

    A writer thread owns the connection (the same transaction: the ledger lock is held
    throughout) and runs, one after the other: the one ``UPDATE`` marking the pending jobs
    applied (while this thread decodes the jobs' JSON), then, for each ``STREAM_JOBS``
    replayed Parties as the replay hands them over, either (``first``: nothing stored for the
    pool) one ``COPY`` into the table, or (a rerun) a ``COPY`` into a temporary table and the
    statements of ``_reconcile_statements``, which update differing rows in place. Foreign
    keys are checked at the end of each statement (``SET CONSTRAINTS ... IMMEDIATE``) rather
    than all at commit. The main thread touches no database meanwhile. Any error (here or in
    the replay) stops both, and is raised here, so the caller's transaction rolls back.
    """
    qn = connection.ops.quote_name
    keys = _change_foreign_keys()
    mark = (
        f"UPDATE {qn(RatedPartie._meta.db_table)} SET {qn('status')} = %s, "
        f"{qn('applied_at')} = %s WHERE {qn('pool')} = %s AND {qn('status')} = %s"
    )
    mark_params = [RatedPartie.Status.APPLIED, timezone.now(), pool, RatedPartie.Status.PENDING]
    if first:
        setup, statement, per_piece, finish = [], _copy_statement(), [], []
    else:
        setup, statement, per_piece, finish = _reconcile_statements(pool)
    lines = _CopyLines(pool)
    chunks: queue.SimpleQueue[str | None] = queue.SimpleQueue()
    failures: list[BaseException] = []
    raw = connection.connection

    def write() -> None:
        try:
            with connection.wrap_database_errors, raw.cursor() as cursor:
                cursor.execute(mark, mark_params)
                if keys:
                    cursor.execute(f"SET CONSTRAINTS {keys} IMMEDIATE")
                for sql in setup:
                    cursor.execute(sql)
                with _index_lookups(cursor) if per_piece else nullcontext():
                    while (text := chunks.get()) is not None:
                        with cursor.copy(statement) as copy:
                            copy.write(text)
                        for sql in per_piece:
                            cursor.execute(sql)
                for sql, params in finish:
                    cursor.execute(sql, params)
                if keys:
                    cursor.execute(f"SET CONSTRAINTS {keys} DEFERRED")
        except BaseException as error:  # handed to the main thread, raised there
            failures.append(error)

    def sink(changes: list[ChangeRow]) -> None:
        if failures:
            raise failures[0]
        chunks.put(lines(changes))

    # Every job replayed has at least two rated players, so at least two changes.
    with _rebuild_history_index(2 * len(rows) if first else 0):
        writer = threading.Thread(target=write, name="recompute-copy", daemon=True)
        writer.start()
        try:
            jobs = _decode_jobs(rows)
            del rows
            _replay(jobs, states, resets, progress, sink=sink)
        finally:
            chunks.put(None)
            writer.join()
        if failures:
            raise failures[0]
    return jobs


# --------------------------------------------------------------------------- seasons


def current_season(pool: str = LADDER_POOL, now: dt.datetime | None = None) -> Season:
    """The open season of ``pool``, created (as season 1) when there is none yet."""
    season = Season.objects.filter(pool=pool, closed_at__isnull=True).first()
    if season is not None:
        return season
    number = Season.objects.filter(pool=pool).count() + 1
    try:
        with transaction.atomic():
            return Season.objects.create(
                pool=pool, name=f"Season {number}", started_at=now or timezone.now()
            )
    except IntegrityError:
        return Season.objects.get(pool=pool, closed_at__isnull=True)


def close_season(
    pool: str = LADDER_POOL,
    now: dt.datetime | None = None,
    pull: float | None = None,
    sigma_bump: float | None = None,
    next_name: str | None = None,
) -> Season:
    """Archive the final standings of the open season, soft-reset the pool, open the next one.

    Pending Parties are applied first, under the same lock, so the archive is complete.
    Returns the closed season.
    """
    from ratings import selectors

    now = now or timezone.now()
    pull = float(_setting("RATINGS_SEASON_PULL", 0.5) if pull is None else pull)
    bump = float(_setting("RATINGS_SEASON_SIGMA_BUMP", 150.0) if sigma_bump is None else sigma_bump)

    def work(ledger: RatingLedger) -> Season:
        _apply_pending_locked(ledger)
        if ledger.last_finished_at is not None and ledger.last_finished_at > now:
            # The reset must sit at its place in history, or recompute would differ.
            raise ValueError("A season cannot close before Parties that are already rated.")
        season = current_season(pool, now)
        rows = selectors.standings(pool, now)
        season_games = selectors.games_between(pool, season.started_at, now)
        SeasonStanding.objects.bulk_create(
            [
                SeasonStanding(
                    season=season,
                    user_id=row.user_id,
                    rank=row.rank,
                    mu=row.mu,
                    sigma=row.sigma,
                    games=row.games,
                    season_games=season_games.get(row.user_id, 0),
                    display=row.display,
                )
                for row in rows
            ],
            batch_size=WRITE_BATCH,
        )
        season.closed_at = now
        season.reset_pull, season.reset_sigma = pull, bump
        season.save(update_fields=["closed_at", "reset_pull", "reset_sigma"])
        states = {row.user_id: _state_of_row(row) for row in PlayerRating.objects.filter(pool=pool)}
        _reset_states(states, _Reset(now, pull, bump))
        _write_states(pool, states)
        # Parties that finished before the close but arrive later must replay across it.
        _advance_ledger(ledger, (now, 0), ledger.applied)
        number = Season.objects.filter(pool=pool).count() + 1
        Season.objects.create(pool=pool, name=next_name or f"Season {number}", started_at=now)
        return season

    return _with_ledger(pool, work)


# --------------------------------------------------------------------------- ranked queue


def join_queue(
    user: Any, ip: str | None = None, now: dt.datetime | None = None, pool: str = LADDER_POOL
) -> LadderQueueEntry:
    """Put ``user`` in the ranked queue (joining twice keeps the first entry and its wait)."""
    from games.models import Table

    waiting = LadderQueueEntry.objects.filter(user=user, status=LadderQueueEntry.Status.WAITING)
    entry = waiting.first()
    if entry is not None:
        return entry
    busy = Table.objects.filter(
        rated=True, status=Table.Status.PLAYING, seats__user=user, ranked_queue=True
    ).exists()
    if busy:
        raise QueueError(_("Finish your ranked table before queueing again."))
    try:
        with transaction.atomic():
            return LadderQueueEntry.objects.create(
                user=user, pool=pool, ip=ip or None, joined_at=now or timezone.now()
            )
    except IntegrityError:
        return waiting.get()


def leave_queue(user: Any, now: dt.datetime | None = None) -> bool:
    """Take ``user`` out of the ranked queue; False when they were not waiting."""
    left = LadderQueueEntry.objects.filter(
        user=user, status=LadderQueueEntry.Status.WAITING
    ).update(status=LadderQueueEntry.Status.LEFT, closed_at=now or timezone.now())
    return bool(left)


def form_ladder_tables(now: dt.datetime | None = None, pool: str = LADDER_POOL) -> list[Any]:
    """One matchmaking round: start a rated table for every group ``form_tables`` proposes.

    Each group's queue entries are consumed under row locks together with the table's
    creation, so two overlapping rounds never seat anyone twice.
    """
    now = now or timezone.now()
    entries = list(
        LadderQueueEntry.objects.filter(pool=pool, status=LadderQueueEntry.Status.WAITING)
    )
    if len(entries) < 3:
        return []
    ratings = dict(
        PlayerRating.objects.filter(
            pool=pool, user_id__in=[e.user_id for e in entries]
        ).values_list("user_id", "mu")
    )
    queue = [
        matchmaking.QueueEntry(
            player_id=e.pk,
            rating=ratings.get(e.user_id, elo.INITIAL_MU),
            joined_at=e.joined_at.timestamp(),
            ip=e.ip,
        )
        for e in entries
    ]
    groups = matchmaking.form_tables(
        queue,
        now.timestamp(),
        matchmaking_params(),
        distinct_ips=bool(_setting("RATINGS_LADDER_DISTINCT_IPS", False)),
    )
    tables = []
    for group in groups:
        table = _start_ladder_table([int(pk) for pk in group], pool, now)
        if table is not None:
            tables.append(table)
    return tables


def _start_ladder_table(entry_ids: list[int], pool: str, now: dt.datetime) -> Any:
    from games import services as games

    try:
        with transaction.atomic():
            if connection.vendor == "sqlite":
                LadderQueueEntry.objects.filter(pk__in=entry_ids).update(status=F("status"))
            rows = list(
                LadderQueueEntry.objects.select_for_update()
                .filter(pk__in=entry_ids, status=LadderQueueEntry.Status.WAITING)
                .select_related("user")
                .order_by("pk")
            )
            if len(rows) != len(entry_ids):
                return None  # someone left or was seated by a concurrent round
            table = games.create_table(
                owner=rows[0].user,
                name=f"Ranked #{rows[0].pk}",
                size=len(rows),
                turn_seconds=int(_setting("RATINGS_LADDER_TURN_SECONDS", 30)),
                rated=True,
                public=True,
                fill_with_bots=False,
                rating_pool=pool,
                ranked_queue=True,
                seat_owner=False,
            )
            for row in rows:
                games.join_table(table.pk, row.user)
            games.start_table(table.pk)
            LadderQueueEntry.objects.filter(pk__in=entry_ids).update(
                status=LadderQueueEntry.Status.MATCHED, table=table, closed_at=now
            )
            return table
    except OperationalError as error:
        if "locked" not in str(error):
            raise
        logger.info("ladder group %s skipped: database busy, next round retries", entry_ids)
        return None
