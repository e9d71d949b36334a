"""Notifications' part of a person's data: their notices and choices (export), deleted with
the account."""

from __future__ import annotations

from typing import Any

from rosbi_platform.accounts.personal_data import DataSection
from rosbi_platform.notifications.models import Notification, Preference


def export_notifications(user: Any) -> dict[str, Any]:
    return {
        "notifications": list(
            Notification.objects.filter(user=user)
            .order_by("created", "pk")
            .values("kind", "message", "subject", "url", "created", "emailed_at", "read_at")
        ),
        "choices": list(
            Preference.objects.filter(user=user).order_by("kind").values("kind", "on_site", "email")
        ),
    }


def erase_notifications(user: Any) -> None:
    Notification.objects.filter(user=user).delete()
    Preference.objects.filter(user=user).delete()


SECTION = DataSection(
    name="notifications",
    export=export_notifications,
    covers=("notifications.Notification.user", "notifications.Preference.user"),
    erase=erase_notifications,
)
