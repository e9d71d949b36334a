"""Telling people: the live page's websocket push, the "your table is ready" reminders and
what became of the event (waiting for the organiser, postponed, cancelled)."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.broadcast import send_to_group
from rosbi_platform.accounts.models import ClubMembership
from rosbi_platform.links import absolute_url
from tournaments import selectors
from tournaments.models import (
    Announcement,
    AnnouncementDelivery,
    Entry,
    Notice,
    Round,
    RoundTable,
    Tournament,
)


def push_to_page(tournament_id: int, message: dict[str, Any]) -> None:
    """Publish to the live page's group after commit; a lost push is healed by a reload.

    Uses the games app's one-loop publisher: ``async_to_sync`` per push from Celery workers
    would open a new event loop and Redis connection every time.
    """
    transaction.on_commit(partial(send_to_group, f"tournament.{tournament_id}", message))


def push_changed(tournament_id: int) -> None:
    """The live page reloads its round, seating and entries (after commit)."""
    push_to_page(tournament_id, {"type": "tournament.changed"})


def _language_of(user: Any) -> str:
    """The recipient's profile language: notices and e-mails are written outside any request."""
    profile = getattr(user, "profile", None)
    return getattr(profile, "language", None) or settings.LANGUAGE_CODE


def _table_ready_message(tournament: Tournament, round_: Round, table: RoundTable) -> str:
    """The "your table is ready" sentence in the active language (stored as the notice)."""
    if table.game_table_id is not None:
        where = _("table %(number)s (online)") % {"number": table.number}
    else:
        where = _("physical table %(number)s") % {"number": table.number}
    return _("%(event)s, round %(round)s: your table is ready (%(where)s).") % {
        "event": tournament.name,
        "round": round_.number,
        "where": where,
    }


def notify_table_ready(round_id: int) -> int:
    """In-app notice and e-mail "your table is ready" per seated player, once each (the
    notice's unique constraint makes a second run skip who was already reminded)."""
    sent = 0
    round_ = Round.objects.select_related("tournament").get(pk=round_id)
    tournament = round_.tournament
    for table in selectors.seating_of(round_):
        if table.game_table_id is not None:
            url = reverse("games:table", args=[table.game_table_id])
        else:
            url = reverse("tournaments:detail", args=[tournament.slug])
        for seat in table.seats.all():
            user = seat.entry.user
            language = _language_of(user)
            with translation.override(language):
                message = _table_ready_message(tournament, round_, table)
                subject = _("Rosbi: your table is ready (%(event)s)") % {"event": tournament.name}
            try:
                with transaction.atomic():
                    notice = Notice.objects.create(
                        user=user, tournament=tournament, table=table, message=message, url=url
                    )
            except IntegrityError:
                continue  # already reminded by an earlier run
            _email_notice(notice, user, subject)
            sent += 1
    return sent


EVENT_NOTICE_KINDS = ("on_hold", "postponed", "cancelled")


def _event_message(tournament: Tournament, kind: str, organiser: bool) -> str:
    """The sentence for one recipient, in the active language."""
    name = tournament.name
    if kind == "on_hold" and organiser:
        return _(
            "%(event)s needs your decision: %(reason)s Postpone it, cancel it or start with "
            "the players who are there."
        ) % {"event": name, "reason": selectors.hold_reason_text(tournament)}
    if kind == "on_hold":
        return _(
            "%(event)s could not start: %(reason)s The organisers will decide; we will tell you."
        ) % {"event": name, "reason": selectors.hold_reason_text(tournament)}
    if kind == "postponed":
        return _("%(event)s was postponed: it now starts %(when)s (%(zone)s).") % {
            "event": name,
            "when": selectors.event_time_text(tournament.starts_at, tournament.time_zone),
            "zone": tournament.time_zone,
        }
    return _("%(event)s was cancelled by the organisers.") % {"event": name}


def notify_event(tournament_id: int, kind: str) -> int:
    """Notice and e-mail to every registered (not withdrawn) player, and for "on hold" and
    "cancelled" also to the club's organisers, each in their own language."""
    if kind not in EVENT_NOTICE_KINDS:
        raise ValueError(kind)
    tournament = Tournament.objects.get(pk=tournament_id)
    players = {
        entry.user: False
        for entry in Entry.objects.filter(tournament=tournament)
        .exclude(status=Entry.Status.WITHDRAWN)
        .select_related("user__profile")
    }
    if kind in ("on_hold", "cancelled"):
        for membership in ClubMembership.objects.filter(
            club_id=tournament.club_id, role=ClubMembership.Role.ORGANISER
        ).select_related("user__profile"):
            players[membership.user] = True
    url = reverse("tournaments:detail", args=[tournament.slug])
    sent = 0
    for user, organiser in players.items():
        with translation.override(_language_of(user)):
            message = _event_message(tournament, kind, organiser)[:400]
            subject = _("Rosbi: news about %(event)s") % {"event": tournament.name}
        notice = Notice.objects.create(
            user=user, tournament=tournament, kind=kind, message=message, url=url
        )
        _email_notice(notice, user, subject)
        sent += 1
    return sent


def notify_announcement(announcement_id: int) -> int:
    """The organisers' announcement as an in-app notice to every entrant (not withdrawn),
    once per entrant: the delivery row's unique constraint makes a second run skip who was
    already told. Returns how many were told now."""
    announcement = Announcement.objects.select_related("tournament").get(pk=announcement_id)
    tournament = announcement.tournament
    url = reverse("tournaments:detail", args=[tournament.slug])
    users = [
        entry.user
        for entry in Entry.objects.filter(tournament=tournament)
        .exclude(status=Entry.Status.WITHDRAWN)
        .select_related("user__profile")
    ]
    sent = 0
    for user in users:
        with translation.override(_language_of(user)):
            message = _("%(event)s, from the organisers: %(text)s") % {
                "event": tournament.name,
                "text": announcement.text,
            }
        try:
            with transaction.atomic():
                AnnouncementDelivery.objects.create(announcement=announcement, user=user)
                Notice.objects.create(
                    user=user,
                    tournament=tournament,
                    kind="announcement",
                    message=message[:400],
                    url=url,
                )
        except IntegrityError:
            continue  # told by an earlier run
        sent += 1
    return sent


def _email_notice(notice: Notice, user, subject: str) -> None:
    """Send a stored notice by e-mail too (when the user has an address) and note when."""
    if not user.email:
        return
    send_mail(
        subject=subject,
        message=f"{notice.message}\n\n{absolute_url(notice.url)}",
        from_email=settings.DEFAULT_FROM_EMAIL,
        recipient_list=[user.email],
    )
    Notice.objects.filter(pk=notice.pk).update(emailed_at=timezone.now())


def mark_notices_read(user: Any, notice_ids: list[int] | None = None) -> int:
    """Mark the user's notices read (``notice_ids``, or all); how many changed. Someone
    else's notice is never touched."""
    notices = Notice.objects.filter(user=user, read_at__isnull=True)
    if notice_ids is not None:
        notices = notices.filter(pk__in=notice_ids)
    return notices.update(read_at=timezone.now())
