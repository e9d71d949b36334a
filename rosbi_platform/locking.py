"""Row locks that also hold on SQLite, shared by every app's services.

PostgreSQL gets ``SELECT ... FOR UPDATE``. SQLite has no row locks: writers queue on the whole
database, so a locked unit starts with a no-op write that takes the write lock before anything
is read (a deferred transaction that read first could not upgrade safely), and the in-memory
test database (shared cache) reports a busy table at once instead of waiting, so the outermost
unit is retried. A failed attempt committed nothing and its on_commit callbacks were dropped.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.db import OperationalError, connection, transaction
from django.db.models import F, Model

T = TypeVar("T")

DEFAULT_ATTEMPTS = 200


def retry_while_locked(work: Callable[[], T], attempts: int = DEFAULT_ATTEMPTS) -> T:
    """Run ``work``; retry it while the database reports a lock, unless inside a transaction
    (then the caller's outermost unit is the one to retry)."""
    tries = attempts if not connection.in_atomic_block else 1
    for attempt in range(tries):
        try:
            return work()
        except OperationalError as error:
            if attempt + 1 >= tries or "locked" not in str(error):
                raise
            time.sleep(min(0.002 * (attempt + 1), 0.05))
    raise AssertionError("unreachable")


def in_row_lock(model: type[Model], work: Callable[[Any], T], touch: str, **lookup: Any) -> T:
    """One transaction holding the lock of the row ``lookup`` finds; ``touch`` names a field
    rewritten with itself on SQLite to take the write lock first."""
    with transaction.atomic():
        if connection.vendor == "sqlite":
            model.objects.filter(**lookup).update(**{touch: F(touch)})
        row = model.objects.select_for_update().get(**lookup)
        return work(row)


def with_row_lock(
    model: type[Model],
    work: Callable[[Any], T],
    touch: str,
    attempts: int = DEFAULT_ATTEMPTS,
    **lookup: Any,
) -> T:
    """``in_row_lock`` retried while the database is busy (see the module docstring)."""
    return retry_while_locked(lambda: in_row_lock(model, work, touch, **lookup), attempts)
