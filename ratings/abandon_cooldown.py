"""The cost of abandoning rated Parties: past a threshold, a wait before the next rated game.

The rule (docs/ratings.md, "Leaving rated games"), in the spirit of Lichess's escalating play
bans: at each abandonment (``games.abandonments``) count the abandonments in the ``WINDOW``
that ends there, that one included. One costs nothing beyond the record on their profile; two
make them wait ten minutes from that moment; three, an hour; four or more, a day; the player
waits until the latest of these ends. The count forgets an abandonment once it is older than
the window, so a player who stays at their tables starts afresh.
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


def cooldown_end(times: list[dt.datetime]) -> tuple[dt.datetime, int] | None:
    """The pure rule: every abandonment costs the wait of the count in the window ending at it
    (itself included), from its moment; the player waits until the latest of those ends.
    Returns (end, that count), or None when no abandonment costs a wait. Taking the latest end
    over every abandonment makes the rule monotone: one more abandonment never shortens a
    wait."""
    ordered = sorted(times)
    best: tuple[dt.datetime, int] | None = None
    for index, moment in enumerate(ordered):
        count = sum(1 for earlier in ordered[: index + 1] if earlier >= moment - WINDOW)
        wait = wait_for(count)
        if wait and (best is None or moment + wait > best[0]):
            best = (moment + wait, count)
    return best


def cooldown_until(user: Any, now: dt.datetime | None = None) -> tuple[dt.datetime, int] | None:
    """When ``user`` may play rated again and how many abandonments cost it; None when they
    may now."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    now = now or timezone.now()
    longest = WAITS[0][1]
    # An abandonment whose wait could still run started within ``longest``; its window reaches
    # one ``WINDOW`` further back.
    ending = cooldown_end(abandonment_times(user, now - longest - WINDOW, now))
    return ending if ending is not None and ending[0] > now else None


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
