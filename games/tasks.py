"""Celery tasks of live tables: the clock sweeper, the bot loop, the result hand-off, e-mail.

No task waits long: clocks are stored deadlines swept by a periodic task (every second via
django-celery-beat, created by a data migration), so timers survive restarts and work with any
number of processes. Tasks are thin: each calls the action module that does the work. The
actions queue tasks through ``games.queue`` (which names them), never by importing this module.
"""

from __future__ import annotations

from celery import shared_task

from games import bot_turns, clocks, handoff, queue, turn_notices
from games.events import bot_think_seconds


@shared_task(name=queue.SWEEP_TURN_CLOCKS, ignore_result=True)
def sweep_turn_clocks() -> int:
    """Run by beat every second: expired turns get their stand-in bot move, overdue bots
    their task again. Returns how many tables needed either."""
    return clocks.expire_turns() + clocks.resume_stalled_bots()


@shared_task(name=queue.PLAY_BOT_TURNS, ignore_result=True)
def play_bot_turns(table_id: int, expected_version: int | None = None) -> int:
    """Play the bot on turn, then queue the next bot move after the think delay.

    With no think delay, or when tasks run eagerly, it plays all consecutive bot turns in
    one loop instead (``bot_turns.play_bot_turns``). A worker never sleeps for a bot: the pause
    is the next task's countdown, so one worker serves many tables.
    """
    think = bot_think_seconds()
    if think <= 0 or play_bot_turns.app.conf.task_always_eager:
        return bot_turns.play_bot_turns(table_id, expected_version, think_seconds=think)
    version = bot_turns.play_bot_turn(table_id, expected_version)
    if version is None:
        return 0
    if bot_turns.bot_is_on_turn(table_id, version):
        queue.queue_bot_turns(table_id, version)
    return 1


@shared_task(name=queue.HAND_OFF_PARTIE_RESULT, ignore_result=True)
def hand_off_partie_result(partie_id: int) -> bool:
    """Hand a finished Partie to ratings and tournaments (the ``partie_finished`` signal), once."""
    return handoff.hand_off_partie_result(partie_id)


@shared_task(name=queue.SWEEP_HAND_OFFS, ignore_result=True)
def sweep_hand_offs() -> int:
    """Run by beat every 30 s: hand off Parties whose hand-off task was lost."""
    return handoff.hand_off_overdue_parties()


@shared_task(name=queue.SEND_TURN_EMAIL, ignore_result=True)
def send_turn_email(table_id: int, seat: int, state_version: int) -> bool:
    """Tell a player of a turn-based table that it is their move (if it still is), on the
    site and by e-mail, once per turn."""
    return turn_notices.notify_turn(table_id, seat, state_version)
