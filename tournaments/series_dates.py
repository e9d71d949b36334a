"""When a recurring series meets: its occurrences' start instants in UTC. Pure, no Django.

A series is "every <weekdays> at <local time> in <IANA zone>"; the wall-clock time is what
stays fixed, so 19:30 Europe/Berlin is 18:30 UTC in winter and 17:30 UTC in summer.
On the two days a year whose clock jumps:

* a local time that does not exist (in the spring gap, e.g. 02:30 on the last Sunday of March
  in Berlin) is moved forward by the length of the gap (03:30 local), like PEP 495's fold=0;
* a local time that happens twice (the autumn overlap, 02:30 on the last Sunday of October)
  is the first of the two (still summer time, fold=0).
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from collections.abc import Iterable

UTC = dt.UTC


def local_start(day: dt.date, at: dt.time, zone: str) -> dt.datetime:
    """The UTC instant of ``at`` on ``day`` in ``zone`` (the rules of the module docstring)."""
    local = dt.datetime.combine(day, at.replace(tzinfo=None, fold=0), zoneinfo.ZoneInfo(zone))
    return local.astimezone(UTC)


def occurrences(
    weekdays: Iterable[int],
    at: dt.time,
    zone: str,
    first_day: dt.date,
    last_day: dt.date,
    skipped: Iterable[dt.date] = (),
) -> list[dt.datetime]:
    """Every start of the series on the local days ``first_day..last_day`` (both included),
    sorted, in UTC. ``weekdays`` are Python's (Monday 0 .. Sunday 6); ``skipped`` local dates
    have no occurrence."""
    days = set(weekdays)
    if not days <= set(range(7)):
        raise ValueError(f"weekdays must be 0..6, not {sorted(days)}")
    skip = set(skipped)
    found = []
    day = first_day
    while day <= last_day:
        if day.weekday() in days and day not in skip:
            found.append(local_start(day, at, zone))
        day += dt.timedelta(days=1)
    return found
