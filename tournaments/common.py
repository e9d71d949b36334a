"""What every tournaments action module uses: the refusal, the row lock, the audit log, the
organiser check and the one way to queue a task.

Each action runs in one transaction holding a row lock (``SELECT ... FOR UPDATE`` through
``rosbi_platform.locking``, run again after a PostgreSQL deadlock or serialization failure),
so a retried task or a second worker finds the work done and does nothing. Follow-up work
(tasks, websocket pushes) is queued with ``transaction.on_commit`` so it only ever sees
committed state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.db import transaction
from django.db.models import Model
from django.utils.translation import gettext as _

from rosbi_platform import celery_app
from rosbi_platform.locking import with_row_lock
from tournaments import selectors
from tournaments.models import AuditLog, Tournament

T = TypeVar("T")

# The names the tasks are registered under (``tournaments/tasks.py`` uses the same constants).
ADVANCE_TOURNAMENT_TASK = "tournaments.tasks.advance_tournament"
RECOMPUTE_STANDINGS_TASK = "tournaments.tasks.recompute_standings"
NOTIFY_TABLE_READY_TASK = "tournaments.tasks.notify_table_ready"


class TournamentError(Exception):
    """A refused action, with a sentence for people."""


def locked(model: type[Model], pk: int, work: Callable[[Any], T]) -> T:
    """Run ``work(row)`` in a transaction holding ``row``'s lock (``rosbi_platform.locking``)."""
    return with_row_lock(model, work, pk=pk)


def log_action(tournament: Tournament, actor: Any, action: str, **details: Any) -> None:
    """One line of the audit log; an anonymous or missing actor is the scheduler."""
    AuditLog.objects.create(
        tournament=tournament,
        actor=actor if actor is not None and actor.is_authenticated else None,
        action=action,
        details=details,
    )


def require_manager(user: Any, tournament: Tournament) -> None:
    """Refuse unless ``user`` organises the event's club (``None`` is the scheduler)."""
    if user is not None and not selectors.can_manage(user, tournament):
        raise TournamentError(_("Only the club's organisers can do this."))


def enqueue(task_name: str, *args: Any) -> None:
    """Queue the task registered as ``task_name`` once the transaction has committed.

    By name, so the action modules never import ``tournaments.tasks`` (which imports them).
    A registered task (``TournamentsConfig.ready`` imports the tasks module) is sent with its
    own ``apply_async``, which honours ``task_always_eager`` in tests; an unknown name goes to
    the broker with ``send_task``.
    """

    def send() -> None:
        celery_app.signature(task_name, args=args).apply_async()

    transaction.on_commit(send)
