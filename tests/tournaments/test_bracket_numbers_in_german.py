"""The knockout bracket picture and the event page keep plain dot-decimal numbers in German."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.svg_numbers import problems_in_data_attributes, problems_in_svg, svgs_in
from tests.tournaments.helpers import open_event, start_now
from tournaments import scheduler
from tournaments.models import Tournament

pytestmark = [pytest.mark.django_db(transaction=True)]


def test_the_bracket_and_the_event_page_use_plain_numbers_in_german(eager_celery):
    tournament, organiser = open_event(
        10,
        slug="ko-zahlen",
        format=Tournament.Format.KNOCKOUT,
        mode=Tournament.Mode.PHYSICAL,
        first_round=Tournament.FirstRound.RATING,
        rounds=1,
    )
    start_now(tournament, organiser)
    scheduler.advance_tournament(tournament.pk)  # round 1 seated: the bracket exists
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"

    bracket = client.get(reverse("tournaments:bracket", args=[tournament.slug]))
    page = client.get(reverse("tournaments:detail", args=[tournament.slug]))

    svg = bracket.content.decode()
    assert bracket.status_code == 200 and "Runde" in svg
    assert svgs_in(svg) and problems_in_svg(svg) == []
    text = page.content.decode()
    assert page.status_code == 200 and problems_in_data_attributes(text) == []
    for drawn in svgs_in(text):
        assert problems_in_svg(drawn) == []
