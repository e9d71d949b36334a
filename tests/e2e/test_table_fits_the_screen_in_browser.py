"""The live table fits one screen (issue 16, defects 1 and 7): at 1280x800, 1366x768, 390x844
and 360x740, from page load at the top and without scrolling, a legal card of the hand, whose
turn it is, the clock and the whole felt are on screen; nothing scrolls sideways; seat names
are never cut ("Bo…"); on phones the score sheet and chat open as a drawer (aria-expanded,
Escape closes it). axe-core finds nothing serious on the live table.

One live server and one browser per test; every viewport is a fresh context on the same table
(the position is built by the bots, not by playing a Partie)."""

from __future__ import annotations

import pytest

from tests.e2e.screens import (
    PHONES,
    VIEWPORTS,
    axe_problems,
    fully_visible,
    session_context,
    shoot,
    sideways_scroll,
)
from tests.e2e.test_table_in_browser import make_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LEGAL = ".hand-card.legal:not([disabled])"

# Every visible seat name and score-sheet heading: the text it shows, whether that is cut
# (wider than its box, or an ellipsis), and the full name its plate carries.
NAMES = """() => {
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  const out = [];
  for (const el of document.querySelectorAll(".seat-name, .seat-short, .trick-label, .score-sheet thead th")) {
    if (!shown(el)) continue;
    const plate = el.closest(".seat-tag");
    out.push({ text: el.textContent.trim(), cut: el.scrollWidth > el.clientWidth + 1 || el.textContent.includes("…"),
               full: plate ? plate.title : el.title, label: plate ? plate.getAttribute("aria-label") : null });
  }
  return out;
}"""


def started_table(players: int, username: str, name: str):
    """A started table: ``username`` in seat 0, bots elsewhere, the human on turn (the bots
    have played up to them), with a clock."""
    from games import lobby
    from games.models import Table

    user = make_player(username, "german")
    table = lobby.create_table(
        owner=user,
        name=name,
        size=players,
        fill_with_bots=True,
        bot_level="random",
        turn_seconds=120,
    )
    lobby.start_table(table.pk, by_user=user, seed=16)
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING
    return user, table


def check_screen(page, players: int, size: str) -> list[str]:
    """What is wrong with the table page as loaded (empty: nothing)."""
    problems = []
    page.wait_for_selector(LEGAL, state="attached", timeout=15_000)
    page.wait_for_selector("[data-ref=clock]:not([hidden])", state="attached")
    turn = page.locator("[data-ref=turn]").text_content()
    if turn != "Your turn":
        problems.append(f"turn line says {turn!r}")
    for what, selector in [
        ("a legal card", LEGAL),
        ("the turn line", "[data-ref=turn]"),
        ("the clock", "[data-ref=clock]"),
        ("the felt", "[data-ref=felt]"),
        ("the seat on turn", ".seat-tag.on-turn"),
    ]:
        ok, found = fully_visible(page, selector)
        if not ok:
            problems.append(f"{what} is not fully on the first screen: {found}")
    wide = sideways_scroll(page)
    if wide:
        problems.append(f"the page scrolls sideways: {wide}")
    for name in page.evaluate(NAMES):
        if name["cut"] or len(name["text"]) < 3:
            problems.append(f"a name is cut: {name}")
        if name["label"] is not None and not name["label"].startswith(name["full"]):
            problems.append(f"a seat's accessible name lacks the full name: {name}")
    plates = page.locator(".seat-tag").count()
    if plates != players:
        problems.append(f"{plates} seat plates for {players} players")
    return [f"{players} players at {size}: {p}" for p in problems]


def check_drawer(page, players: int, size: str) -> list[str]:
    """On a phone the score sheet is behind a button; it opens, shows whole names, and
    Escape closes it and gives the focus back."""
    problems = []
    toggle = page.locator("[data-toggle-panel=sheet]")
    sheet = page.locator("#sheet-panel")
    if not toggle.count() or not toggle.is_visible():
        return [f"{players} players at {size}: no score sheet button on a phone"]
    if sheet.is_visible() or toggle.get_attribute("aria-expanded") != "false":
        problems.append("the score sheet is open on a phone before it is asked for")
    toggle.click()
    if not sheet.is_visible() or toggle.get_attribute("aria-expanded") != "true":
        problems.append("the score sheet button does not open it")
    if page.locator("#chat-panel").is_visible():
        problems.append("the chat opened with the score sheet")
    for name in page.evaluate(NAMES):
        if name["cut"]:
            problems.append(f"a score-sheet column name is cut: {name}")
    if sideways_scroll(page):
        problems.append("the open drawer scrolls sideways")
    shoot(page, f"table-{players}p-{size}-score-sheet")
    page.keyboard.press("Escape")
    if sheet.is_visible() or toggle.get_attribute("aria-expanded") != "false":
        problems.append("Escape does not close the score sheet")
    if not page.evaluate("() => document.activeElement.dataset.togglePanel === 'sheet'"):
        problems.append("the focus does not return to the score sheet button")
    return [f"{players} players at {size}: {p}" for p in problems]


@pytest.mark.parametrize("players", [3, 6])
def test_the_table_fits_one_screen_at_every_size(asgi_live_server, chromium, players):
    user, table = started_table(players, f"Maximiliane{players}", "Stammtisch im Goldenen Hirschen")
    url = f"{asgi_live_server.url}/tables/{table.pk}/"
    problems: list[str] = []
    for size, viewport in VIEWPORTS.items():
        axe = players == 3 and size in ("1280x800", "390x844")
        context = session_context(chromium, asgi_live_server.url, user, viewport, axe=axe)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error, errors=errors: errors.append(str(error)))
        page.goto(url)
        problems += check_screen(page, players, size)
        shoot(page, f"table-{players}p-{size}")
        if size in PHONES:
            problems += check_drawer(page, players, size)
        if axe:
            if size in PHONES:  # with the chat drawer open, so its content is checked too
                page.locator("[data-toggle-panel=chat]").click()
            problems += [f"axe at {size}: {p}" for p in axe_problems(page)]
        problems += [f"{players} players at {size}: page error {e}" for e in errors]
        context.close()
    assert not problems, "\n".join(problems)


def test_four_and_five_players_fit_the_smallest_screens(asgi_live_server, chromium):
    problems: list[str] = []
    for players in (4, 5):
        user, table = started_table(players, f"Spielerin{players}", f"Tisch {players}")
        url = f"{asgi_live_server.url}/tables/{table.pk}/"
        for size in ("360x740", "1366x768"):
            context = session_context(chromium, asgi_live_server.url, user, VIEWPORTS[size])
            page = context.new_page()
            page.goto(url)
            problems += check_screen(page, players, size)
            shoot(page, f"table-{players}p-{size}")
            context.close()
    assert not problems, "\n".join(problems)


def test_a_screen_reader_hears_what_was_played_and_whose_turn_it_is(asgi_live_server, chromium):
    user, table = started_table(4, "Hoerende", "Vorlesen")
    context = session_context(chromium, asgi_live_server.url, user, VIEWPORTS["390x844"], "de")
    page = context.new_page()
    page.goto(f"{asgi_live_server.url}/tables/{table.pk}/")
    card = page.locator(LEGAL).first
    page.wait_for_selector(LEGAL)
    name = card.text_content().strip()  # its accessible name (the picture is aria-hidden)
    assert name and not name.isupper() and "-" in name  # "Herz-Ober", not "QH"
    card.click()
    announce = page.locator("[data-ref=announce]")
    page.wait_for_function(
        "() => /gespielt/.test(document.querySelector('[data-ref=announce]').textContent)"
    )
    text = announce.text_content()
    assert announce.get_attribute("aria-live") == "polite"
    assert any(word in text for word in ("Eichel", "Grün", "Herz", "Schellen")), text
    # The context asks for reduced motion: cards do not slide (no transition to speak of).
    # Read in one go inside the page: a locator's elements can be replaced by a redraw
    # between the match and the evaluation, and a detached card's style is empty (NaN).
    durations = page.evaluate(
        "() => [...document.querySelectorAll('.hand-card')]"
        ".map(c => parseFloat(getComputedStyle(c).transitionDuration))"
    )
    assert durations and max(durations) < 0.01, durations
    context.close()
