"""Celery tasks of live tables: the clock sweeper, the bot loop, the result hand-off, e-mail.

No task waits long: clocks are stored deadlines swept by a periodic task (every second via
django-celery-beat, created by a data migration), so timers survive restarts and work with any
number of processes.
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.core.mail import send_mail
from django.urls import reverse

from games import services
from games.models import Seat, Table
from rosbi_platform.links import absolute_url

SWEEP_TASK_NAME = "games.tasks.sweep_turn_clocks"


@shared_task(name=SWEEP_TASK_NAME, ignore_result=True)
def sweep_turn_clocks() -> int:
    """Run by beat every second: expired turns get their stand-in bot move, overdue bots
    their task again. Returns how many tables needed either."""
    return services.expire_turns() + services.resume_stalled_bots()


@shared_task(name="games.tasks.play_bot_turns", ignore_result=True)
def play_bot_turns(table_id: int, expected_version: int | None = None) -> int:
    """Play the bot on turn, then queue the next bot move after the think delay.

    With no think delay, or when tasks run eagerly, it plays all consecutive bot turns in
    one loop instead (``services.play_bot_turns``). A worker never sleeps for a bot: the pause
    is the next task's countdown, so one worker serves many tables.
    """
    think = services.bot_think_seconds()
    if think <= 0 or play_bot_turns.app.conf.task_always_eager:
        return services.play_bot_turns(table_id, expected_version, think_seconds=think)
    version = services.play_bot_turn(table_id, expected_version)
    if version is None:
        return 0
    if services.bot_is_on_turn(table_id, version):
        queue_bot_turns(table_id, version)
    return 1


def queue_bot_turns(table_id: int, state_version: int, countdown: float | None = None) -> None:
    """Queue the bot task for this play version, after the think delay unless told otherwise.

    The task checks the version under the table lock, so a duplicate (the sweeper re-queuing
    a bot it thought lost) plays nothing twice.
    """
    delay = services.bot_think_seconds() if countdown is None else countdown
    play_bot_turns.apply_async((table_id, state_version), countdown=delay if delay > 0 else None)


@shared_task(name="games.tasks.hand_off_partie_result", ignore_result=True)
def hand_off_partie_result(partie_id: int) -> bool:
    """Hand a finished Partie to ratings and tournaments (the ``partie_finished`` signal), once."""
    return services.hand_off_partie_result(partie_id)


@shared_task(name="games.tasks.send_turn_email", ignore_result=True)
def send_turn_email(table_id: int, seat: int, state_version: int) -> bool:
    """Tell a player of a turn-based table that it is their move (if it still is)."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or table.state_version != state_version or table.turn_seat != seat:
        return False
    seat_row = Seat.objects.select_related("user").filter(table=table, number=seat).first()
    if seat_row is None or seat_row.user is None or not seat_row.user.email:
        return False
    link = absolute_url(reverse("games:table", args=[table_id]))
    send_mail(
        subject=f"Rosbi: your move at {table.name}",
        message=(
            f"It is your turn at {table.name}. You have until "
            f"{table.turn_deadline:%Y-%m-%d %H:%M} UTC to play: {link}"
        ),
        from_email=settings.DEFAULT_FROM_EMAIL,
        recipient_list=[seat_row.user.email],
    )
    return True
