"""Celery tasks of the ratings app: apply pending rating updates, run a matchmaking round,
renumber the leaderboard, close the seasons whose end has come.

All are idempotent (the actions lock and re-check), so duplicate delivery, retries and
overlapping beat runs change nothing twice. The tasks import the actions; the actions queue
tasks by name through ``ratings.dispatch`` and never import this module.
"""

from __future__ import annotations

import datetime as dt

from celery import shared_task

from ratings import leaderboard, ranked_queue, seasons, updates
from ratings.dispatch import (
    APPLY_PENDING_RATINGS,
    CLOSE_DUE_SEASONS,
    FORM_LADDER_TABLES,
    REFRESH_LEADERBOARD,
)
from ratings.models import LADDER_POOL


@shared_task(name=APPLY_PENDING_RATINGS, ignore_result=True)
def apply_pending_ratings_task(pool: str = LADDER_POOL) -> int:
    """Apply every pending rated Partie of ``pool`` in finishing order (queued after commit by
    the ``partie_finished`` receiver; beat also runs it every minute as a safety net)."""
    return updates.apply_pending_ratings(pool)


@shared_task(name=FORM_LADDER_TABLES, ignore_result=True)
def form_ladder_tables_task(now: str | None = None) -> int:
    """One ranked matchmaking round (beat, every 5 seconds); the number of tables started.

    ``now`` (ISO 8601) pins the clock for tests and replays; beat leaves it out.
    """
    moment = dt.datetime.fromisoformat(now) if now else None
    return len(ranked_queue.form_ladder_tables(now=moment))


@shared_task(name=REFRESH_LEADERBOARD, ignore_result=True)
def refresh_leaderboard_task(pool: str = LADDER_POOL) -> int:
    """Renumber the leaderboard (queued after rating changes; beat runs it every minute,
    since eligibility also changes with time). Idempotent: each run replaces the ranks."""
    return leaderboard.run_queued_refresh(pool)


@shared_task(name=CLOSE_DUE_SEASONS, ignore_result=True)
def close_due_seasons_task(now: str | None = None) -> int:
    """Close every season whose end has come (beat, every minute); the number closed.

    Idempotent: ``close_season`` closes a named season once, however often this runs.
    ``now`` (ISO 8601) pins the clock for tests; beat leaves it out.
    """
    moment = dt.datetime.fromisoformat(now) if now else None
    return len(seasons.close_due_seasons(now=moment))
