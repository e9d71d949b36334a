"""Check that numbers meant for machines (SVG geometry, data-* attributes) are written the
same in every language: plain dot-decimal, never "212,0" as German formatting would give."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

NUMBER = r"[-+]?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?"
PLAIN = re.compile(rf"^{NUMBER}$")
PAIR = re.compile(rf"^{NUMBER},{NUMBER}$")
# Attributes whose whole value is one number.
SINGLE = {
    "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "dx", "dy",
    "width", "height", "font-size", "stroke-width", "stroke-opacity", "fill-opacity",
    "opacity", "offset",
}  # fmt: skip
SVG_TAG = re.compile(r"<svg\b.*?</svg>", re.DOTALL)


def _local(name: str) -> str:
    return name.rsplit("}", 1)[-1]


def problems_in_svg(svg: str) -> list[str]:
    """Every numeric attribute of ``svg`` that is not a plain dot-decimal number."""
    root = ET.fromstring(svg)
    found = []
    for element in root.iter():
        for raw_name, value in element.attrib.items():
            name = _local(raw_name)
            where = f"<{_local(element.tag)} {name}={value!r}>"
            if name in SINGLE or name.startswith("data-") and any(c.isdigit() for c in value):
                if name in {"width", "height"} and value.endswith("%"):
                    value = value[:-1]
                if not PLAIN.match(value):
                    found.append(where)
            elif name == "viewBox":
                parts = value.split()
                if len(parts) != 4 or not all(PLAIN.match(p) for p in parts):
                    found.append(where)
            elif name == "points":
                if not all(PAIR.match(p) for p in value.split()):
                    found.append(where)
            elif name == "d":
                tokens = re.findall(r"[A-Za-z]|[^A-Za-z\s]+", value)
                # "10-7" is two numbers: a minus sign starts a new one without a separator.
                numbers = [
                    part
                    for t in tokens
                    if not t.isalpha()
                    for part in re.split(r"(?<=[\d.])(?=-)", t)
                ]
                if not all(PLAIN.match(t) or PAIR.match(t) for t in numbers):
                    found.append(where)
    return found


def svgs_in(page: str) -> list[str]:
    return SVG_TAG.findall(page)


class _DataAttributes(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name.startswith("data-") and value is not None:
                self.found.append((tag, name, value))


def problems_in_data_attributes(page: str) -> list[str]:
    """Every data-* attribute that holds a number but not a plain dot-decimal one."""
    parser = _DataAttributes()
    parser.feed(page)
    found = []
    for tag, name, value in parser.found:
        numeric = re.fullmatch(r"[-+\d.,\s]+", value) and any(c.isdigit() for c in value)
        if numeric and not PLAIN.match(value):
            found.append(f"<{tag} {name}={value!r}>")
    return found
