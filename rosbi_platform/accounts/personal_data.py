"""A person's data across the apps: what "download my data" exports and what "delete my
account" must settle first.

Accounts may not import the other apps (docs/architecture.md: dependencies point one way), so
each app registers its part here from its ``AppConfig.ready``: an export function (public
functions of its own that read the person's rows), the ``app.Model.field`` relations to the
user that the export covers or deliberately leaves out (with the reason), a refusal ("not now,
because …") and an eraser that runs inside the deletion's transaction. ``tests/platform/
test_personal_data.py`` enumerates every relation of every installed model to ``User`` and
fails for one that is neither exported nor excluded, so a new model cannot be forgotten.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

logger = logging.getLogger(__name__)

EXPORT_FORMAT = 1
"""Bumped when the shape of the export changes incompatibly."""


@dataclass(frozen=True)
class DataSection:
    """One app's part of a person's data."""

    name: str
    export: Callable[[Any], dict[str, Any]]
    covers: tuple[str, ...] = ()
    excludes: dict[str, str] = field(default_factory=dict)
    refusal: Callable[[Any], str | None] | None = None
    erase: Callable[[Any], None] | None = None


_SECTIONS: dict[str, DataSection] = {}


def register_section(section: DataSection) -> None:
    """Called once per app from its ``ready``; registering the same name again replaces it (a
    reloaded app in tests)."""
    _SECTIONS[section.name] = section


def sections() -> list[DataSection]:
    """The registered sections, in the order of registration (the apps' order)."""
    return list(_SECTIONS.values())


def covered_relations() -> set[str]:
    """Every ``app_label.Model.field`` relation to the user that some section exports."""
    return {label for section in sections() for label in section.covers}


def excluded_relations() -> dict[str, str]:
    """Relations deliberately left out of the export, each with the reason."""
    return {label: reason for section in sections() for label, reason in section.excludes.items()}


def export_personal_data(user: Any) -> dict[str, Any]:
    """Everything the site holds about ``user``, one key per app section: plain JSON values
    (datetimes stay datetimes for the caller's encoder). Never another player's hidden
    information, never a secret (tokens appear as their metadata)."""
    document: dict[str, Any] = {
        "format": EXPORT_FORMAT,
        "exported_at": timezone.now(),
        "user_id": user.pk,
    }
    for section in sections():
        document[section.name] = section.export(user)
    return document


def deletion_refusals(user: Any) -> list[str]:
    """Why the account cannot be deleted right now (empty when it can)."""
    return [
        reason
        for section in sections()
        if section.refusal is not None
        for reason in [section.refusal(user)]
        if reason
    ]


def erase_personal_data(user: Any) -> None:
    """Every app lets go of the person (inside ``delete_account``'s transaction)."""
    for section in sections():
        if section.erase is not None:
            section.erase(user)


# --------------------------------------------------------------------------- export throttle

EXPORT_RATE_DEFAULT = "5/h"
_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def export_rate() -> tuple[int, int] | None:
    """``settings.PERSONAL_DATA_EXPORT_RATE`` ("5/h") as (requests, seconds); None for "off"."""
    rate = getattr(settings, "PERSONAL_DATA_EXPORT_RATE", EXPORT_RATE_DEFAULT)
    if not rate or str(rate).strip().lower() == "off":
        return None
    count, _slash, period = str(rate).partition("/")
    return int(count), _PERIODS[period.strip()[:1].lower()]


def count_export(user: Any) -> int:
    """Count one export of ``user``'s data (it reads every app: expensive) and return the
    seconds to wait when they asked too often (0: go ahead). Page and API share the count, in
    the shared cache (fixed windows); a cache outage lets the export through."""
    rate = export_rate()
    if rate is None:
        return 0
    limit, period = rate
    now = int(time.time())
    window = now // period
    # date_joined tells apart the "user 1" of different databases sharing one Redis.
    joined = int(user.date_joined.timestamp() * 1_000_000) if user.date_joined else 0
    key = f"personal-data-export:{user.pk}:{joined}:{window}"
    try:
        cache.add(key, 0, timeout=period + 1)
        count = cache.incr(key)
    except Exception:  # noqa: BLE001 - the cache is down: do not refuse people their data
        logger.warning("personal data export throttle: the cache did not answer")
        return 0
    return 0 if count <= limit else (window + 1) * period - now
