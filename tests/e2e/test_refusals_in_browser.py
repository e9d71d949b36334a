"""Clicking a card the rules refuse says why at once, next to the hand, in the page's language,
with the cards named as the player's pack names them ("Herz-Ober", not "QH")."""

from __future__ import annotations

import re
import time

import pytest

from tests.e2e.test_table_in_browser import PASSWORD, READY, make_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CARD_CODE = re.compile(r"\b[6789TJQKA][CSHD]\b")


def logged_in_page(chromium, base: str, username: str, language: str):
    context = chromium.new_context(
        viewport={"width": 1280, "height": 800}, locale="en-GB", reduced_motion="reduce"
    )
    context.add_cookies([{"name": "django_language", "value": language, "url": base}])
    page = context.new_page()
    page.goto(f"{base}/accounts/login/?next=/lobby/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/lobby/$"))
    return page


def start_table_with_bots(page) -> None:
    form = page.locator("[data-ref=create-form]")
    form.locator("[name=size]").select_option("4")
    form.locator("[name=turn_seconds]").select_option("0")
    form.locator("[name=fill_with_bots]").check()
    form.locator("[name=bot_level]").select_option("random")
    form.locator("[data-action=create]").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    page.wait_for_selector("[data-ref=connection][data-state=ok]")
    page.locator("[data-action=start]").click()


def click_a_refused_card(page) -> str:
    """Play legal cards until a turn offers a card the rules refuse, then click that one."""
    for _ in range(40):
        page.wait_for_selector(READY, state="attached", timeout=20_000)
        refused = page.locator(".hand-card.dimmed[aria-disabled=true]")
        if refused.count():
            card = refused.first
            code = card.get_attribute("data-card")
            # aria-disabled tells assistive technology the card cannot be played; a person can
            # still click it (Playwright would wait for it to become enabled without force).
            card.click(force=True)
            return code
        page.locator(".hand-card.legal:not([disabled])").first.click()
        page.wait_for_function("() => !window.rosbiTable.pendingMove")
    raise AssertionError("no turn with a refused card in 40 moves")


@pytest.mark.parametrize(
    ("language", "look", "rule", "suit_words"),
    [
        ("en", "french", "You must follow", ("Clubs", "Spades", "Hearts", "Diamonds")),
        ("de", "german", "bedienen", ("Eichel", "Grün", "Herz", "Schellen")),
    ],
)
def test_a_refused_card_is_explained_within_a_second(
    asgi_live_server, chromium, language, look, rule, suit_words
):
    from rosbi_platform.accounts.models import Profile

    player = make_player(f"player-{language}", look)
    Profile.objects.filter(user=player).update(language=language)  # applied at log-in
    page = logged_in_page(chromium, asgi_live_server.url, f"player-{language}", language)
    start_table_with_bots(page)

    code = click_a_refused_card(page)
    clicked = time.monotonic()
    message = page.locator("[data-ref=hand-message]")
    message.wait_for(state="visible", timeout=1000)
    answered_in = time.monotonic() - clicked

    text = message.text_content()
    assert rule in text
    assert any(suit in text for suit in suit_words), text
    assert not CARD_CODE.search(text), f"cards named by code: {text}"
    assert answered_in < 1.0
    # Nothing was played: the card is still in the hand and it is still this player's turn.
    assert page.locator(f".hand-card[data-card='{code}']").count() == 1
    state = page.evaluate("() => window.rosbiTable.state")
    assert state["deal"]["turn"] == state["you"]["seat"]
    page.context.close()
