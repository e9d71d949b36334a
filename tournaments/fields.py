"""A date-time column that always renders, whatever a row holds.

The models' validation bounds every date an organiser enters (``models.check_date_bounds``),
but a row may hold anything written before that rule or around the services (a bulk update,
a restore). A moment near the ends of Python's calendar cannot be shown in every time zone:
9999-12-31 23:00 UTC is already year 10000 in Pacific/Kiritimati (UTC+14), and
``astimezone`` raises ``OverflowError`` on every page, feed and export that shows it. Read
from the database, such a value is moved inside ``RENDERABLE`` (a year of room at either end
for the arithmetic of schedules, reminders and calendar entries); what is stored is left as it
is, so the organiser can still see and correct the event.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import models

# Far enough from year 1 and year 9999 that any time zone and a year of arithmetic fit.
RENDERABLE = (
    dt.datetime(2, 1, 1, tzinfo=dt.UTC),
    dt.datetime(9998, 12, 31, tzinfo=dt.UTC),
)


def renderable(value: dt.datetime | None) -> dt.datetime | None:
    """``value`` moved inside ``RENDERABLE`` (None and naive values stay as they are)."""
    if value is None or value.tzinfo is None:
        return value
    earliest, latest = RENDERABLE
    if value < earliest:
        return earliest
    if value > latest:
        return latest
    return value


class RenderableDateTimeField(models.DateTimeField):
    """A ``DateTimeField`` whose values, as read, render in every time zone."""

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        return renderable(value)
