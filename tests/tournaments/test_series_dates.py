"""Series expansion (pure): wall-clock times stay fixed across daylight-saving changes, skipped
dates have no occurrence."""

from __future__ import annotations

import datetime as dt
import zoneinfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.series_dates import local_start, occurrences

UTC = dt.UTC
T1930 = dt.time(19, 30)


def utc(*args: int) -> dt.datetime:
    return dt.datetime(*args, tzinfo=UTC)


def test_thursday_1930_berlin_is_1830_utc_in_winter_and_1730_in_summer():
    found = occurrences([3], T1930, "Europe/Berlin", dt.date(2026, 3, 19), dt.date(2026, 4, 2))
    assert found == [utc(2026, 3, 19, 18, 30), utc(2026, 3, 26, 18, 30), utc(2026, 4, 2, 17, 30)]
    found = occurrences([3], T1930, "Europe/Berlin", dt.date(2026, 10, 22), dt.date(2026, 10, 29))
    assert found == [utc(2026, 10, 22, 17, 30), utc(2026, 10, 29, 18, 30)]


def test_the_last_sundays_of_march_and_october_in_berlin():
    # 29 March 2026 (clocks 02:00 -> 03:00) and 25 October 2026 (03:00 -> 02:00) are Sundays.
    march = occurrences([6], T1930, "Europe/Berlin", dt.date(2026, 3, 22), dt.date(2026, 3, 29))
    assert march == [utc(2026, 3, 22, 18, 30), utc(2026, 3, 29, 17, 30)]
    october = occurrences([6], T1930, "Europe/Berlin", dt.date(2026, 10, 18), dt.date(2026, 10, 25))
    assert october == [utc(2026, 10, 18, 17, 30), utc(2026, 10, 25, 18, 30)]
    # The changeover hour itself: 02:30 does not exist in March (moved to 03:30 CEST) and
    # happens twice in October (the first, still summer time, is taken).
    assert local_start(dt.date(2026, 3, 29), dt.time(2, 30), "Europe/Berlin") == utc(
        2026, 3, 29, 1, 30
    )
    assert local_start(dt.date(2026, 10, 25), dt.time(2, 30), "Europe/Berlin") == utc(
        2026, 10, 25, 0, 30
    )


def test_a_us_zone_changes_on_its_own_sundays():
    # New York: summer time from 8 March 2026, winter time from 1 November 2026.
    zone = "America/New_York"
    spring = occurrences([6], T1930, zone, dt.date(2026, 3, 1), dt.date(2026, 3, 8))
    assert spring == [utc(2026, 3, 2, 0, 30), utc(2026, 3, 8, 23, 30)]
    autumn = occurrences([6], T1930, zone, dt.date(2026, 10, 25), dt.date(2026, 11, 1))
    assert autumn == [utc(2026, 10, 25, 23, 30), utc(2026, 11, 2, 0, 30)]
    # Between 8 and 29 March Berlin and New York are 5 hours apart instead of 6.
    berlin = occurrences([3], T1930, "Europe/Berlin", dt.date(2026, 3, 12), dt.date(2026, 3, 12))
    new_york = occurrences([3], T1930, zone, dt.date(2026, 3, 12), dt.date(2026, 3, 12))
    assert new_york[0] - berlin[0] == dt.timedelta(hours=5)


def test_skipped_dates_have_no_occurrence():
    found = occurrences(
        [3],
        T1930,
        "Europe/Berlin",
        dt.date(2026, 12, 17),
        dt.date(2027, 1, 7),
        skipped=[dt.date(2026, 12, 24), dt.date(2026, 12, 31)],
    )
    assert found == [utc(2026, 12, 17, 18, 30), utc(2027, 1, 7, 18, 30)]


def test_bad_weekdays_are_refused():
    with pytest.raises(ValueError):
        occurrences([7], T1930, "Europe/Berlin", dt.date(2026, 1, 1), dt.date(2026, 1, 8))


ZONES = ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Tokyo", "UTC"]


@given(
    weekdays=st.sets(st.integers(0, 6), min_size=1),
    at=st.times(),
    zone=st.sampled_from(ZONES),
    first=st.dates(dt.date(2020, 1, 1), dt.date(2035, 12, 31)),
    days=st.integers(0, 120),
    skipped=st.sets(st.dates(dt.date(2020, 1, 1), dt.date(2036, 6, 1)), max_size=10),
)
def test_occurrences_properties(weekdays, at, zone, first, days, skipped):
    last = first + dt.timedelta(days=days)
    found = occurrences(weekdays, at, zone, first, last, skipped)
    tz = zoneinfo.ZoneInfo(zone)
    expected_days = [
        first + dt.timedelta(days=n)
        for n in range(days + 1)
        if (first + dt.timedelta(days=n)).weekday() in weekdays
        and first + dt.timedelta(days=n) not in skipped
    ]
    assert len(found) == len(expected_days)
    assert found == sorted(found) and len(set(found)) == len(found)
    for moment, day in zip(found, expected_days, strict=True):
        assert moment.tzinfo is UTC
        local = moment.astimezone(tz)
        wall = dt.datetime.combine(day, at.replace(tzinfo=None))
        exists = (
            dt.datetime.combine(day, at.replace(tzinfo=None), tz).astimezone(UTC).astimezone(tz)
        ).replace(tzinfo=None) == wall
        if exists:
            # The wall-clock time is the same every week, whatever the season.
            assert local.replace(tzinfo=None) == wall
        else:
            # In the spring gap: moved forward by the gap, never backwards, same day.
            assert local.replace(tzinfo=None) > wall and local.date() == day
    # Skipping changes nothing but the skipped dates.
    unskipped = occurrences(weekdays, at, zone, first, last)
    assert [m for m in unskipped if m.astimezone(tz).date() not in skipped] == found
