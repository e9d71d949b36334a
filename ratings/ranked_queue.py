"""The ranked queue: joining and leaving it, and the matchmaking round that starts rated tables
for the groups ``ratings.matchmaking`` proposes."""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from django.conf import settings
from django.db import DatabaseError, IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import lobby
from ratings import elo, matchmaking
from ratings.eligibility import rated_play_refusal
from ratings.models import LADDER_POOL, LadderQueueEntry, PlayerRating
from rosbi_platform.locking import is_conflict, retry_on_conflict

logger = logging.getLogger(__name__)


class QueueError(Exception):
    """A refused queue action, with a sentence for people."""


def matchmaking_params() -> matchmaking.MatchmakingParams:
    """``MatchmakingParams`` with any field overridden by the ``RATINGS_MATCHMAKING`` dict."""
    return matchmaking.MatchmakingParams(**getattr(settings, "RATINGS_MATCHMAKING", {}))


def join_queue(
    user: Any, ip: str | None = None, now: dt.datetime | None = None, pool: str = LADDER_POOL
) -> LadderQueueEntry:
    """Put ``user`` in the ranked queue (joining twice keeps the first entry and its wait)."""
    from games.models import Table

    refusal = rated_play_refusal(user)
    if refusal is not None:
        raise QueueError(refusal)
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
    waiting = [
        matchmaking.QueueEntry(
            player_id=e.pk,
            rating=ratings.get(e.user_id, elo.INITIAL_MU),
            joined_at=e.joined_at.timestamp(),
            ip=e.ip,
        )
        for e in entries
    ]
    groups = matchmaking.form_tables(
        waiting,
        now.timestamp(),
        matchmaking_params(),
        distinct_ips=bool(getattr(settings, "RATINGS_LADDER_DISTINCT_IPS", False)),
    )
    tables = []
    for group in groups:
        table = start_ladder_table([int(pk) for pk in group], pool, now)
        if table is not None:
            tables.append(table)
    return tables


def start_ladder_table(entry_ids: list[int], pool: str, now: dt.datetime) -> Any:
    """Start the rated table of one group of queue entries; None when one of them is no longer
    waiting (it left, or an overlapping round seated it).

    A deadlock or serialization failure is run again (``retry_on_conflict``, decided by
    SQLSTATE); one that persists skips the group, whose players wait for the next round. Any
    other error is raised.
    """
    try:
        return retry_on_conflict(lambda: _seat_group(entry_ids, pool, now))
    except DatabaseError as error:
        if not is_conflict(error):
            raise
        logger.info("ladder group %s skipped: conflicting writers, next round retries", entry_ids)
        return None


def _seat_group(entry_ids: list[int], pool: str, now: dt.datetime) -> Any:
    with transaction.atomic():
        rows = list(
            LadderQueueEntry.objects.select_for_update()
            .filter(pk__in=entry_ids, status=LadderQueueEntry.Status.WAITING)
            .select_related("user")
            .order_by("pk")
        )
        if len(rows) != len(entry_ids):
            return None  # someone left or was seated by a concurrent round
        refused = [row.pk for row in rows if rated_play_refusal(row.user) is not None]
        if refused:
            # May no longer play rated (asked again now, as every seat at a rated table is):
            # out of the queue; the others wait for the next round.
            LadderQueueEntry.objects.filter(pk__in=refused).update(
                status=LadderQueueEntry.Status.LEFT, closed_at=now
            )
            return None
        table = lobby.create_table(
            owner=rows[0].user,
            name=f"Ranked #{rows[0].pk}",
            size=len(rows),
            turn_seconds=int(getattr(settings, "RATINGS_LADDER_TURN_SECONDS", 30)),
            rated=True,
            public=True,
            fill_with_bots=False,
            rating_pool=pool,
            ranked_queue=True,
            seat_owner=False,
        )
        for row in rows:
            lobby.join_table(table.pk, row.user)
        lobby.start_table(table.pk)
        LadderQueueEntry.objects.filter(pk__in=entry_ids).update(
            status=LadderQueueEntry.Status.MATCHED, table=table, closed_at=now
        )
        return table
