"""Celery tasks of tournaments: one periodic sweeper plus follow-ups queued after commits.

Every task is safe to run twice or concurrently: each calls actions whose steps are locked
status transitions, and the standings are recomputed from the stored results as a whole.
Transient failures are retried by the one policy of every task (``rosbi_platform.celery``).
The actions queue these tasks by name (``tournaments.common.enqueue``) and never import this
module; it imports them.
"""

from __future__ import annotations

import logging

from celery import shared_task

from tournaments import notify, results, scheduler, selectors, series
from tournaments.common import (
    ADVANCE_TOURNAMENT_TASK,
    NOTIFY_ANNOUNCEMENT_TASK,
    NOTIFY_CHECK_IN_TASK,
    NOTIFY_EVENT_TASK,
    NOTIFY_REGISTRATION_TASK,
    NOTIFY_RESULTS_TASK,
    NOTIFY_ROUND_SOON_TASK,
    NOTIFY_TABLE_READY_TASK,
    RECOMPUTE_STANDINGS_TASK,
    TournamentError,
)

logger = logging.getLogger(__name__)

SWEEP_TASK_NAME = "tournaments.tasks.sweep_tournaments"


@shared_task(name=SWEEP_TASK_NAME, ignore_result=True)
def sweep_tournaments() -> int:
    """Run by beat every 15 s: queue an advance for every event with something due."""
    ids = scheduler.due_tournament_ids()
    for tournament_id in ids:
        advance_tournament.delay(tournament_id)
    return len(ids)


@shared_task(name=ADVANCE_TOURNAMENT_TASK, ignore_result=True)
def advance_tournament(tournament_id: int) -> int:
    """Open/close windows, seat, start, handle no-shows and close rounds that are due."""
    return scheduler.advance_tournament(tournament_id)


@shared_task(name=RECOMPUTE_STANDINGS_TASK, ignore_result=True)
def recompute_standings(tournament_id: int) -> int:
    """Standings from the stored results, pushed to the live page after the commit."""
    return results.recompute_standings(tournament_id)


@shared_task(name=NOTIFY_TABLE_READY_TASK, ignore_result=True)
def notify_table_ready(round_id: int) -> int:
    """Remind every seated player in-app and by e-mail, once per table."""
    return notify.notify_table_ready(round_id)


@shared_task(name=NOTIFY_EVENT_TASK, ignore_result=True)
def notify_event(tournament_id: int, kind: str, occurrence: int | None = None) -> int:
    """Tell the players (and, when it waits for them, the organisers) what became of the event."""
    return notify.notify_event(tournament_id, kind, occurrence)


@shared_task(name=NOTIFY_REGISTRATION_TASK, ignore_result=True)
def notify_registration(entry_id: int, occurrence: int) -> int:
    """Confirm a registration to the entrant."""
    return notify.notify_registration(entry_id, occurrence)


@shared_task(name=NOTIFY_CHECK_IN_TASK, ignore_result=True)
def notify_check_in_open(tournament_id: int, occurrence: int) -> int:
    """Tell the registered entrants that check-in is open."""
    return notify.notify_check_in_open(tournament_id, occurrence)


@shared_task(name=NOTIFY_ROUND_SOON_TASK, ignore_result=True)
def notify_round_soon(round_id: int, starts_at_iso: str) -> int:
    """Tell a round's players that it starts in 10 minutes."""
    return notify.notify_round_soon(round_id, starts_at_iso)


@shared_task(name=NOTIFY_RESULTS_TASK, ignore_result=True)
def notify_results(round_id: int) -> int:
    """Tell the entrants that a round's results (or the final standings) are posted."""
    return notify.notify_results(round_id)


@shared_task(name=NOTIFY_ANNOUNCEMENT_TASK, ignore_result=True)
def notify_announcement(announcement_id: int) -> int:
    """Each entrant gets the organisers' announcement as an in-app notice, once."""
    return notify.notify_announcement(announcement_id)


CREATE_SERIES_EVENTS_TASK = "tournaments.tasks.create_series_events"


@shared_task(name=CREATE_SERIES_EVENTS_TASK, ignore_result=True)
def create_series_events() -> int:
    """Run by beat every hour: every active series creates its events of the next weeks (each
    occurrence once; a series that cannot is logged and the others still run)."""
    created = 0
    for series_id in selectors.active_series_ids():
        try:
            created += len(series.create_upcoming_events(series_id))
        except TournamentError:
            logger.exception("series %s could not create its events", series_id)
    return created


ADVANCE_SEASONS_TASK = "tournaments.tasks.advance_club_seasons"


@shared_task(name=ADVANCE_SEASONS_TASK, ignore_result=True)
def advance_club_seasons() -> dict[str, list[int]]:
    """Run by beat every hour: close the automatic club seasons whose last day has passed and
    open those whose first day has come (``seasons.advance_seasons``; safe twice or at once)."""
    from tournaments import seasons

    return seasons.advance_seasons()
