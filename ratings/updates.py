"""Applying ratings: the pending rated Parties of a pool (the task), a late arrival (rewind and
replay) and the full recompute from history.

Ratings of a pool change only while its ``RatingLedger`` row is locked (``ratings.ledger``),
and always by replaying rated Parties in ``(finished_at, partie_id)`` order through
``ratings.replay``; ``ratings.storage`` reads and writes the rows.
"""

from __future__ import annotations

import datetime as dt

from django.db.models import Q

from ratings import elo, storage
from ratings.ledger import advance_ledger, run_with_ledger
from ratings.models import (
    LADDER_POOL,
    PlayerRating,
    RatedPartie,
    RatingChange,
    RatingLedger,
    Season,
)
from ratings.replay import (
    Job,
    ProgressCallback,
    SeasonReset,
    State,
    replay_jobs,
    state_of_row,
    timestamp_of,
)


def apply_pending_ratings(pool: str = LADDER_POOL) -> int:
    """Apply every pending rated Partie of ``pool`` in finishing order; the number applied.

    Safe to run any number of times and concurrently: the ledger lock serialises runs, and a
    job is applied only while still pending under that lock. A job that sorts before the last
    applied one (its hand-off was late) rewinds the pool to it and replays what follows.
    """
    return run_with_ledger(pool, apply_pending_in_lock)


def apply_pending_in_lock(ledger: RatingLedger) -> int:
    """``apply_pending_ratings`` for a caller that already holds ``ledger``'s row lock (closing
    a season applies what is pending first, under the same lock)."""
    pool = ledger.pool
    waiting = RatedPartie.objects.filter(pool=pool, status=RatedPartie.Status.PENDING)
    if ledger.model_version != elo.MODEL_VERSION:
        # The stored ratings follow older rules: replay the whole history under today's,
        # pending Parties included (once: the recompute records the version under this lock).
        count = waiting.count()
        _recompute_in_lock(ledger, None)
        return count
    pending = storage.read_jobs(waiting)
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
        row.user_id: state_of_row(row)
        for row in PlayerRating.objects.filter(pool=pool, user_id__in=user_ids)
    }
    storage.insert_changes(pool, replay_jobs(pending, states, []))
    storage.write_states(pool, states)
    storage.mark_applied([job.partie_id for job in pending])
    advance_ledger(ledger, pending[-1].key, ledger.applied + len(pending))
    return len(pending)


def _rewind_and_replay(ledger: RatingLedger, pending: list[Job]) -> int:
    """A late Partie: undo every change after it, then replay from there in order.

    The state before the rewind point is each player's ``*_before`` at their first undone
    change. A season closed inside the rewound stretch makes that state inexact, so then the
    whole pool is recomputed instead.
    """
    pool = ledger.pool
    start = pending[0].key
    if Season.objects.filter(pool=pool, closed_at__gt=start[0]).exists():
        return _recompute_in_lock(ledger, None)
    jobs = storage.read_jobs(
        RatedPartie.objects.filter(
            Q(pool=pool)
            & _from_key(start)
            & Q(status__in=[RatedPartie.Status.PENDING, RatedPartie.Status.APPLIED])
        )
    )
    later = RatingChange.objects.filter(pool=pool, partie_id__in=[job.partie_id for job in jobs])
    states: dict[int, State] = {}
    for change in later.order_by("finished_at", "partie_id"):
        if change.user_id not in states:
            states[change.user_id] = (
                change.mu_before,
                change.sigma_before,
                change.games_before,
                timestamp_of(change.last_played_before),
                change.last_played_before,
            )
    others = {p["user_id"] for job in jobs for p in job.participants if p["user_id"]} - set(states)
    for row in PlayerRating.objects.filter(pool=pool, user_id__in=others):
        states[row.user_id] = state_of_row(row)
    later.delete()
    storage.insert_changes(pool, replay_jobs(jobs, states, []))
    storage.write_states(pool, states)
    storage.mark_applied([job.partie_id for job in pending])
    advance_ledger(ledger, jobs[-1].key if jobs else None, ledger.applied + len(pending))
    return len(pending)


def _from_key(key: tuple[dt.datetime, int]) -> Q:
    """Jobs at ``key`` or after it in finishing order."""
    moment, partie_id = key
    return Q(finished_at__gt=moment) | Q(finished_at=moment, partie_id__gte=partie_id)


def recompute_all_ratings(pool: str = LADDER_POOL, progress: ProgressCallback | None = None) -> int:
    """Recompute every rating of ``pool`` from its rated Parties and season resets.

    Deterministic: the same history gives the same ratings, equal to the incremental ones.
    The maths runs in memory while the server stores the rows (``storage.stream_pool_changes``);
    a rerun writes only the rows that differ. Returns the Parties replayed.
    """
    return run_with_ledger(pool, lambda ledger: _recompute_in_lock(ledger, progress))


def _recompute_in_lock(ledger: RatingLedger, progress: ProgressCallback | None) -> int:
    pool = ledger.pool
    rated = RatedPartie.objects.filter(
        pool=pool, status__in=[RatedPartie.Status.PENDING, RatedPartie.Status.APPLIED]
    )
    rows = storage.read_job_rows(rated)
    resets = _season_resets(pool)  # read now: the database is the writer's while streaming
    parties = len(rows)
    states: dict[int, State] = {}
    jobs: list[Job] = []

    def produce(sink: storage.ChangeSink) -> None:
        jobs.extend(storage.decode_jobs(rows))
        rows.clear()  # the JSON text is no longer needed
        replay_jobs(jobs, states, resets, progress, sink=sink, sink_every=storage.STREAM_JOBS)

    storage.stream_pool_changes(pool, parties, produce)
    storage.write_states(pool, states, reset_others=True)
    advance_ledger(ledger, jobs[-1].key if jobs else None, len(jobs))
    if ledger.model_version != elo.MODEL_VERSION:
        ledger.model_version = elo.MODEL_VERSION
        ledger.save(update_fields=["model_version"])
    return len(jobs)


def _season_resets(pool: str) -> list[SeasonReset]:
    seasons = Season.objects.filter(pool=pool, closed_at__isnull=False)
    return [SeasonReset(s.closed_at, s.reset_pull, s.reset_sigma) for s in seasons]
