"""Seasons of a rating pool: the open season, and closing it (final standings archived, every
rating soft-reset, the next season opened).

``close_season`` is the one way a season closes; the admin action, the scheduled task
(``close_due_seasons``, run by beat) and ``manage.py close_season`` all call it. Naming the
season makes it idempotent: under the pool's ledger lock a season already closed is returned
as it is, so a retried task, a second click or two workers at once apply its reset once.
"""

from __future__ import annotations

import datetime as dt
import logging

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from ratings import selectors, storage
from ratings.ledger import advance_ledger, run_with_ledger
from ratings.models import LADDER_POOL, PlayerRating, RatingLedger, Season, SeasonStanding
from ratings.replay import SeasonReset, reset_states, state_of_row
from ratings.updates import apply_pending_in_lock

logger = logging.getLogger(__name__)


def current_season(pool: str = LADDER_POOL, now: dt.datetime | None = None) -> Season:
    """The open season of ``pool``, created (as season 1) when there is none yet."""
    season = Season.objects.filter(pool=pool, closed_at__isnull=True).first()
    if season is not None:
        return season
    number = Season.objects.filter(pool=pool).count() + 1
    try:
        with transaction.atomic():
            return Season.objects.create(pool=pool, number=number, started_at=now or timezone.now())
    except IntegrityError:
        return Season.objects.get(pool=pool, closed_at__isnull=True)


def close_season(
    pool: str = LADDER_POOL,
    now: dt.datetime | None = None,
    pull: float | None = None,
    sigma_bump: float | None = None,
    next_name: str | None = None,
    season: int | None = None,
) -> Season:
    """Archive the final standings of the open season, soft-reset the pool, open the next one.

    Pending Parties are applied first, under the same lock, so the archive is complete.
    Returns the closed season. With ``season`` (its id) only that season is closed: when it is
    already closed (a retry, a second click, a concurrent worker that came first) it is
    returned unchanged and nothing is reset again; its ``closed_at`` then differs from ``now``.
    The next season runs as long as the closed one was planned to (``ends_at``), if it was.
    """
    now = now or timezone.now()
    if pull is None:
        pull = getattr(settings, "RATINGS_SEASON_PULL", 0.5)
    if sigma_bump is None:
        sigma_bump = getattr(settings, "RATINGS_SEASON_SIGMA_BUMP", 270.0)
    reset = SeasonReset(now, float(pull), float(sigma_bump))

    def work(ledger: RatingLedger) -> Season:
        if season is not None:
            named = Season.objects.get(pk=season, pool=pool)
            if named.closed_at is not None:
                return named  # closed before: the reset was applied then, once
        apply_pending_in_lock(ledger)
        if ledger.last_finished_at is not None and ledger.last_finished_at > now:
            # The reset must sit at its place in history, or recompute would differ.
            raise ValueError("A season cannot close before Parties that are already rated.")
        closing = current_season(pool, now)
        rows = selectors.standings(pool, now)
        season_games = selectors.games_between(pool, closing.started_at, now)
        SeasonStanding.objects.bulk_create(
            [
                SeasonStanding(
                    season=closing,
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
            batch_size=storage.WRITE_BATCH,
        )
        closing.closed_at = now
        closing.reset_pull, closing.reset_sigma = reset.pull, reset.sigma_bump
        closing.save(update_fields=["closed_at", "reset_pull", "reset_sigma"])
        states = {row.user_id: state_of_row(row) for row in PlayerRating.objects.filter(pool=pool)}
        reset_states(states, reset)
        storage.write_states(pool, states)
        # Parties that finished before the close but arrive later must replay across it.
        advance_ledger(ledger, (now, 0), ledger.applied)
        number = Season.objects.filter(pool=pool).count() + 1
        length = closing.ends_at - closing.started_at if closing.ends_at is not None else None
        Season.objects.create(
            pool=pool,
            number=number,
            name=next_name or "",
            started_at=now,
            ends_at=now + length if length is not None and length > dt.timedelta(0) else None,
        )
        return closing

    return run_with_ledger(pool, work)


def close_due_seasons(now: dt.datetime | None = None) -> list[Season]:
    """Close every open season whose end (``ends_at``) has come; the seasons this call closed.

    What beat runs every minute (``ratings.tasks.close_due_seasons``) and
    ``manage.py close_season --due`` runs; each season goes through ``close_season`` by id, so
    overlapping runs close it once. A season that cannot close yet is logged and left open.
    """
    now = now or timezone.now()
    due = Season.objects.filter(closed_at__isnull=True, ends_at__lte=now).values_list("pk", "pool")
    closed = []
    for pk, pool in list(due):
        try:
            result = close_season(pool, now=now, season=pk)
        except ValueError:
            logger.exception("Season %s of pool %s could not close at %s", pk, pool, now)
            continue
        if result.closed_at == now:
            closed.append(result)
    return closed
