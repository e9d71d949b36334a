"""Seasons of a rating pool: the open season, and closing it (final standings archived, every
rating soft-reset, the next season opened)."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from ratings import selectors, storage
from ratings.ledger import advance_ledger, run_with_ledger
from ratings.models import LADDER_POOL, PlayerRating, RatingLedger, Season, SeasonStanding
from ratings.replay import SeasonReset, reset_states, state_of_row
from ratings.updates import apply_pending_in_lock


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
) -> Season:
    """Archive the final standings of the open season, soft-reset the pool, open the next one.

    Pending Parties are applied first, under the same lock, so the archive is complete.
    Returns the closed season.
    """
    now = now or timezone.now()
    if pull is None:
        pull = getattr(settings, "RATINGS_SEASON_PULL", 0.5)
    if sigma_bump is None:
        sigma_bump = getattr(settings, "RATINGS_SEASON_SIGMA_BUMP", 270.0)
    reset = SeasonReset(now, float(pull), float(sigma_bump))

    def work(ledger: RatingLedger) -> Season:
        apply_pending_in_lock(ledger)
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
            batch_size=storage.WRITE_BATCH,
        )
        season.closed_at = now
        season.reset_pull, season.reset_sigma = reset.pull, reset.sigma_bump
        season.save(update_fields=["closed_at", "reset_pull", "reset_sigma"])
        states = {row.user_id: state_of_row(row) for row in PlayerRating.objects.filter(pool=pool)}
        reset_states(states, reset)
        storage.write_states(pool, states)
        # Parties that finished before the close but arrive later must replay across it.
        advance_ledger(ledger, (now, 0), ledger.applied)
        number = Season.objects.filter(pool=pool).count() + 1
        Season.objects.create(pool=pool, number=number, name=next_name or "", started_at=now)
        return season

    return run_with_ledger(pool, work)
