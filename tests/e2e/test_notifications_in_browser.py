"""The notification centre on a phone (390 px) and on a desktop: the header shows the unread
count on every page (outside the folded menu), the list fits the screen, marking one and all
read lowers the count, the switches form saves; axe-core finds nothing serious; in German too.
Screenshots go to ROSBI_SCREENSHOT_DIR."""

from __future__ import annotations

import pytest

from tests.e2e.screens import (
    VIEWPORTS,
    axe_problems,
    fully_visible,
    session_context,
    shoot,
    sideways_scroll,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = (
    "Offene Stadtmeisterschaft im Rosbiratschka, Runde 3: Dein Tisch ist bereit "
    "(Tisch 12 vor Ort, Vereinsheim Hirschen, Obergeschoss)."
)


def a_player_with_notifications():
    from rosbi_platform.notifications.models import Kind
    from tests.platform.factories import NotificationFactory, UserFactory

    user = UserFactory()
    for number in range(23):
        NotificationFactory(
            user=user,
            kind=Kind.TABLE_READY if number % 2 else Kind.RESULTS_POSTED,
            message=LONG if number == 22 else f"Notification number {number}",
            url="/tournaments/",
        )
    return user


def count_in_header(page) -> str | None:
    badge = page.locator("[data-ref=unread-count]")
    return badge.text_content().strip() if badge.count() else None


@pytest.mark.parametrize(
    ("size", "language"), [("390x844", "en"), ("390x844", "de"), ("1280x800", "en")]
)
def test_the_count_and_the_centre_on_a_phone_and_a_desktop(
    asgi_live_server, chromium, size, language
):
    user = a_player_with_notifications()
    base = asgi_live_server.url
    context = session_context(chromium, base, user, VIEWPORTS[size], language, axe=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    problems: list[str] = []

    page.goto(f"{base}/")
    assert count_in_header(page) == "23"
    ok, found = fully_visible(page, "[data-ref=notifications-link]")
    assert ok, f"the notifications link is not on the first screen: {found}"
    shoot(page, f"notifications-header-{size}-{language}")

    page.click("[data-ref=notifications-link]")
    page.wait_for_url(f"{base}/notifications/")
    heading = "Benachrichtigungen" if language == "de" else "Notifications"
    assert page.locator("h1").text_content().strip() == heading
    assert page.locator("[data-ref=notifications] li.notification").count() == 20
    assert LONG in page.locator("[data-ref=notifications] li").first.text_content()
    if sideways_scroll(page):
        problems.append(f"the list scrolls sideways: {sideways_scroll(page)}")
    problems += [f"list: {p}" for p in axe_problems(page)]
    shoot(page, f"notifications-list-{size}-{language}", full_page=True)

    page.locator("[data-ref=notifications] li.notification [data-action=read]").first.click()
    page.wait_for_load_state()
    assert count_in_header(page) == "22"
    assert (
        page.locator("[data-ref=notifications] li.notification").first.get_attribute("data-read")
        == "1"
    )

    page.click("[data-action=read-all]")
    page.wait_for_load_state()
    assert count_in_header(page) is None
    assert page.locator("[data-ref=notifications] li.unread").count() == 0

    page.goto(f"{base}/notifications/settings/")
    if sideways_scroll(page):
        problems.append(f"the switches scroll sideways: {sideways_scroll(page)}")
    problems += [f"switches: {p}" for p in axe_problems(page)]
    page.uncheck("#id_results_posted-site")
    page.check("#id_results_posted-email")
    shoot(page, f"notifications-switches-{size}-{language}", full_page=True)
    page.locator("#main form button[type=submit]").click()
    page.wait_for_load_state()
    assert not page.is_checked("#id_results_posted-site")
    assert page.is_checked("#id_results_posted-email")
    context.close()

    from rosbi_platform.notifications import selectors

    assert selectors.channels_for(user, "results_posted") == (False, True)
    assert not errors and not problems, "\n".join(errors + problems)
