"""Telling a person something: the one public way every app notifies (``send_notification``),
marking notifications read and setting which kinds a person wants where.

Exactly once: a notification's ``key`` names the event occurrence and is unique per user in the
database, so a task run twice or by two workers at once stores one notification; its e-mail is
sent after the commit by whoever locks the row first while ``emailed_at`` is still empty.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import zoneinfo
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from rosbi_platform.links import absolute_url
from rosbi_platform.notifications import selectors
from rosbi_platform.notifications.models import SWITCHES, Kind, Notification, Preference


@dataclass(frozen=True)
class Message:
    """What one person reads: the line in the notification centre and the e-mail's subject
    (the e-mail's body is the line and the link)."""

    text: str
    subject: str


def language_of(user: Any) -> str:
    """The person's profile language (notifications are written outside any request)."""
    profile = getattr(user, "profile", None)
    return getattr(profile, "language", None) or settings.LANGUAGE_CODE


def zone_of(user: Any) -> str:
    """The person's profile time zone (UTC when unknown)."""
    profile = getattr(user, "profile", None)
    name = getattr(profile, "time_zone", None) or "UTC"
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return "UTC"
    return name


@contextlib.contextmanager
def as_recipient(user: Any) -> Iterator[None]:
    """Translation and time zone of ``user`` for the texts written inside the block."""
    with translation.override(language_of(user)), timezone.override(zone_of(user)):
        yield


def one_line(text: str) -> str:
    """``text`` on one line, runs of white space as one space: an e-mail header must never
    hold a line break (``BadHeaderError``), whatever a name stored earlier holds."""
    return " ".join(text.split())


def time_text(moment: dt.datetime) -> str:
    """A moment in the active time zone, named: "12 December 2026 19:30 (Asia/Tokyo)"."""
    local = timezone.localtime(moment)
    return _("%(date)s %(time)s (%(zone)s)") % {
        "date": formats.date_format(local, "DATE_FORMAT"),
        "time": f"{local:%H:%M}",
        "zone": timezone.get_current_timezone_name(),
    }


def send_notification(
    user: Any,
    kind: str,
    key: str,
    message_builder: Callable[[], Message],
    url: str,
    *,
    tournament_id: int | None = None,
) -> Notification | None:
    """Tell ``user`` about one event occurrence (``key``) once: stored for the notification
    centre and e-mailed after the commit, each as the person's switches for ``kind`` say.

    ``message_builder`` is called in the person's language and time zone. Returns the new
    notification, or None when it existed already or the person switched the kind off. Call it
    from a task or after the commit of the change it reports (``transaction.on_commit``)."""
    if kind not in Kind.values:
        raise ValueError(f"unknown notification kind: {kind}")
    on_site, by_email = selectors.channels_for(user, kind)
    email_wanted = by_email and bool(user.email)
    if not (on_site or email_wanted):
        return None
    with as_recipient(user):
        message = message_builder()
    try:
        with transaction.atomic():
            notification = Notification.objects.create(
                user=user,
                kind=kind,
                key=key[:120],
                message=message.text[:400],
                subject=one_line(message.subject)[:200],
                url=url[:200],
                tournament_id=tournament_id,
                on_site=on_site,
                email_wanted=email_wanted,
            )
    except IntegrityError:
        existing = Notification.objects.filter(user=user, key=key[:120]).first()
        if existing is None:
            raise
        if existing.email_wanted and existing.emailed_at is None:
            # An earlier run stored it but its e-mail did not go out (a crash): try again.
            transaction.on_commit(partial(email_notification, existing.pk), robust=True)
        return None
    if email_wanted:
        # ``robust``: an e-mail that cannot go out is logged and stays unsent (``emailed_at``
        # empty); it never stops the caller, a task telling everyone in turn.
        transaction.on_commit(partial(email_notification, notification.pk), robust=True)
    return notification


def email_notification(notification_id: int) -> bool:
    """Send one notification's e-mail unless it went already: under the row's lock, so of two
    workers only the first sends, and ``emailed_at`` is stored with the sending."""
    with transaction.atomic():
        notification = (
            Notification.objects.select_for_update(of=("self",))
            .filter(pk=notification_id, email_wanted=True, emailed_at__isnull=True)
            .select_related("user__profile")
            .first()
        )
        if notification is None or not notification.user.email:
            return False
        user = notification.user
        with as_recipient(user):
            body = "\n\n".join(
                [
                    notification.message,
                    absolute_url(notification.url),
                    _("Choose which notifications you get: %(link)s")
                    % {"link": absolute_url(reverse("notifications:preferences"))},
                ]
            )
        send_mail(
            subject=one_line(notification.subject or notification.message[:100]),
            message=body,
            from_email=settings.DEFAULT_FROM_EMAIL,
            recipient_list=[user.email],
        )
        notification.emailed_at = timezone.now()
        notification.save(update_fields=["emailed_at"])
    return True


def mark_notifications_read(user: Any, notification_ids: list[int] | None = None) -> int:
    """Mark the person's unread notifications read (``notification_ids``, or all); how many
    changed. Someone else's notification is never touched."""
    rows = Notification.objects.filter(user_id=user.pk, read_at__isnull=True)
    if notification_ids is not None:
        rows = rows.filter(pk__in=notification_ids)
    return rows.update(read_at=timezone.now())


def set_notification_choices(user: Any, choices: dict[str, tuple[bool, bool]]) -> None:
    """Store the person's switches: ``{kind: (on the site, by e-mail)}`` for kinds of
    ``SWITCHES`` (any other kind is refused)."""
    unknown = set(choices) - set(SWITCHES)
    if unknown:
        raise ValueError(f"not a notification switch: {sorted(unknown)}")
    with transaction.atomic():
        for kind, (on_site, email) in choices.items():
            Preference.objects.update_or_create(
                user=user, kind=kind, defaults={"on_site": on_site, "email": email}
            )
