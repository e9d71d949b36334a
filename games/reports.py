"""Reports of abusive chat: a player flags a line, site moderators handle it from the admin's queue.

One report per reporter and line (a unique constraint; a second one is refused). Staff
dismiss a report or mute the line's author at its table (``chat.mute_user``); either closes
every open report of that line.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.chat import mute_user
from games.events import ServiceError
from games.models import ChatMessage, ChatReport, Seat
from rosbi_platform.accounts.permissions import is_site_moderator

REASON_MAX_LENGTH = 200


def report_chat_message(
    table_id: int, message_id: Any, reporter: Any, reason: str = ""
) -> ChatReport:
    """``reporter``, who is at table ``table_id``, reports one of its chat lines."""
    message = None
    if isinstance(message_id, int) and not isinstance(message_id, bool):
        message = ChatMessage.objects.filter(pk=message_id, table_id=table_id).first()
    if message is None:
        raise ServiceError("not_found", _("There is no such chat message at this table."))
    if message.author_id == reporter.pk:
        raise ServiceError("bad_request", _("You cannot report your own message."))
    seated = Seat.objects.filter(table_id=table_id, user_id=reporter.pk).exists()
    if seated and message.channel == ChatMessage.Channel.SPECTATORS:
        raise ServiceError("not_found", _("There is no such chat message at this table."))
    refused = ServiceError("already_reported", _("You have already reported this message."))
    if ChatReport.objects.filter(message=message, reporter=reporter).exists():
        raise refused
    try:
        with transaction.atomic():
            return ChatReport.objects.create(
                message=message,
                reporter=reporter,
                reason=(reason or "").strip()[:REASON_MAX_LENGTH],
            )
    except IntegrityError:  # the same report, sent twice at once
        raise refused from None


def _handle(report_id: int, by_user: Any, status: str) -> ChatReport:
    if not is_site_moderator(by_user):
        raise ServiceError("forbidden", _("Only site moderators handle reports."))
    with transaction.atomic():
        report = ChatReport.objects.select_for_update().select_related("message").get(pk=report_id)
        if report.status != ChatReport.Status.OPEN:
            raise ServiceError("handled", _("This report has been handled already."))
        ChatReport.objects.filter(
            message_id=report.message_id, status=ChatReport.Status.OPEN
        ).update(status=status, handled_by=by_user, handled_at=timezone.now())
        if status == ChatReport.Status.MUTED:
            message = report.message
            mute_user(message.table_id, by_user, message.author)
        report.refresh_from_db()
        return report


def dismiss_report(report_id: int, by_user: Any) -> ChatReport:
    """Staff find nothing wrong: the report (and the line's other open reports) close."""
    return _handle(report_id, by_user, ChatReport.Status.DISMISSED)


def mute_reported_author(report_id: int, by_user: Any) -> ChatReport:
    """Staff mute the line's author at its table; the line's open reports close."""
    return _handle(report_id, by_user, ChatReport.Status.MUTED)
