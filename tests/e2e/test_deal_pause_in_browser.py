"""Between deals the finished deal stays on show (who took what, its penalties, the totals) for
the chosen time, 4 s by default, and the player can skip it."""

from __future__ import annotations

import time

import pytest

from tests.e2e.test_refusals_in_browser import logged_in_page, start_table_with_bots
from tests.e2e.test_table_in_browser import make_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LEGAL = ".hand-card.legal:not([disabled]), [data-action=pass]:not([hidden]):not([disabled])"
RESULT = "[data-ref=deal-result]:not([hidden])"


def play_until_a_deal_ends(page) -> None:
    for _ in range(80):
        page.wait_for_selector(f"{LEGAL}, {RESULT}", state="attached", timeout=20_000)
        if page.locator(RESULT).count():
            return
        legal = page.locator(".hand-card.legal:not([disabled])")
        (legal.first if legal.count() else page.locator("[data-action=pass]")).click()
        page.wait_for_function("() => !window.rosbiTable.pendingMove")
    raise AssertionError("no deal ended within 80 own moves")


def test_a_finished_deal_stays_on_show_and_can_be_skipped(asgi_live_server, chromium):
    make_player("pausa", "french")
    page = logged_in_page(chromium, asgi_live_server.url, "pausa", "en")
    start_table_with_bots(page)

    play_until_a_deal_ends(page)
    shown_at = time.monotonic()
    result = page.locator("[data-ref=deal-result]")
    assert "Deal 1 is over" in result.text_content()
    state = page.evaluate("() => window.rosbiTable.state")
    penalties = state["partie"]["score_sheet"][0]
    rows = result.locator("tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.querySelectorAll('td')].map(td => td.textContent))"
    )
    assert [int(cells[1]) for cells in rows] == penalties
    # Not replaced by the next deal straight away: on show for the default 4 s.
    result.wait_for(state="hidden", timeout=10_000)
    assert time.monotonic() - shown_at >= 2.0
    assert page.evaluate("() => window.rosbiTable.state.partie.deal_number") >= 1

    # The second deal's result is skipped with the button.
    play_until_a_deal_ends(page)
    page.locator("[data-action=next-deal]").click()
    result.wait_for(state="hidden", timeout=1000)
    assert page.evaluate("() => window.rosbiTable.state.partie.deal_number") >= 2
    page.context.close()
