"""Clocks: expired turns get a stand-in bot move, lost bot tasks are queued again, and a
player who comes back takes the seat back from the stand-in.

Clocks are stored deadlines (``Table.turn_deadline``, ``Table.bot_due_at``) swept every
second by Celery beat (``games.tasks.sweep_turn_clocks``), so timers survive restarts and
work with any number of processes.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from games import queue, selectors
from games.bot_turns import choose_bot_move
from games.events import (
    EventLog,
    bot_must_move,
    bot_stall_delta,
    change_seat,
    set_clock,
    with_locked_table,
)
from games.models import Seat, Table
from games.moves import play_for_seat
from rosbi_platform.locking import retry_on_conflict


def expire_turns(now: dt.datetime | None = None) -> int:
    """The clock sweeper: for every human whose deadline passed, mark them away and let a bot
    play their move, exactly once (the version check under the row lock settles any race with
    the player's own move or another sweeper). Returns the number of moves played."""
    now = now or timezone.now()
    due = retry_on_conflict(
        lambda: list(
            Table.objects.filter(status=Table.Status.PLAYING, turn_deadline__lte=now).values_list(
                "pk", "state_version"
            )
        )
    )
    played = 0
    for table_id, seen_version in due:
        if _expire_turn(table_id, seen_version, now):
            played += 1
    return played


def resume_stalled_bots(now: dt.datetime | None = None) -> int:
    """Queue the bot task again for tables whose bot on turn is overdue (the task was lost, or
    the worker restarted). Idempotent: the bot task checks the play version under the lock."""
    now = now or timezone.now()
    stalled = retry_on_conflict(
        lambda: list(
            Table.objects.filter(status=Table.Status.PLAYING, bot_due_at__lte=now).values_list(
                "pk", "state_version"
            )
        )
    )
    for table_id, version in stalled:
        # Push the due time on first, so that the next sweeps do not queue the same work again.
        retry_on_conflict(
            lambda table_id=table_id, version=version: Table.objects.filter(
                pk=table_id, state_version=version
            ).update(bot_due_at=now + bot_stall_delta())
        )
        queue.queue_bot_turns(table_id, version, countdown=0)
    return len(stalled)


def _expire_turn(table_id: int, seen_version: int, now: dt.datetime) -> bool:
    def work(table: Table) -> bool:
        if (
            table.status != Table.Status.PLAYING
            or table.state_version != seen_version
            or table.turn_deadline is None
            or table.turn_deadline > now
        ):
            return False
        row = selectors.current_deal_row(table)
        deal = selectors.rebuild_deal(row, table)
        seats = selectors.seats_of(table)
        seat = seats[deal.turn]
        if seat.user_id is None or seat.away:
            return False
        seat.away = True
        log = EventLog(table)
        change_seat(table, seat, log)
        log.flush()
        move = choose_bot_move(table, row, deal, seat)
        played = play_for_seat(table, seat, move, seats, row, deal)
        if bot_must_move(played.seats, played.deal):
            queue.queue_bot_turns_after_commit(table.pk, table.state_version)
        return True

    return with_locked_table(table_id, work)


def return_to_seat(table_id: int, user: Any) -> bool:
    """The player is back: clear ``away`` so the bot stops playing for them."""

    def work(table: Table) -> bool:
        seat = Seat.objects.filter(table=table, user=user).select_related("user").first()
        if seat is None or not seat.away:
            return False
        seat.away = False
        log = EventLog(table)
        change_seat(table, seat, log)
        row = selectors.current_deal_row(table) if table.status == Table.Status.PLAYING else None
        if row is not None:
            deal = selectors.rebuild_deal(row, table)
            if not deal.over and deal.turn == seat.number:
                set_clock(table, selectors.seats_of(table), deal, log)
        log.flush()
        return True

    return with_locked_table(table_id, work)
