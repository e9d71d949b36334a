""" "Your turn" for turn-based (correspondence) tables: a table whose clock gives at least
``events.EMAIL_TURN_SECONDS`` (one hour) per move. The player on turn gets a notification on
the site and by e-mail (as their switches say), once per turn."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from games.events import EMAIL_TURN_SECONDS
from games.models import Seat, Table
from rosbi_platform.notifications.models import Kind
from rosbi_platform.notifications.services import Message, send_notification, time_text


def is_turn_based(table: Table) -> bool:
    """A correspondence table: an hour or more per move."""
    return table.turn_seconds >= EMAIL_TURN_SECONDS


def notify_turn(table_id: int, seat: int, state_version: int) -> bool:
    """Tell the player on ``seat`` that it is their move, if it still is (same play version,
    same seat); the key names this turn, so a repeated task tells them once."""
    table = Table.objects.filter(pk=table_id).first()
    if (
        table is None
        or not is_turn_based(table)
        or table.state_version != state_version
        or table.turn_seat != seat
    ):
        return False
    seat_row = Seat.objects.select_related("user__profile").filter(table=table, number=seat).first()
    if seat_row is None or seat_row.user is None:
        return False
    deadline = table.turn_deadline

    def build() -> Message:
        if deadline is not None:
            text = _("It is your turn at %(table)s. You have until %(deadline)s to play.") % {
                "table": table.name,
                "deadline": time_text(deadline),
            }
        else:
            text = _("It is your turn at %(table)s.") % {"table": table.name}
        subject = _("Rosbi: your move at %(table)s") % {"table": table.name}
        return Message(text=text, subject=subject)

    key = f"your_turn:table:{table.pk}:v{state_version}:s{seat}"
    url = reverse("games:table", args=[table.pk])
    return send_notification(seat_row.user, Kind.YOUR_TURN, key, build, url) is not None
