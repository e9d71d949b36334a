"""Reads of the notification centre: a person's notifications, the unread count and choices."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet

from rosbi_platform.notifications.models import (
    EMAIL_OFF_BY_DEFAULT,
    SWITCH_OF,
    SWITCHES,
    Kind,
    Notification,
    Preference,
)

PAGE_SIZE = 20


def switch_of(kind: str) -> str:
    """The switch that governs ``kind`` (event news share one)."""
    return SWITCH_OF.get(kind, kind)


@dataclass(frozen=True)
class Choice:
    """One switch as the person set it (or the default)."""

    kind: str
    label: str
    on_site: bool
    email: bool


def choices_of(user: Any) -> list[Choice]:
    """Every switch with the person's setting, in the order the form shows them."""
    stored = {p.kind: p for p in Preference.objects.filter(user=user)}
    rows = []
    for kind in SWITCHES:
        pref = stored.get(kind)
        rows.append(
            Choice(
                kind=kind,
                label=str(Kind(kind).label),
                on_site=pref.on_site if pref else True,
                email=pref.email if pref else kind not in EMAIL_OFF_BY_DEFAULT,
            )
        )
    return rows


def channels_for(user: Any, kind: str) -> tuple[bool, bool]:
    """(on the site, by e-mail) for one kind, from the person's switch or the defaults."""
    switch = switch_of(kind)
    pref = Preference.objects.filter(user=user, kind=switch).first()
    if pref is None:
        return True, switch not in EMAIL_OFF_BY_DEFAULT
    return pref.on_site, pref.email


def visible_notifications(user: Any) -> QuerySet[Notification]:
    """The person's notifications for the centre and the API, newest first."""
    return Notification.objects.filter(user_id=user.pk, on_site=True).order_by("-created", "-pk")


def notifications_page(user: Any, number: Any) -> Page:
    """One page of the centre (a page number out of range gives the last page)."""
    return Paginator(visible_notifications(user), PAGE_SIZE).get_page(number)


def recent_notifications(user: Any, tournament_id: int | None = None, limit: int = 10) -> list:
    """The newest few (about one event, when given) for a page's side panel."""
    rows = visible_notifications(user)
    if tournament_id is not None:
        rows = rows.filter(tournament_id=tournament_id)
    return list(rows[:limit])


def unread_count(user: Any) -> int:
    """Unread notifications shown on the site: one count on the partial index."""
    if not getattr(user, "is_authenticated", False):
        return 0
    return Notification.objects.filter(user_id=user.pk, read_at__isnull=True, on_site=True).count()
