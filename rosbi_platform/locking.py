"""Row locks and conflict retries on PostgreSQL, shared by every app's services.

A service that changes a live object runs in one transaction holding that object's row lock
(``SELECT ... FOR UPDATE``), so concurrent writers queue instead of interleaving. PostgreSQL
may still abort a transaction for a deadlock (SQLSTATE 40P01) or a serialization failure
(40001); such an attempt committed nothing and its on_commit callbacks were dropped, so the
outermost unit is simply run again. Any other error is raised at once: retries are decided by
the SQLSTATE code, never by the words of a message.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.db import DatabaseError, connection, transaction
from django.db.models import Model

T = TypeVar("T")

DEFAULT_ATTEMPTS = 5
RETRYABLE_SQLSTATES = frozenset({"40001", "40P01"})  # serialization_failure, deadlock_detected


def is_conflict(error: BaseException) -> bool:
    """True when PostgreSQL aborted the transaction for a deadlock or serialization failure."""
    cause = error.__cause__ if error.__cause__ is not None else error
    return getattr(cause, "sqlstate", None) in RETRYABLE_SQLSTATES


def retry_on_conflict(work: Callable[[], T], attempts: int = DEFAULT_ATTEMPTS) -> T:
    """Run ``work``; run it again after a deadlock or serialization failure, unless inside a
    transaction (then the caller's outermost unit is the one to retry)."""
    tries = attempts if not connection.in_atomic_block else 1
    for attempt in range(tries):
        try:
            return work()
        except DatabaseError as error:
            if attempt + 1 >= tries or not is_conflict(error):
                raise
            time.sleep(random.uniform(0.005, 0.02) * (attempt + 1))
    raise AssertionError("unreachable")


def in_row_lock(model: type[Model], work: Callable[[Any], T], **lookup: Any) -> T:
    """One transaction holding the lock of the row ``lookup`` finds."""
    with transaction.atomic():
        row = model.objects.select_for_update().get(**lookup)
        return work(row)


def with_row_lock(
    model: type[Model],
    work: Callable[[Any], T],
    attempts: int = DEFAULT_ATTEMPTS,
    **lookup: Any,
) -> T:
    """``in_row_lock``, run again after a deadlock or serialization failure."""
    return retry_on_conflict(lambda: in_row_lock(model, work, **lookup), attempts)
