"""Under German (decimal comma) every number meant for the browser stays plain dot-decimal:
the rating chart's SVG, the replay's icons, data-* attributes and the queue's JSON."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from ratings import ranked_queue, recording, updates
from tests.games.factories import UserFactory
from tests.ratings.factories import BOT, finished_partie, outcome_of
from tests.svg_numbers import problems_in_data_attributes, problems_in_svg, svgs_in

pytestmark = pytest.mark.django_db


def in_german(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    return client


def rated_history(players, n: int = 5):
    start = timezone.now() - dt.timedelta(days=2)
    parties = []
    for i in range(n):
        partie = finished_partie(
            [*players, BOT], [3 + i, 17, 29 - 2 * i, 11], start + dt.timedelta(hours=i)
        )
        recording.record_finished_partie(outcome_of(partie))
        parties.append(partie)
    updates.apply_pending_ratings()
    return parties


def test_the_checker_catches_a_decimal_comma():
    broken = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 240">'
        '<line x1="48" y1="212,0" x2="640" y2="212,0"/>'
        '<polyline points="48,212,0 60,5,100,0"/><path d="M1,5,2,5 L3,4"/></svg>'
    )
    assert len(problems_in_svg(broken)) == 4
    assert problems_in_data_attributes('<div data-x="12,5" data-y="3.5" data-n="pos">') == [
        "<div data-x='12,5'>"
    ]


def test_the_rating_chart_is_drawn_with_plain_numbers_in_german(client):
    me, mate, other = UserFactory.create_batch(3)
    rated_history([me, mate, other])

    response = in_german(client).get(reverse("ratings:player", args=[me.username]))

    page = response.content.decode()
    assert response["Content-Language"] == "de"
    (chart,) = [svg for svg in svgs_in(page) if "rating-chart" in svg]
    assert problems_in_svg(chart) == []
    # The gridlines are where the labels say: one y per tick, all distinct.
    ys = re.findall(r'<line x1="48" y1="([^"]+)" x2="640" y2="\1" stroke="currentColor" '
                    r'stroke-opacity', chart)  # fmt: skip
    assert len(ys) >= 3 and len(set(ys)) == len(ys)
    assert problems_in_data_attributes(page) == []


def test_every_ladder_page_keeps_plain_numbers_in_german(client):
    me, mate, other = UserFactory.create_batch(3)
    rated_history([me, mate, other])
    client.force_login(me)
    ranked_queue.join_queue(me, now=timezone.now())
    in_german(client)

    for url in (
        reverse("ratings:ladder"),
        reverse("ratings:player", args=[mate.username]),
        reverse("games:lobby"),
    ):
        page = client.get(url).content.decode()
        assert problems_in_data_attributes(page) == [], url
        for svg in svgs_in(page):
            assert problems_in_svg(svg) == [], url

    status = client.get(reverse("ratings:queue_status"))
    assert re.search(rb'"waited_seconds": \d+,', status.content)


TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def test_every_svg_in_the_templates_is_safe_from_the_number_format():
    """Literal SVGs (the replay's icons) are checked as they are; an SVG with template
    variables must sit in a ``{% localize off %}`` block, where no language formats numbers."""
    checked = 0
    for path in sorted(TEMPLATES.rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r"<svg\b.*?</svg>", text, re.DOTALL):
            svg = match.group(0)
            checked += 1
            if "{{" not in svg and "{%" not in svg:
                assert problems_in_svg(svg) == [], path
                continue
            before = text[: match.start()]
            opened = before.rfind("{% localize off %}")
            assert opened > before.rfind("{% endlocalize %}"), f"{path.name}: unlocalized SVG"
    assert checked >= 3
