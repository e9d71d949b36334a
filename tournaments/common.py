"""What every tournaments action module uses: the refusal, the row locks, the audit log, the
organiser check and the one way to queue a task.

Each action runs in one transaction holding row locks (``SELECT ... FOR NO KEY UPDATE``, run
again by ``rosbi_platform.locking.retry_on_conflict`` after a PostgreSQL deadlock or
serialization failure, decided by SQLSTATE), so a retried task or a second worker finds the
work done and does nothing. Follow-up work (tasks, websocket pushes) is queued with
``transaction.on_commit`` so it only ever sees committed state.

Lock order
----------
Every action takes its locks in ONE order, and may skip levels but never go back up:

    Tournament -> Round -> games.Table -> RoundTable -> RoundSeat / Entry

``locked_tournament`` takes the first, ``locked_round`` the first two, ``locked_table`` the
event, the round and the table (in that order, all in one transaction). Rows below the last
lock (a round's tables and seats, entries) are only written while their parents are held.
``games.Table`` rows are locked by ``games.lobby`` calls (release, no-shows, a withdrawal from
a running round) after the event and the round; the ``partie_finished`` receiver already holds
its game table, so ``results.record_table_result`` locks only the ``RoundTable`` below it.
The locks are ``FOR NO KEY UPDATE``: inserting a row that refers to a locked one (an audit
line, a seat) takes only a key-share lock and never waits for them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.db import transaction
from django.db.models import Model
from django.utils.translation import gettext as _

from rosbi_platform import celery_app
from rosbi_platform.locking import retry_on_conflict
from tournaments import selectors
from tournaments.models import AuditLog, Round, RoundTable, Tournament

T = TypeVar("T")

# The names the tasks are registered under (``tournaments/tasks.py`` uses the same constants).
ADVANCE_TOURNAMENT_TASK = "tournaments.tasks.advance_tournament"
RECOMPUTE_STANDINGS_TASK = "tournaments.tasks.recompute_standings"
NOTIFY_TABLE_READY_TASK = "tournaments.tasks.notify_table_ready"
NOTIFY_EVENT_TASK = "tournaments.tasks.notify_event"
NOTIFY_REGISTRATION_TASK = "tournaments.tasks.notify_registration"
NOTIFY_CHECK_IN_TASK = "tournaments.tasks.notify_check_in_open"
NOTIFY_ROUND_SOON_TASK = "tournaments.tasks.notify_round_soon"
NOTIFY_RESULTS_TASK = "tournaments.tasks.notify_results"
NOTIFY_ANNOUNCEMENT_TASK = "tournaments.tasks.notify_announcement"


class TournamentError(Exception):
    """A refused action, with a sentence for people."""


class SheetError(TournamentError):
    """A score sheet refused by the rules check: the whole text, and each deal's sentences
    (``by_deal``, deal numbers 1..6; a problem of the whole sheet is under ``None``) so a form
    shows every message next to the row it is about."""

    def __init__(self, message: str, by_deal: dict[int | None, list[str]]) -> None:
        super().__init__(message)
        self.by_deal = by_deal


def lock_row(model: type[Model], pk: int) -> Any:
    """The row, locked ``FOR NO KEY UPDATE`` until the transaction ends (call inside one)."""
    return model.objects.select_for_update(no_key=True).get(pk=pk)


def locked(model: type[Model], pk: int, work: Callable[[Any], T]) -> T:
    """Run ``work(row)`` in a transaction holding only ``row``'s lock (retried on conflict).

    Only for a single level of the lock order (see the module docstring); a round or a table
    goes through ``locked_round`` / ``locked_table`` so the event is locked first."""

    def attempt() -> T:
        with transaction.atomic():
            return work(lock_row(model, pk))

    return retry_on_conflict(attempt)


def locked_tournament(tournament_id: int, work: Callable[[Tournament], T]) -> T:
    """Run ``work(tournament)`` holding the event's lock (the top of the lock order)."""
    return locked(Tournament, tournament_id, work)


def locked_round(round_id: int, work: Callable[[Tournament, Round], T]) -> T:
    """Run ``work(tournament, round)`` holding the event's and then the round's lock."""

    def attempt() -> T:
        with transaction.atomic():
            tournament_id = Round.objects.values_list("tournament_id", flat=True).get(pk=round_id)
            tournament = lock_row(Tournament, tournament_id)
            return work(tournament, lock_row(Round, round_id))

    return retry_on_conflict(attempt)


def locked_table(round_table_id: int, work: Callable[[Tournament, Round, RoundTable], T]) -> T:
    """Run ``work(tournament, round, table)`` holding event, round and table, in that order."""

    def attempt() -> T:
        with transaction.atomic():
            round_id, tournament_id = RoundTable.objects.values_list(
                "round_id", "round__tournament_id"
            ).get(pk=round_table_id)
            tournament = lock_row(Tournament, tournament_id)
            round_ = lock_row(Round, round_id)
            return work(tournament, round_, lock_row(RoundTable, round_table_id))

    return retry_on_conflict(attempt)


def log_action(tournament: Tournament, actor: Any, action: str, **details: Any) -> AuditLog:
    """One line of the audit log; an anonymous or missing actor is the scheduler. Its id names
    the occurrence in notifications about it."""
    return AuditLog.objects.create(
        tournament=tournament,
        actor=actor if actor is not None and actor.is_authenticated else None,
        action=action,
        details=details,
    )


def require_date(value: Any) -> None:
    """Refuse a date an organiser may not enter (``models.date_refusal``) with its sentence:
    for the services that set a date without the model's ``clean`` (rounds, postponing)."""
    from tournaments.models import date_refusal

    refusal = date_refusal(value)
    if refusal:
        raise TournamentError(refusal)


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
