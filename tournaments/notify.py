"""Telling people: the live page's websocket push, and the notifications of an event's life
(registration confirmed, check-in open, a round in 10 minutes, your table is ready, results
posted, the event changed, waiting for its organiser, postponed or cancelled).

Every notification goes through ``rosbi_platform.notifications.services.send_notification``
with a key naming the occurrence (a table, a round, an audit log line), so a task that runs
twice or concurrently tells each person once. The functions here run in tasks queued after
the commit of the change (``common.enqueue``)."""

from __future__ import annotations

import datetime as dt
from functools import partial
from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _

from games.broadcast import send_to_group
from rosbi_platform.accounts.models import ORGANISING_ROLES, ClubMembership
from rosbi_platform.notifications.models import Kind
from rosbi_platform.notifications.services import (
    Message,
    mark_notifications_read,
    send_notification,
    time_text,
)
from tournaments import selectors
from tournaments.models import (
    Announcement,
    AnnouncementDelivery,
    AuditLog,
    Entry,
    Round,
    RoundSeat,
    RoundTable,
    Standing,
    Tournament,
)

__all__ = [
    "EVENT_NOTICE_KINDS",
    "mark_notices_read",
    "notify_announcement",
    "notify_check_in_open",
    "notify_event",
    "notify_registration",
    "notify_results",
    "notify_round_soon",
    "notify_table_ready",
    "push_changed",
    "push_to_page",
]

# A round's reminder goes this long before its start.
ROUND_SOON = dt.timedelta(minutes=10)


def push_to_page(tournament_id: int, message: dict[str, Any]) -> None:
    """Publish to the live page's group after commit; a lost push is healed by a reload.

    Uses the games app's one-loop publisher: ``async_to_sync`` per push from Celery workers
    would open a new event loop and Redis connection every time.
    """
    transaction.on_commit(partial(send_to_group, f"tournament.{tournament_id}", message))


def push_changed(tournament_id: int) -> None:
    """The live page reloads its round, seating and entries (after commit)."""
    push_to_page(tournament_id, {"type": "tournament.changed"})


def _event_url(tournament: Tournament) -> str:
    return reverse("tournaments:detail", args=[tournament.slug])


def _news_subject(tournament: Tournament) -> str:
    return _("Rosbi: news about %(event)s") % {"event": tournament.name}


def _active_entries(tournament: Tournament):
    return (
        Entry.objects.filter(tournament=tournament)
        .exclude(status=Entry.Status.WITHDRAWN)
        .select_related("user__profile")
        .order_by("pk")
    )


def _tell(user: Any, kind: str, key: str, build, url: str, tournament: Tournament) -> bool:
    return send_notification(user, kind, key, build, url, tournament_id=tournament.pk) is not None


# --------------------------------------------------------------------------- registration


def notify_registration(entry_id: int, occurrence: int) -> int:
    """ "You are registered" to the entrant (``occurrence``: the audit line of this
    registration, so registering again after a withdrawal is confirmed again)."""
    entry = Entry.objects.select_related("tournament", "user__profile").get(pk=entry_id)
    if entry.status == Entry.Status.WITHDRAWN:
        return 0
    tournament = entry.tournament

    def build() -> Message:
        if not entry.confirmed:
            text = _(
                "The organisers entered you in %(event)s, which starts %(when)s. Please confirm "
                "your entry on the event's page (until then your games there are unrated), or "
                "withdraw."
            ) % {"event": tournament.name, "when": time_text(tournament.starts_at)}
            subject = _("Rosbi: please confirm your entry in %(event)s") % {
                "event": tournament.name
            }
            return Message(text=text, subject=subject)
        if entry.status == Entry.Status.CHECKED_IN:
            text = _("You are registered and checked in for %(event)s (round %(round)s on).")
            text %= {"event": tournament.name, "round": entry.first_round}
        else:
            text = _("You are registered for %(event)s, which starts %(when)s.") % {
                "event": tournament.name,
                "when": time_text(tournament.starts_at),
            }
        subject = _("Rosbi: registered for %(event)s") % {"event": tournament.name}
        return Message(text=text, subject=subject)

    key = f"registration_confirmed:entry:{entry.pk}:{occurrence}"
    url = _event_url(tournament)
    return int(_tell(entry.user, Kind.REGISTRATION_CONFIRMED, key, build, url, tournament))


def notify_check_in_open(tournament_id: int, occurrence: int) -> int:
    """ "Check-in is open" to every registered entrant who has not checked in yet."""
    tournament = Tournament.objects.get(pk=tournament_id)
    url = _event_url(tournament)

    def build() -> Message:
        if tournament.check_in_closes_at is not None:
            text = _("Check-in for %(event)s is open until %(when)s: confirm that you play.")
            text %= {"event": tournament.name, "when": time_text(tournament.check_in_closes_at)}
        else:
            text = _("Check-in for %(event)s is open: confirm that you play.") % {
                "event": tournament.name
            }
        subject = _("Rosbi: check in for %(event)s") % {"event": tournament.name}
        return Message(text=text, subject=subject)

    sent = 0
    for entry in _active_entries(tournament).filter(status=Entry.Status.REGISTERED):
        key = f"check_in_open:tournament:{tournament.pk}:{occurrence}"
        sent += _tell(entry.user, Kind.CHECK_IN_OPEN, key, build, url, tournament)
    return sent


# --------------------------------------------------------------------------- rounds


def notify_round_soon(round_id: int, starts_at_iso: str) -> int:
    """ "Round N starts in 10 minutes" to its seated players (or, before seating, to every
    entrant), unless the round was moved or has started since it was queued."""
    round_ = Round.objects.select_related("tournament").get(pk=round_id)
    tournament = round_.tournament
    starts_at = dt.datetime.fromisoformat(starts_at_iso)
    if (
        round_.scheduled_at != starts_at
        or round_.status not in (Round.Status.PENDING, Round.Status.SEATED)
        or tournament.status not in (Tournament.Status.PLANNED, Tournament.Status.RUNNING)
    ):
        return 0
    if round_.status == Round.Status.SEATED:
        users = [
            seat.entry.user
            for seat in RoundSeat.objects.filter(round=round_, forfeit=False)
            .select_related("entry__user__profile")
            .order_by("pk")
        ]
    else:
        users = [entry.user for entry in _active_entries(tournament)]
    url = _event_url(tournament)

    def build() -> Message:
        # "Soon", not "in 10 minutes": a round set less than 10 minutes ahead is told at once.
        text = _("%(event)s: round %(round)s starts soon, at %(when)s.") % {
            "event": tournament.name,
            "round": round_.number,
            "when": time_text(starts_at),
        }
        subject = _("Rosbi: round %(round)s of %(event)s starts soon") % {
            "event": tournament.name,
            "round": round_.number,
        }
        return Message(text=text, subject=subject)

    key = f"round_soon:round:{round_.pk}:{int(starts_at.timestamp())}"
    return sum(_tell(user, Kind.ROUND_SOON, key, build, url, tournament) for user in users)


def _table_ready_message(tournament: Tournament, round_: Round, table: RoundTable) -> Message:
    """The "your table is ready" sentence in the active language (stored as the notice)."""
    if table.game_table_id is not None:
        where = _("table %(number)s (online)") % {"number": table.number}
    else:
        where = _("physical table %(number)s") % {"number": table.number}
    text = _("%(event)s, round %(round)s: your table is ready (%(where)s).") % {
        "event": tournament.name,
        "round": round_.number,
        "where": where,
    }
    subject = _("Rosbi: your table is ready (%(event)s)") % {"event": tournament.name}
    return Message(text=text, subject=subject)


def notify_table_ready(round_id: int) -> int:
    """ "Your table is ready" per seated player, once per table (a second run finds every
    notification stored and tells nobody again)."""
    sent = 0
    round_ = Round.objects.select_related("tournament").get(pk=round_id)
    tournament = round_.tournament
    for table in selectors.seating_of(round_):
        if table.game_table_id is not None:
            url = reverse("games:table", args=[table.game_table_id])
        else:
            url = _event_url(tournament)
        build = partial(_table_ready_message, tournament, round_, table)
        for seat in table.seats.all():
            key = f"table_ready:table:{table.pk}"
            sent += _tell(seat.entry.user, Kind.TABLE_READY, key, build, url, tournament)
    return sent


def notify_results(round_id: int) -> int:
    """ "Results posted" once a round is finished, to every entrant in its standings, with
    their place (after the last round: the final standings)."""
    round_ = Round.objects.select_related("tournament").get(pk=round_id)
    tournament = round_.tournament
    if round_.status != Round.Status.FINISHED:
        return 0
    last = not Round.objects.filter(tournament=tournament, number__gt=round_.number).exists()
    url = _event_url(tournament)
    sent = 0
    for standing in (
        Standing.objects.filter(tournament=tournament)
        .exclude(entry__status=Entry.Status.WITHDRAWN)
        .select_related("entry__user__profile")
        .order_by("rank", "entry_id")
    ):

        def build(rank: int = standing.rank) -> Message:
            if last:
                text = _(
                    "%(event)s is over: the final standings are posted (your place: %(rank)s)."
                )
            else:
                text = _(
                    "%(event)s: the results of round %(round)s are posted (your place: %(rank)s)."
                )
            text %= {"event": tournament.name, "round": round_.number, "rank": rank}
            subject = _("Rosbi: results of %(event)s") % {"event": tournament.name}
            return Message(text=text, subject=subject)

        key = f"results_posted:round:{round_.pk}"
        sent += _tell(standing.entry.user, Kind.RESULTS_POSTED, key, build, url, tournament)
    return sent


# --------------------------------------------------------------------------- the event's news

EVENT_NOTICE_KINDS = ("on_hold", "postponed", "cancelled", "event_changed")


def _event_message(tournament: Tournament, kind: str, organiser: bool, audit: AuditLog | None):
    """The sentence for one recipient, in the active language and time zone."""
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
        return _("%(event)s was postponed: it now starts %(when)s.") % {
            "event": name,
            "when": time_text(tournament.starts_at),
        }
    if kind == "event_changed":
        details = audit.details if audit is not None else {}
        number = details.get("round")
        if audit is not None and audit.action == "reschedule_round" and number != 1:
            round_ = Round.objects.filter(tournament=tournament, number=number).first()
            if round_ is not None and round_.scheduled_at is not None:
                return _("%(event)s: round %(round)s now starts %(when)s.") % {
                    "event": name,
                    "round": number,
                    "when": time_text(round_.scheduled_at),
                }
        return _("%(event)s was changed by the organisers: it starts %(when)s.") % {
            "event": name,
            "when": time_text(tournament.starts_at),
        }
    return _("%(event)s was cancelled by the organisers.") % {"event": name}


def notify_event(tournament_id: int, kind: str, occurrence: int | None = None) -> int:
    """Tell every registered (not withdrawn) player, and for "on hold" and "cancelled" also
    the club's organisers, what became of the event, each in their language and time zone.

    ``occurrence`` is the audit line of the change (an event can be held, postponed or changed
    more than once); a cancellation happens once."""
    if kind not in EVENT_NOTICE_KINDS:
        raise ValueError(kind)
    tournament = Tournament.objects.get(pk=tournament_id)
    audit = AuditLog.objects.filter(pk=occurrence).first() if occurrence else None
    players = {entry.user: False for entry in _active_entries(tournament)}
    if kind in ("on_hold", "cancelled"):
        for membership in ClubMembership.objects.filter(
            club_id=tournament.club_id, role__in=ORGANISING_ROLES
        ).select_related("user__profile"):
            players[membership.user] = True
    if kind == "cancelled":
        key = f"cancelled:tournament:{tournament.pk}"
    else:
        key = f"{kind}:tournament:{tournament.pk}:{occurrence or 0}"
    url = _event_url(tournament)
    sent = 0
    for user, organiser in players.items():

        def build(organiser: bool = organiser) -> Message:
            text = _event_message(tournament, kind, organiser, audit)
            return Message(text=text, subject=_news_subject(tournament))

        sent += _tell(user, kind, key, build, url, tournament)
    return sent


def notify_announcement(announcement_id: int) -> int:
    """The organisers' announcement to every entrant (not withdrawn), once each: a delivery
    row records who was told, and the notification's key (the announcement) keeps a second
    run or a second worker from telling anyone again. The organisers' own words, introduced
    in each reader's language. Returns how many were told now."""
    announcement = Announcement.objects.select_related("tournament").get(pk=announcement_id)
    tournament = announcement.tournament
    url = _event_url(tournament)

    def build() -> Message:
        line = _("%(event)s, from the organisers: %(text)s") % {
            "event": tournament.name,
            "text": announcement.text,
        }
        return Message(text=line, subject=_news_subject(tournament))

    key = f"announcement:{announcement.pk}"
    sent = 0
    for entry in _active_entries(tournament):
        AnnouncementDelivery.objects.get_or_create(announcement=announcement, user=entry.user)
        sent += _tell(entry.user, Kind.ANNOUNCEMENT, key, build, url, tournament)
    return sent


def mark_notices_read(user: Any, notice_ids: list[int] | None = None) -> int:
    """Mark the user's notifications read (``notice_ids``, or all); kept for the API."""
    return mark_notifications_read(user, notice_ids)
