"""The one place that knows the games tasks by name and queues them.

Actions (``lobby``, ``moves``, ``bot_turns``, ``clocks``) never import ``games.tasks`` (which
imports them): they queue work here, after the commit, and the task is looked up by name in
the Celery app's registry. ``apply_async`` on the registered task (not ``send_task``) keeps
``task_always_eager`` working, so tests run the tasks in-process. ``games.tasks`` registers
under these names and is imported by ``GamesConfig.ready`` so every process knows them.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games.events import EMAIL_TURN_SECONDS, bot_think_seconds
from games.models import Seat, Table
from rosbi_platform import celery_app

SWEEP_TURN_CLOCKS = "games.tasks.sweep_turn_clocks"
PLAY_BOT_TURNS = "games.tasks.play_bot_turns"
HAND_OFF_PARTIE_RESULT = "games.tasks.hand_off_partie_result"
SWEEP_HAND_OFFS = "games.tasks.sweep_hand_offs"
SEND_TURN_EMAIL = "games.tasks.send_turn_email"


def _task(name: str) -> Any:
    return celery_app.tasks[name]


def queue_bot_turns(table_id: int, state_version: int, countdown: float | None = None) -> None:
    """Queue the bot task for this play version now, after the think delay unless told
    otherwise.

    The task checks the version under the table lock, so a duplicate (the sweeper re-queuing
    a bot it thought lost) plays nothing twice.
    """
    delay = bot_think_seconds() if countdown is None else countdown
    _task(PLAY_BOT_TURNS).apply_async(
        (table_id, state_version), countdown=delay if delay > 0 else None
    )


def queue_bot_turns_after_commit(table_id: int, state_version: int) -> None:
    """``queue_bot_turns`` once the current transaction has committed."""
    transaction.on_commit(lambda: queue_bot_turns(table_id, state_version))


def queue_turn_email_after_commit(table: Table, seats: list[Seat]) -> None:
    """Turn-based tables (an hour or more per move) tell the player on turn by e-mail."""
    if table.turn_seconds < EMAIL_TURN_SECONDS or table.turn_deadline is None:
        return
    seat = seats[table.turn_seat]
    if seat.user_id is None:
        return
    args = (table.pk, seat.number, table.state_version)
    transaction.on_commit(lambda: _task(SEND_TURN_EMAIL).delay(*args))


def queue_hand_off_after_commit(partie_id: int) -> None:
    """Hand the finished Partie on (``handoff.hand_off_partie_result``) after the commit."""
    transaction.on_commit(lambda: _task(HAND_OFF_PARTIE_RESULT).delay(partie_id))
