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
    # Issue 29: a doubled deal (or a slam) says why, as the server's deal_finished has it.
    settlement = page.evaluate("() => window.rosbiTable.dealResult.event.settlement")
    why = result.locator("[data-ref=settlement]")
    if settlement is None:  # every seat took a trick (deal 1 is "no tricks", doubling on)
        assert why.count() == 0 and 0 not in penalties
    else:
        sentence = why.text_content()
        if settlement["kind"] == "doubled":
            assert sentence.startswith("Doubled: ") and "took no trick" in sentence
            assert all(penalties[seat] == 0 for seat in settlement["seats"])
        else:
            assert sentence.startswith("Slam: ") and "took every trick" in sentence
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


FINAL = "[data-ref=final]:not([hidden])"


def test_the_final_screen_follows_the_sixth_deal_on_a_phone(asgi_live_server, chromium):
    """A Partie played to its end on a 390x844 phone: the sixth deal's result is on show
    first (the final screen waits behind it), then the final screen lists every seat's place
    and total as the client's state has them (the server's), says the player's own place and
    offers the rematch, the replay and the lobby, all on the first screen."""
    from games import selectors
    from games.models import Table
    from tests.e2e.screens import fully_visible, sideways_scroll
    from tests.e2e.test_final_screen_in_browser import ON_SCREEN, SHOWN

    user = make_player("finale", "german")
    page = logged_in_page(chromium, asgi_live_server.url, "finale", "en")
    page.set_viewport_size({"width": 390, "height": 844})
    page.evaluate("() => window.localStorage.setItem('rosbi.dealPauseSeconds', '0')")
    start_table_with_bots(page)

    sixth_result_seen = False
    for _ in range(6 * 12 + 5):
        page.wait_for_selector(f"{LEGAL}, {RESULT}, {FINAL}", state="attached", timeout=20_000)
        if page.locator(FINAL).count():
            break
        if page.locator(RESULT).count():
            # Only the sixth deal is held (the pause is 0 s before it): the Partie is over,
            # but its final screen waits until the deal's result has had its time.
            assert "Deal 6 is over" in page.locator(RESULT).text_content()
            assert page.locator("[data-ref=final]").is_hidden()
            sixth_result_seen = True
            page.wait_for_selector(FINAL, timeout=10_000)
            break
        if page.evaluate("() => window.rosbiTable.state.partie.deal_number") == 5:
            page.evaluate("() => window.localStorage.setItem('rosbi.dealPauseSeconds', '2')")
        legal = page.locator(".hand-card.legal:not([disabled])")
        (legal.first if legal.count() else page.locator("[data-action=pass]")).click()
        page.wait_for_function("() => !window.rosbiTable.pendingMove")
    else:
        raise AssertionError("the Partie did not end")
    assert sixth_result_seen, "the sixth deal's result was not shown before the final screen"

    table_id = int(page.url.rstrip("/").split("/")[-1])
    assert Table.objects.get(pk=table_id).status == Table.Status.FINISHED
    server = selectors.build_snapshot(table_id, user)["partie"]
    state = page.evaluate("() => window.rosbiTable.state.partie")
    assert (state["places"], state["totals"]) == (server["places"], server["totals"])
    rows = page.evaluate(SHOWN)
    assert sorted(r["seat"] for r in rows) == [0, 1, 2, 3]
    for row in rows:
        assert (row["place"], row["total"]) == (
            state["places"][row["seat"]],
            state["totals"][row["seat"]],
        )
        assert row["winner"] == (row["place"] == min(state["places"]))
    me = page.evaluate("() => window.rosbiTable.state.you.seat")
    own = page.locator("[data-ref=final-own]").text_content()
    place = state["places"][me]
    if place == min(state["places"]):
        assert "won" in own or "first place" in own, own
    else:
        assert f"Your place: {place} of 4" in own, own
    page.wait_for_selector("[data-extra=rematch]:not([hidden])", timeout=5_000)
    # The hand, where the focus was, is gone: the focus is on the final screen's heading.
    assert page.evaluate("() => document.activeElement.id") == "final-heading"
    for what, selector in ON_SCREEN.items():
        ok, found = fully_visible(page, selector)
        assert ok, f"{what} is not fully on the first screen: {found}"
    assert sideways_scroll(page) is None
    page.context.close()
