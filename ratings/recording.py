"""Recording finished Parties as rating jobs (the ``partie_finished`` receiver's work)."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction

from games.outcomes import PartieOutcome
from ratings.dispatch import APPLY_PENDING_RATINGS, enqueue_task
from ratings.models import LADDER_POOL, RatedPartie
from ratings.replay import count_rated_humans


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
        if count_rated_humans(participants) >= 2
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
        enqueue_task(APPLY_PENDING_RATINGS, pool)
    return job
