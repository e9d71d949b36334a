"""Every page fits the screen's width (issue 16, defect 7) and passes axe-core (no serious or
critical violation): home, lobby, tournament page, printed round list, score-sheet form,
ladder and player page, the organiser's workspace (its list, an event, a new event), at
1280x800, 1366x768, 390x844 and 360x740 (the smallest in German, whose words are longer), with long names and six players a table. Screenshots of each page at
each size go to ROSBI_SCREENSHOT_DIR. The live table has its own test
(test_table_fits_the_screen_in_browser.py)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.e2e.screens import VIEWPORTS, axe_problems, session_context, shoot, sideways_scroll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG_NAMES = [
    "Maximiliane von Hohenzollern-Sigmaringen",
    "Bartholomäus Rosenkranz-Oberhuber",
    "Wilhelmina Schwarzenberger",
]
AXE_SIZES = ("1280x800", "390x844")


def build_site():
    """A club event of tables of six (physical, round 1 seated), a player with rated history,
    and open tables in the lobby; returns the organiser and the pages to look at."""
    from games import lobby
    from ratings import recording, updates
    from tests.games.factories import UserFactory
    from tests.ratings.factories import BOT, finished_partie, outcome_of
    from tests.tournaments.helpers import open_event, start_now
    from tournaments import scheduler
    from tournaments.models import Round, RoundTable, Tournament

    tournament, organiser = open_event(
        12, slug="stadtmeisterschaft", mode=Tournament.Mode.PHYSICAL, table_size=6
    )
    tournament.name = "Offene Stadtmeisterschaft im Rosbiratschka"
    tournament.save(update_fields=["name"])
    start_now(tournament, organiser)
    scheduler.advance_tournament(tournament.pk)
    round_one = Round.objects.get(tournament=tournament, number=1)
    table = RoundTable.objects.filter(round=round_one).order_by("number").first()
    players = [seat.entry.user for seat in table.seats.order_by("seat")]
    for user, name in zip(players, LONG_NAMES, strict=False):
        user.profile.display_name = name
        user.profile.save(update_fields=["display_name"])
    start = timezone.now() - dt.timedelta(days=3)
    for i in range(4):
        partie = finished_partie(
            [players[0], players[1], players[2], BOT, players[3], players[4]],
            [3 + i, 17, 29 - 2 * i, 11, 20, 8],
            start + dt.timedelta(hours=i),
        )
        recording.record_finished_partie(outcome_of(partie))
    updates.apply_pending_ratings()
    for size in (3, 6):
        lobby.create_table(
            owner=UserFactory(),
            name=f"Donnerstagsrunde im Vereinsheim für {size}",
            size=size,
            turn_seconds=60,
        )
    # A rated table before its start, the organiser seated: the odds are shown (issue 17).
    rated = lobby.create_table(
        owner=organiser, name="Gewertete Donnerstagsrunde", size=4, turn_seconds=60, rated=True
    )
    for user in players[:2]:
        lobby.join_table(rated.pk, user)
    pages = {
        "home": reverse("home"),
        "rated-table-before-start": reverse("games:table", args=[rated.pk]),
        "lobby": reverse("games:lobby"),
        "tournament": reverse("tournaments:detail", args=[tournament.slug]),
        "round-print": reverse("tournaments:print", args=[tournament.slug, 1]),
        "score-sheet-form": reverse("tournaments:sheet", args=[table.pk]),
        "workspace": reverse("tournaments:workspace", args=[tournament.slug]),
        "workspace-list": reverse("tournaments:organised"),
        "workspace-new-event": reverse("tournaments:new_event") + "?preset=club_evening",
        "ladder": reverse("ratings:ladder"),
        "player": reverse("ratings:player", args=[players[0].username]),
        "rating-help": reverse("ratings:help"),
    }
    return organiser, pages


def test_no_page_scrolls_sideways_and_axe_finds_nothing_serious(asgi_live_server, chromium):
    organiser, pages = build_site()
    problems: list[str] = []
    odds_seen = False
    for size, viewport in VIEWPORTS.items():
        language = "de" if size == "360x740" else "en"
        axe = size in AXE_SIZES
        context = session_context(
            chromium, asgi_live_server.url, organiser, viewport, language, axe=axe
        )
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error, errors=errors: errors.append(str(error)))
        for name, path in pages.items():
            response = page.goto(f"{asgi_live_server.url}{path}")
            if response.status != 200:
                problems.append(f"{name} at {size}: HTTP {response.status}")
                continue
            if name == "rated-table-before-start":
                page.wait_for_selector("[data-ref=table-odds]", state="visible", timeout=10_000)
                odds_seen = True
            wide = sideways_scroll(page)
            if wide:
                problems.append(f"{name} at {size} ({language}) scrolls sideways: {wide}")
            shoot(page, f"{name}-{size}", full_page=True)
            if axe:
                problems += [f"{name} at {size}: axe {p}" for p in axe_problems(page)]
        problems += [f"page error at {size}: {e}" for e in errors]
        if size == "390x844":
            problems += check_explanations(page, asgi_live_server.url, pages)
        context.close()
    assert odds_seen
    assert not problems, "\n".join(problems)


def check_explanations(page, base: str, pages: dict[str, str]) -> list[str]:
    """On a phone: a provisional rating says what its "?" means, and a refused score sheet
    shows each deal's message at its row, read out with that row's inputs (defect 9)."""
    problems = []
    page.goto(f"{base}{pages['player']}")
    mark = page.locator("h1 abbr[title]")
    if not mark.count() or not mark.text_content().endswith("?"):
        problems.append("the player's provisional rating has no explanation")
    elif page.locator("h1 a.provisional-note[href$='#ratings-explained']").count() != 1:
        problems.append("the provisional rating does not link to the ladder's explanation")
    page.goto(f"{base}{pages['score-sheet-form']}")
    # Deal 1 adds up to 7: impossible (the other deals may be refused too).
    page.evaluate(
        """() => {
          for (const input of document.querySelectorAll(".sheet-table input")) {
            const [, deal, seat] = input.name.match(/d(\\d)s(\\d)/).map(Number);
            input.value = deal === 0 ? (seat < 3 ? 2 : (seat === 3 ? 1 : 0)) : (seat === deal % 6 ? 8 : 0);
          }
        }"""
    )
    page.locator(".score-form button").click()
    page.wait_for_load_state()
    shoot(page, "score-sheet-refused-390x844", full_page=True)
    error = page.locator("#sheet-deal-1-error")
    if not error.is_visible():
        problems.append("the refused deal has no message at its row")
    else:
        row = error.locator("xpath=ancestor::tr")
        inputs = row.locator("input")
        described = inputs.evaluate_all("l => l.map(i => i.getAttribute('aria-describedby'))")
        if not described or any("sheet-deal-1-error" not in (d or "") for d in described):
            problems.append(f"the row's inputs do not point at its message: {described}")
        if "Deal 1 (No tricks)" not in error.text_content():
            problems.append(f"row 1 shows another deal's message: {error.text_content()}")
    problems += [f"refused sheet: axe {p}" for p in axe_problems(page)]
    return problems
