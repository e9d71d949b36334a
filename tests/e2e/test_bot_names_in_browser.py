"""Bot seats are named in the page's language: the frames say "Bot (heuristic)" in English
for every viewer, and the page words it from its own labels (static/js/cards.js seatLabel),
the level's measured rating beside its name."""

from __future__ import annotations

import pytest

from games.bots.ratings_table import BOT_RATINGS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def open_page(chromium, user, url: str, language: str):
    """``user``'s page on ``url``, logged in by session cookie, in ``language``."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    context = chromium.new_context(locale="en-GB")
    host = url.split("/")[2].split(":")[0]
    cookies = {
        settings.SESSION_COOKIE_NAME: client.cookies[settings.SESSION_COOKIE_NAME].value,
        settings.LANGUAGE_COOKIE_NAME: language,
    }
    context.add_cookies(
        [{"name": k, "value": v, "domain": host, "path": "/"} for k, v in cookies.items()]
    )
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("[data-ref=connection][data-state=ok]")
    return page


RATING = BOT_RATINGS["heuristic"]


@pytest.mark.parametrize(
    ("language", "bot_name"),
    [("de", f"Bot 2 (Heuristisch · {RATING})"), ("en", f"Bot 2 (Heuristic · {RATING})")],
)
def test_bot_seats_are_named_in_the_pages_language(asgi_live_server, chromium, language, bot_name):
    from games import lobby
    from tests.games.factories import UserFactory

    owner = UserFactory()
    table = lobby.create_table(
        owner=owner, size=4, fill_with_bots=True, bot_level="heuristic", turn_seconds=0
    )
    page = open_page(chromium, owner, f"{asgi_live_server.url}/tables/{table.pk}/", language)
    page.locator("[data-action=start]").click()
    page.wait_for_selector(f".seat-name:has-text('{bot_name}')", state="attached")

    seat_names = page.locator(".seat-name").all_text_contents()
    assert bot_name in seat_names
    assert not any("heuristic" in name for name in seat_names)
    sheet_titles = page.locator(".score-sheet th[title]").evaluate_all(
        "cells => cells.map(c => c.title)"
    )
    assert bot_name in sheet_titles
    page.context.close()
