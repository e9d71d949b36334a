"""Aborting a started table before its first card: nothing is played, nothing is rated.

The table's owner (or a site moderator) aborts at once; any other seated player votes, and the table is
aborted when every seated human has voted. At ranked-queue tables the owner is just the first
player the queue seated, so there every human must agree; tournament tables belong to their
round and are never aborted here. An aborted table's Partie never finishes, so it is never
handed off: ratings and tournaments never hear of it.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import selectors
from games.events import EventLog, ServiceError, notify_lobby, record_vote, with_locked_table
from games.live.positions import positions
from games.models import Seat, Table, TableVote
from rosbi_platform.accounts.permissions import is_site_moderator


def _check_abortable(table: Table) -> None:
    if table.status != Table.Status.PLAYING:
        raise ServiceError("not_playing", _("Only a Partie that has started can be aborted."))
    if table.tournament_round_id is not None:
        raise ServiceError(
            "forbidden",
            _("A tournament table cannot be aborted; ask the organisers, or resign."),
        )
    row = selectors.current_deal_row(table, with_partie=False)
    if row is not None and (row.number > 0 or row.moves):
        raise ServiceError(
            "too_late",
            _("A card has been played: the Partie can no longer be aborted (you can resign)."),
        )


def _abort(table: Table, log: EventLog, by_name: str | None) -> None:
    table.status = Table.Status.ABORTED
    table.finished_at = timezone.now()
    table.turn_seat = None
    table.turn_deadline = None
    table.bot_due_at = None
    TableVote.objects.filter(table=table).delete()
    log.add("table_aborted", {"by": by_name}, changes_play=True)
    log.flush("status", "finished_at")
    transaction.on_commit(partial(positions.discard, table.pk))
    notify_lobby()


def abort_table(table_id: int, user: Any) -> bool:
    """Abort the table before its first card: at once when ``user`` is its owner (not at a
    ranked table) or a site moderator, else as ``user``'s vote, which aborts it when every seated human
    has voted. Returns whether the table is aborted now."""

    def work(table: Table) -> bool:
        _check_abortable(table)
        owner = table.owner_id is not None and table.owner_id == user.pk
        if is_site_moderator(user) or (owner and not table.ranked_queue):
            _abort(table, EventLog(table), selectors.user_display_name(user))
            return True
        seats = selectors.seats_of(table)
        seat: Seat | None = next((s for s in seats if s.user_id == user.pk), None)
        if seat is None:
            raise ServiceError("not_seated", _("You have no seat at this table."))
        log = EventLog(table)
        if record_vote(table, seats, TableVote.Kind.ABORT, seat, log):
            _abort(table, log, None)
            return True
        log.flush()
        return False

    return with_locked_table(table_id, work)
