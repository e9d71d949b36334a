"""Celery tasks of tournaments: one periodic sweeper plus follow-ups queued after commits.

Every task is safe to run twice or concurrently: each calls services whose steps are locked
status transitions, and the standings are recomputed from the stored results as a whole.
"""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from tournaments import services

# A busy database (SQLite's lock, a PostgreSQL serialization hiccup) is transient, and every
# task is idempotent: retry it rather than lose a step.
RETRY = {
    "autoretry_for": (OperationalError,),
    "retry_backoff": 1,
    "retry_backoff_max": 10,
    "retry_jitter": True,
    "max_retries": 20,
}

SWEEP_TASK_NAME = "tournaments.tasks.sweep_tournaments"


@shared_task(name=SWEEP_TASK_NAME, ignore_result=True, **RETRY)
def sweep_tournaments() -> int:
    """Run by beat every 15 s: queue an advance for every event with something due."""
    ids = services.due_tournament_ids()
    for tournament_id in ids:
        advance_tournament.delay(tournament_id)
    return len(ids)


@shared_task(name="tournaments.tasks.advance_tournament", ignore_result=True, **RETRY)
def advance_tournament(tournament_id: int) -> int:
    """Open/close windows, seat, start, handle no-shows and close rounds that are due."""
    return services.advance_tournament(tournament_id)


@shared_task(name="tournaments.tasks.recompute_standings", ignore_result=True, **RETRY)
def recompute_standings(tournament_id: int) -> int:
    """Standings from the stored results, pushed to the live page after the commit."""
    return services.recompute_standings(tournament_id)


@shared_task(name="tournaments.tasks.notify_table_ready", ignore_result=True, **RETRY)
def notify_table_ready(round_id: int) -> int:
    """Remind every seated player in-app and by e-mail, once per table."""
    return services.notify_table_ready(round_id)
