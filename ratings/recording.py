"""Recording finished Parties as rating jobs (the ``partie_finished`` receiver's work)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction

from games.outcomes import PartieOutcome
from ratings.dispatch import APPLY_PENDING_RATINGS, enqueue_task
from ratings.models import LADDER_POOL, RatedPartie
from ratings.replay import count_rated_humans
from rosbi_platform.accounts.models import Profile

# Who at a finished rated Partie is not rated by it: each rule returns user ids. Bot accounts
# here; other apps add theirs with ``add_unrated_rule`` (tournaments: entrants who have not
# confirmed an entry someone else made).
UnratedRule = Callable[[PartieOutcome], set[int]]
UNRATED_RULES: list[UnratedRule] = []


def add_unrated_rule(rule: UnratedRule) -> None:
    """Register a rule naming players a finished Partie does not rate (once per rule)."""
    if rule not in UNRATED_RULES:
        UNRATED_RULES.append(rule)


def bot_accounts_of(outcome: PartieOutcome) -> set[int]:
    """Bot accounts are never rated: their seat counts as a bot seat (docs/api.md)."""
    ids = [seat.user_id for seat in outcome.seats if seat.user_id is not None]
    if not ids:
        return set()
    return set(
        Profile.objects.filter(user_id__in=ids, bot_since__isnull=False).values_list(
            "user_id", flat=True
        )
    )


def unrated_players(outcome: PartieOutcome) -> set[int]:
    """Every player the Partie does not rate, by every rule."""
    found = bot_accounts_of(outcome)
    for rule in UNRATED_RULES:
        found |= rule(outcome)
    return found


def participants_of(outcome: PartieOutcome) -> list[dict[str, Any]]:
    """The rating input of a finished Partie: one entry per seat, leavers marked.

    A player the Partie does not rate (``unrated_players``) is stored as a bot seat
    (``user_id`` None, ``unrated`` True): the others' ratings count it at the bot rating, and
    it gets no rating of its own."""
    unrated = unrated_players(outcome)
    return [
        {
            "seat": seat.seat,
            "user_id": None if seat.user_id in unrated else seat.user_id,
            "bot_level": seat.bot_level,
            "total": seat.total,
            "place": seat.place,
            "left": seat.left,
            **({"unrated": True} if seat.user_id in unrated else {}),
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
