"""The rating ledger: one row per pool, whose row lock serialises every change of the pool's
ratings, and which records how far the pool's history has been applied."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TypeVar

from django.db import IntegrityError, transaction

from ratings.models import RatingLedger
from rosbi_platform.locking import in_row_lock, retry_on_conflict

T = TypeVar("T")


def run_with_ledger(pool: str, work: Callable[[RatingLedger], T]) -> T:
    """Run ``work`` in a transaction holding the pool's ledger row lock
    (``rosbi_platform.locking``), run again after a deadlock or serialization failure; the
    ledger row is created first when missing."""

    def attempt() -> T:
        _ensure_ledger(pool)
        return in_row_lock(RatingLedger, work, pool=pool)

    return retry_on_conflict(attempt)


def _ensure_ledger(pool: str) -> None:
    """Create the pool's ledger row once; a concurrent creator wins the unique constraint."""
    if RatingLedger.objects.filter(pool=pool).exists():
        return
    try:
        with transaction.atomic():
            RatingLedger.objects.get_or_create(pool=pool)
    except IntegrityError:
        pass


def advance_ledger(ledger: RatingLedger, key: tuple[dt.datetime, int] | None, applied: int) -> None:
    """Store the count applied and move the high-water mark ``(finished_at, partie_id)`` to
    ``key`` when it is later."""
    if key is not None and (
        ledger.last_finished_at is None
        or key > (ledger.last_finished_at, ledger.last_partie_id or 0)
    ):
        ledger.last_finished_at, ledger.last_partie_id = key
    ledger.applied = applied
    ledger.save(update_fields=["applied", "last_finished_at", "last_partie_id"])
