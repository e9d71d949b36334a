"""An organiser sets up a weekly series from a phone (360x740, German): the form is ordinary
fields (weekday checkboxes, a time field), the page fits the screen, axe-core finds no serious
problem, and the series' events are listed after saving."""

from __future__ import annotations

import zoneinfo

import pytest
from django.urls import reverse

from tests.e2e.screens import VIEWPORTS, axe_problems, session_context, shoot, sideways_scroll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_organiser_sets_up_a_weekly_series_on_a_phone(chromium, asgi_live_server):
    from tests.tournaments.factories import ClubFactory
    from tests.tournaments.helpers import organiser_of
    from tournaments.models import Series

    club = ClubFactory(name="Rosbi-Freunde Kreuzberg", slug="kreuzberg")
    organiser = organiser_of(club)
    base = asgi_live_server.url
    context = session_context(chromium, base, organiser, VIEWPORTS["360x740"], "de", axe=True)
    page = context.new_page()
    try:
        page.goto(base + reverse("clubs:detail", args=[club.slug]))
        page.get_by_role("link", name="Turnierreihen").click()
        page.get_by_role("link", name="Neue Turnierreihe").click()
        assert sideways_scroll(page) is None
        assert axe_problems(page) == []
        page.locator("#id_name").fill("Donnerstagsrunde")
        page.get_by_label("Donnerstag").check()
        page.get_by_label("Beginn (Ortszeit)").fill("19:30")
        page.locator("#id_rounds").fill("4")
        shoot(page, "series-new-360x740-de", full_page=True)
        page.get_by_role("button", name="Speichern").click()
        page.wait_for_url("**/tournaments/series/*/")
        assert "Kommende Turniere" in page.content()
        assert sideways_scroll(page) is None
        assert axe_problems(page) == []
        shoot(page, "series-edit-360x740-de", full_page=True)
    finally:
        context.close()

    series = Series.objects.get(club=club)
    assert (series.weekdays, series.start_time.strftime("%H:%M"), series.rounds) == (
        [3],
        "19:30",
        4,
    )
    berlin = zoneinfo.ZoneInfo("Europe/Berlin")
    starts = [e.starts_at.astimezone(berlin) for e in series.events.all()]
    assert len(starts) >= 4
    assert {(s.weekday(), s.strftime("%H:%M")) for s in starts} == {(3, "19:30")}
