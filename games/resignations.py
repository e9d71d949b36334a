"""Resigning: a seated player gives up the Partie; a bot plays their seat to the end.

The house rule (docs/protocol.md section 6, the rules page): the score sheet keeps every point
as played, bot's included, but the player who resigned is placed last, below everyone who
played on (``games.outcomes.final_places``), and rated tables count the Partie for them as a
last place (they left: ``SeatOutcome.left``). Everyone at the table is told by a
``player_resigned`` event, followed by the ``seat_changed`` that seats the bot.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games import queue, selectors
from games.abandonments import record_abandonment
from games.events import EventLog, ServiceError, bot_must_move, notify_lobby, with_locked_table
from games.lobby import hand_seat_to_bot
from games.models import Abandonment, Seat, Table


def resign_partie(table_id: int, user: Any) -> None:
    """``user`` resigns the Partie at their table: placed last, a bot finishes the seat."""

    def work(table: Table) -> None:
        if table.status != Table.Status.PLAYING:
            raise ServiceError(
                "not_playing", _("You can only resign while the Partie is being played.")
            )
        seats = selectors.seats_of(table)
        seat = next((s for s in seats if s.user_id == user.pk), None)
        if seat is None:
            raise ServiceError("not_seated", _("You have no seat at this table."))
        log = EventLog(table)
        log.add(
            "player_resigned",
            {"seat": seat.number, "user_id": user.pk, "name": selectors.user_display_name(user)},
        )
        record_abandonment(table, user.pk, Abandonment.Kind.RESIGNED)
        seat.resigned = True
        Seat.objects.filter(pk=seat.pk).update(resigned=True)
        deal = hand_seat_to_bot(table, seats, seat, log)
        log.flush()
        if bot_must_move(seats, deal):
            queue.queue_bot_turns_after_commit(table.pk, table.state_version)
        notify_lobby()

    with_locked_table(table_id, work)
