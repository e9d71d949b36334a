"""The bulk reads and writes of ratings on PostgreSQL: rated-Party jobs read as text, rating
changes written with ``COPY``, a recompute streamed to the server while the replay goes on and
merged (``MERGE``) from temporary tables, planner settings for those merges (``SET LOCAL``) and
the history index rebuilt after a bulk insert.

Nothing here knows the rating rules: the rows come from ``ratings.replay``, and the callers
(``ratings.updates``, ``ratings.seasons``) hold the pool's ledger lock in one transaction, so
any error rolls back everything written here, the dropped index and the temporary tables
included. At 100,000 Parties the ORM's per-value work costs more than the maths, which is why
these statements are written by hand.
"""

from __future__ import annotations

import datetime as dt
import json
import queue
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

from django.db import connection
from django.db.models import TextField
from django.db.models.functions import Cast
from django.utils import timezone

from ratings import elo, leaderboard
from ratings.models import PlayerRating, RatedPartie, RatingChange
from ratings.replay import CHANGE_COLUMNS, ChangeRow, Job, State

WRITE_BATCH = 5000
# A recompute inserting at least this many rating changes drops and rebuilds the history index.
REBUILD_INDEX_ABOVE = 50_000
# A recompute hands the rows of this many replayed Parties to the server at a time.
STREAM_JOBS = 5_000
HISTORY_INDEX = "change_history"
# The temporary tables of a rerun: each piece of replayed changes, and the keys of every change
# replayed so far. Both live only in the recompute's transaction.
PIECE_TABLE = "rating_change_piece"
SEEN_TABLE = "rating_change_seen"

JobRow = tuple[int, dt.datetime, str]
ChangeSink = Callable[[list[ChangeRow]], None]


# --------------------------------------------------------------------------- reading jobs


def read_jobs(queryset: Any) -> list[Job]:
    """Jobs in finishing order; the JSON is fetched as text and decoded here, which at
    100,000 rows is a third faster than the field's per-value converter."""
    return decode_jobs(read_job_rows(queryset))


def read_job_rows(queryset: Any) -> list[JobRow]:
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


def decode_jobs(rows: list[JobRow]) -> list[Job]:
    """The jobs of ``read_job_rows``; touches no database (it runs while the server works)."""
    return [Job(pid, finished, json.loads(people)) for pid, finished, people in rows]


# --------------------------------------------------------------------------- small writes


def mark_applied(partie_ids: list[int]) -> None:
    """Mark these rated Parties applied, in batches."""
    now = timezone.now()
    for start in range(0, len(partie_ids), WRITE_BATCH):
        RatedPartie.objects.filter(partie_id__in=partie_ids[start : start + WRITE_BATCH]).update(
            status=RatedPartie.Status.APPLIED, applied_at=now
        )


def write_states(pool: str, states: dict[int, State], reset_others: bool = False) -> None:
    """Store ``states`` as the pool's PlayerRating rows (created where missing); with
    ``reset_others``, every other rating of the pool goes back to the newcomer's."""
    existing = dict(PlayerRating.objects.filter(pool=pool).values_list("user_id", "pk"))
    updates = []
    to_create = []
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
            updates.append((mu, sigma, games, last_played, now, pk))
    if reset_others:
        for pk in existing.values():
            updates.append((elo.INITIAL_MU, elo.INITIAL_SIGMA, 0, None, now, pk))
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
    leaderboard.schedule_leaderboard_refresh(pool)


# --------------------------------------------------------------------------- COPY


def insert_changes(pool: str, changes: list[ChangeRow]) -> None:
    """Insert rating changes with ``COPY ... FROM STDIN`` in text format, the lines built here.

    Formatting the rows ourselves (``repr`` of a float is its shortest exact text, which
    PostgreSQL reads back to the same double) costs half the CPU of psycopg's ``write_row``.
    For the incremental task's few rows: the history index stays (rebuilding it would scan
    the whole table).
    """
    if not changes:
        return
    lines = _CopyLines(pool)
    with connection.cursor() as cursor, cursor.cursor.copy(_copy_statement()) as copy:
        for start in range(0, len(changes), WRITE_BATCH):
            copy.write(lines(changes[start : start + WRITE_BATCH]))


def _copy_statement() -> str:
    qn = connection.ops.quote_name
    columns = ", ".join(qn(c) for c in CHANGE_COLUMNS)
    return f"COPY {qn(RatingChange._meta.db_table)} ({columns}) FROM STDIN"


class _Converted(dict[Any, Any]):
    """``convert(value)`` for each distinct value, computed on first lookup: the 850,000
    datetimes of a recompute are 100,000 distinct ones. ``None`` becomes ``none``."""

    def __init__(self, convert: Callable[[Any], Any], none: Any = None) -> None:
        super().__init__({None: none})
        self.convert = convert

    def __missing__(self, key: Any) -> Any:
        value = self[key] = self.convert(key)
        return value


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


# --------------------------------------------------------------------------- the history index


@contextmanager
def _rebuild_history_index(rows: int) -> Iterator[None]:
    """Around a bulk insert of ``rows`` rating changes: drop the ``change_history`` index
    first and build it again afterwards, in one sorted pass.

    Its keys arrive in random order, so keeping it up to date row by row made the insert of
    400,000 changes two to three times as slow. Safe: DDL is transactional, and the caller
    holds the ledger lock inside one transaction, so any error rolls the index back with the
    rows. Readers of the table wait for the commit meanwhile, as ``DROP INDEX`` locks it.
    PostgreSQL refuses to build an index on a table with pending deferred foreign-key checks,
    so those run first (the same checks the commit would run).
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
        keys = _change_foreign_keys()
        if keys:
            cursor.execute(f"SET CONSTRAINTS {keys} IMMEDIATE")
            cursor.execute(f"SET CONSTRAINTS {keys} DEFERRED")
        cursor.execute(f"CREATE INDEX {qn(HISTORY_INDEX)} ON {qn(table)} ({columns})")


def _change_foreign_keys() -> str:
    """The quoted names of ``RatingChange``'s foreign-key constraints, joined."""
    qn = connection.ops.quote_name
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, RatingChange._meta.db_table)
    return ", ".join(qn(name) for name, c in constraints.items() if c["foreign_key"])


# --------------------------------------------------------------------------- the streamed recompute


def _reconcile_statements(pool: str) -> tuple[list[str], str, list[str], list[tuple[str, list]]]:
    """A rerun: ``(setup, copy, per_piece, finish)``, the statements that make the pool's
    stored changes equal to the replayed ones, a piece at a time, writing only what differs.

    Each piece is copied into a temporary table and merged: a stored row with the same key
    (Partie, player) whose values differ is updated in place (the key columns never change,
    so no foreign-key check fires and the row keeps its primary key); a row with a new key is
    inserted (and checked as any insert). At the end, stored rows whose key no piece produced
    are deleted. Floats travel as ``repr`` (exact) and compare as doubles on the server, so
    an identical rerun writes nothing.
    """
    qn = connection.ops.quote_name
    table = qn(RatingChange._meta.db_table)
    names = [qn(c) for c in CHANGE_COLUMNS]
    columns = ", ".join(names)
    values = names[3:]  # after pool, partie_id, user_id
    partie, user = qn("partie_id"), qn("user_id")
    setup = [
        f"CREATE TEMPORARY TABLE {PIECE_TABLE} ON COMMIT DROP AS "
        f"SELECT {columns} FROM {table} WITH NO DATA",
        f"CREATE TEMPORARY TABLE {SEEN_TABLE} ON COMMIT DROP AS "
        f"SELECT {partie}, {user} FROM {table} WITH NO DATA",
    ]
    per_piece = [
        f"MERGE INTO {table} AS c USING {PIECE_TABLE} AS n ON "
        f"c.{partie} = n.{partie} AND c.{user} = n.{user} AND c.{qn('pool')} = n.{qn('pool')} "
        f"WHEN MATCHED AND ({', '.join(f'c.{v}' for v in values)}) IS DISTINCT FROM "
        f"({', '.join(f'n.{v}' for v in values)}) "
        f"THEN UPDATE SET {', '.join(f'{v} = n.{v}' for v in values)} "
        f"WHEN NOT MATCHED THEN INSERT ({columns}) VALUES ({', '.join(f'n.{c}' for c in names)})",
        f"INSERT INTO {SEEN_TABLE} SELECT {partie}, {user} FROM {PIECE_TABLE}",
        f"TRUNCATE {PIECE_TABLE}",
    ]
    finish = [
        (f"ANALYZE {SEEN_TABLE}", []),
        (
            f"DELETE FROM {table} AS c WHERE c.{qn('pool')} = %s AND NOT EXISTS "
            f"(SELECT FROM {SEEN_TABLE} AS n WHERE c.{partie} = n.{partie} AND c.{user} = n.{user})",
            [pool],
        ),
        (f"DROP TABLE {PIECE_TABLE}, {SEEN_TABLE}", []),
    ]
    return setup, f"COPY {PIECE_TABLE} ({columns}) FROM STDIN", per_piece, finish


_JOIN_METHODS = ("enable_hashjoin", "enable_mergejoin")


@contextmanager
def _index_lookups(cursor: Any) -> Iterator[None]:
    """Inside the block: join by looking each row up in an index.

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


def stream_pool_changes(pool: str, parties: int, produce: Callable[[ChangeSink], None]) -> None:
    """Make the pool's stored rating changes exactly what ``produce`` hands to its sink, and
    mark the pool's pending jobs applied, the server working on the other core while this
    process replays.

    ``produce(sink)`` runs on this thread and must not touch the database; it calls ``sink``
    with the rows of every ``STREAM_JOBS`` replayed Parties (``parties`` in all). A writer
    thread owns the connection (the same transaction: the caller's ledger lock is held
    throughout) and runs, one after the other: the one ``UPDATE`` marking the pending jobs
    applied (while ``produce`` decodes the jobs' JSON), then, for each piece, either (a first
    run: nothing stored for the pool) one ``COPY`` into the table, or (a rerun) a ``COPY``
    into a temporary table and the statements of ``_reconcile_statements``, which update
    differing rows in place. Foreign keys are checked at the end of each statement (``SET
    CONSTRAINTS ... IMMEDIATE``) rather than all at commit. Any error (here or in
    ``produce``) stops both, and is raised here, so the caller's transaction rolls back.
    """
    qn = connection.ops.quote_name
    first = not RatingChange.objects.filter(pool=pool).exists()
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
    with _rebuild_history_index(2 * parties if first else 0):
        writer = threading.Thread(target=write, name="recompute-copy", daemon=True)
        writer.start()
        try:
            produce(sink)
        finally:
            chunks.put(None)
            writer.join()
        if failures:
            raise failures[0]
