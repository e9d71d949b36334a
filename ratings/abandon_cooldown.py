"""The cost of abandoning rated Parties: past a threshold, a wait before the next rated game.

The rule (docs/ratings.md, "Leaving rated games"), in the spirit of Lichess's escalating play
bans: look at the player's latest abandonment (``games.abandonments``) and count the
abandonments in the ``WINDOW`` that ends there, that one included. One costs nothing beyond
the record on their profile; two make them wait ten minutes from the latest; three, an hour;
four or more, a day. The count forgets an abandonment once it is older than the window, so a
player who stays at their tables starts afresh.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone
from django.utils.translation import ngettext

from games.selectors import abandonment_times
from rosbi_platform.notifications.services import time_text, zone_of

WINDOW = dt.timedelta(hours=24)
# Abandonments within WINDOW (the latest included) -> wait after the latest one.
WAITS: tuple[tuple[int, dt.timedelta], ...] = (
    (4, dt.timedelta(hours=24)),
    (3, dt.timedelta(hours=1)),
    (2, dt.timedelta(minutes=10)),
)


def wait_for(count: int) -> dt.timedelta:
    """The wait that ``count`` abandonments within the window cost (none for 0 or 1)."""
    for threshold, wait in WAITS:
        if count >= threshold:
            return wait
    return dt.timedelta(0)


def cooldown_until(user: Any, now: dt.datetime | None = None) -> tuple[dt.datetime, int] | None:
    """When ``user`` may play rated again and how many abandonments cost it; None when they
    may now."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    now = now or timezone.now()
    longest = WAITS[0][1]
    times = abandonment_times(user, now - longest - WINDOW, now)
    if not times:
        return None
    latest = times[-1]
    count = sum(1 for moment in times if moment >= latest - WINDOW)
    until = latest + wait_for(count)
    return (until, count) if until > now else None


def abandon_cooldown_refusal(user: Any, now: dt.datetime | None = None) -> str | None:
    """Why ``user`` may not start a rated game now (a sentence naming when they may, in their
    language and time zone), or None when they may."""
    waiting = cooldown_until(user, now)
    if waiting is None:
        return None
    until, count = waiting
    # The reader's language (the active one), the player's own time zone.
    with timezone.override(zone_of(user)):
        return ngettext(
            "You abandoned %(count)d rated Partie within 24 hours: "
            "you may play rated again from %(time)s.",
            "You abandoned %(count)d rated Parties within 24 hours: "
            "you may play rated again from %(time)s.",
            count,
        ) % {"count": count, "time": time_text(until)}
