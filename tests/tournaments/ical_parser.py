"""A tiny RFC 5545 reader for the tests: checks the physical lines and returns the components."""

from __future__ import annotations

import datetime as dt
import re


def unescape(value: str) -> str:
    return re.sub(r"\\([\\;,nN])", lambda m: "\n" if m.group(1) in "nN" else m.group(1), value)


def parse_calendar(text: str) -> list[dict[str, str]]:
    """The VEVENTs as {property: unescaped value}; asserts CRLF, folding and nesting."""
    assert text.endswith("\r\n")
    physical = text[:-2].split("\r\n")
    for line in physical:
        assert "\n" not in line and "\r" not in line
        assert len(line.encode("utf-8")) <= 75, line
    logical: list[str] = []
    for line in physical:
        if line.startswith((" ", "\t")):
            logical[-1] += line[1:]
        else:
            logical.append(line)
    assert logical[0] == "BEGIN:VCALENDAR" and logical[-1] == "END:VCALENDAR"
    assert "VERSION:2.0" in logical and any(x.startswith("PRODID:") for x in logical)
    events: list[dict[str, str]] = []
    current: dict[str, str] | None = None
    for line in logical[1:-1]:
        name, _sep, value = line.partition(":")
        name = name.split(";")[0]
        if (name, value) == ("BEGIN", "VEVENT"):
            assert current is None
            current = {}
        elif (name, value) == ("END", "VEVENT"):
            assert current is not None
            events.append(current)
            current = None
        elif current is not None:
            current[name] = unescape(value) if name not in ("URL",) else value
    assert current is None
    return events


def utc_time(value: str) -> dt.datetime:
    assert re.fullmatch(r"\d{8}T\d{6}Z", value), value
    return dt.datetime.strptime(value, "%Y%m%dT%H%M%SZ").replace(tzinfo=dt.UTC)
