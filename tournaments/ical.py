"""iCalendar (RFC 5545) text for event feeds. Pure, no Django: plain values in, text out.

Times are written in UTC (``DTSTART:20261203T183000Z``), so every calendar program shows them
in its own zone, correct on both sides of a daylight-saving change. Text values are escaped
(backslash, semicolon, comma, newline) and every content line is folded at 75 octets (UTF-8,
never inside a character) with CRLF + space, as section 3.1 asks.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

LINE_OCTETS = 75


@dataclass(frozen=True)
class CalendarEvent:
    uid: str
    starts_at: dt.datetime
    summary: str
    url: str
    description: str = ""
    cancelled: bool = False
    ends_at: dt.datetime | None = None


def escape_text(value: str) -> str:
    """A TEXT value (RFC 5545 3.3.11)."""
    return (
        value.replace("\\", "\\\\")
        .replace(";", "\\;")
        .replace(",", "\\,")
        .replace("\r\n", "\n")
        .replace("\r", "\n")
        .replace("\n", "\\n")
    )


def utc_stamp(moment: dt.datetime) -> str:
    if moment.tzinfo is None:
        raise ValueError("calendar times must be aware")
    return moment.astimezone(dt.UTC).strftime("%Y%m%dT%H%M%SZ")


def fold_line(line: str) -> str:
    """One content line, folded so no physical line exceeds 75 octets."""
    parts: list[str] = []
    current = ""
    size = 0
    limit = LINE_OCTETS
    for char in line:
        width = len(char.encode("utf-8"))
        if size + width > limit:
            parts.append(current)
            current, size, limit = "", 0, LINE_OCTETS - 1  # the continuation's space counts
        current += char
        size += width
    parts.append(current)
    return "\r\n ".join(parts)


def calendar_text(name: str, events: Iterable[CalendarEvent], stamp: dt.datetime) -> str:
    """A whole VCALENDAR with one VEVENT per event; ``stamp`` is DTSTAMP (when generated)."""
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Rosbi//Tournaments//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"X-WR-CALNAME:{escape_text(name)}",
    ]
    for event in events:
        lines += [
            "BEGIN:VEVENT",
            f"UID:{escape_text(event.uid)}",
            f"DTSTAMP:{utc_stamp(stamp)}",
            f"DTSTART:{utc_stamp(event.starts_at)}",
        ]
        if event.ends_at is not None:
            lines.append(f"DTEND:{utc_stamp(event.ends_at)}")
        lines += [f"SUMMARY:{escape_text(event.summary)}", f"URL:{event.url}"]
        if event.description:
            lines.append(f"DESCRIPTION:{escape_text(event.description)}")
        lines.append("STATUS:CANCELLED" if event.cancelled else "STATUS:CONFIRMED")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return "".join(fold_line(line) + "\r\n" for line in lines)
