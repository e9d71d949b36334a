"""Hint mode in the browser: on a casual table the Hint button shows the expert bot's card,
outlined in the hand, with its reason next to the hand, in the page's language."""

from __future__ import annotations

import re

import pytest

from tests.e2e.test_refusals_in_browser import logged_in_page, start_table_with_bots
from tests.e2e.test_table_in_browser import READY, make_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CARD_CODE = re.compile(r"\b[6789TJQKA][CSHD]\b")


def test_the_hint_button_outlines_a_legal_card_and_says_why(asgi_live_server, chromium, settings):
    settings.GAMES_HINT_OPTIONS = {"samples": 12, "time_limit": None}
    make_player("hinted", "french")
    page = logged_in_page(chromium, asgi_live_server.url, "hinted", "en")
    start_table_with_bots(page)
    page.wait_for_selector(READY, state="attached", timeout=20_000)
    hint = page.locator("[data-action=hint]")
    hint.wait_for(state="visible", timeout=5000)
    hint.click()
    message = page.locator("[data-ref=hand-message]")
    message.wait_for(state="visible", timeout=10_000)
    text = message.text_content()
    assert "penalty points" in text or "only legal move" in text, text
    assert not CARD_CODE.search(text), f"cards named by code: {text}"
    # The first deal is a trick game (no passing): exactly one card is outlined, a legal one.
    outlined = page.locator("[data-ref=hand] .hinted")
    assert outlined.count() == 1
    assert "legal" in outlined.first.get_attribute("class")
    page.context.close()
