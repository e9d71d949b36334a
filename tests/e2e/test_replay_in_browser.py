"""The replay page in Chromium draws the steps the server computed with the engine.

A finished Partie of bots (3 and 6 seats): at the last step of each deal the page shows the
engine's penalties, Hundred total, layout rows and hands; the score sheet shows the engine's
totals and places. A page whose embedded steps were altered shows the altered values, so the
browser draws what the server sends and derives nothing itself.
"""

from __future__ import annotations

import json
import re

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
DATA_SCRIPT = re.compile(
    r'(<script id="replay-data" type="application/json">)(.*?)(</script>)', re.S
)


def finished_bot_table(players: int, seed: int):
    from games import lobby
    from tests.games.factories import UserFactory

    owner = UserFactory()
    table = lobby.create_table(
        owner=owner,
        size=players,
        seat_owner=False,
        fill_with_bots=True,
        bot_level="random",
        turn_seconds=0,
        doubling=players != 3,
    )
    lobby.start_table(table.pk, owner, seed=seed)
    table.refresh_from_db()
    assert table.status == "finished"
    return table


def json_script(value) -> str:
    """``value`` as Django's ``json_script`` writes it (HTML-significant characters escaped)."""
    text = json.dumps(value)
    return text.replace("&", "\\u0026").replace("<", "\\u003C").replace(">", "\\u003E")


@pytest.mark.parametrize("players", [3, 6])
def test_the_replay_page_draws_the_engines_steps(asgi_live_server, chromium, players) -> None:
    from games.engine import Partie, places

    table = finished_bot_table(players, seed=40 + players)
    record = table.partie.to_record()
    partie = Partie.from_record(record)
    url = f"{asgi_live_server.url}/tables/{table.pk}/replay/"
    for label, viewport in SIZES.items():
        context = chromium.new_context(viewport=viewport, locale="en-GB", reduced_motion="reduce")
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error, errors=errors: errors.append(str(error)))
        page.goto(url)
        page.wait_for_selector("[data-ref=sheet] tfoot tr.totals td")
        sheet = page.locator("[data-ref=sheet]")
        assert sheet.locator("tfoot tr.totals td").all_text_contents() == [
            str(t) for t in partie.totals
        ]
        assert sheet.locator("tfoot tr.places td").all_text_contents() == [
            f"{p}." for p in places(partie.totals)
        ]
        settled = 0
        for number, deal in enumerate(partie.deals):
            page.locator("[data-ref=deal-select]").select_option(str(number))
            moves = len(deal.moves)
            assert page.locator("[data-ref=step-label]").text_content() == f"Move 0 / {moves}"
            page.evaluate("() => document.activeElement.blur()")  # keys go to the page
            page.keyboard.press("End")
            assert page.locator("[data-ref=step-label]").text_content() == f"Move {moves} / {moves}"
            banner = page.locator("[data-ref=penalties]").text_content()
            assert banner.split(": ", 1)[1] == " · ".join(str(p) for p in deal.penalties)
            hands = page.locator(".replay-hand").evaluate_all(
                "hands => hands.map(h => [...h.querySelectorAll('[data-card]')]"
                ".filter(c => c.matches('.pcard')).map(c => c.dataset.card).sort())"
            )
            assert hands == [sorted(c.code for c in deal.hand(s)) for s in range(players)]
            if deal.contract.value == "hundred":
                shown = page.locator("[data-ref=hundred-total]").text_content()
                assert int(shown) == deal.hundred_total
            if deal.contract.value == "rosbiratschka":
                laid = page.locator(".layout-rows .pcard[data-card]").evaluate_all(
                    "cards => cards.map(c => c.dataset.card).sort()"
                )
                expected = sorted(
                    c.code
                    for s in range(players)
                    for c in deal.initial_hand(s)
                    if c not in deal.hand(s)
                )
                assert laid == expected
                cells = page.locator(".layout-row").evaluate_all(
                    "rows => rows.map(r => r.querySelectorAll('.row-cell').length)"
                )
                assert cells == [6] * 4 if players == 3 else [9] * 4
            # Issue 29: a doubled deal or a slam says why it counts as it does.
            why = page.locator("[data-ref=settlement]")
            seat_names = page.locator(".replay-hand .seat-label").evaluate_all(
                "labels => labels.map(l => l.firstChild.textContent.trim())"
            )
            if deal.settlement is None:
                assert why.count() == 0
            else:
                kind, seats = deal.settlement
                text = why.text_content()
                assert text.startswith("Doubled: " if kind == "doubled" else "Slam: ")
                assert all(seat_names[s] in text for s in seats), text
                settled += 1
            # Stepping back one move leaves the end: no penalties shown yet.
            page.keyboard.press("ArrowLeft")
            assert page.locator("[data-ref=penalties]").count() == 0
        if players != 3:  # the three-player table plays without doubling (no slam either)
            assert settled > 0, "the seed's Partie has a doubled deal"
        assert errors == []
        page.screenshot(path=f"/tmp/client-shots/replay-test-{players}p-{label}.png")
        context.close()


def test_the_replay_page_shows_what_the_server_sends(asgi_live_server, chromium) -> None:
    """Alter the embedded steps on their way to the browser: the page shows the altered
    penalties, Hundred total and score sheet, so it computes none of them."""
    table = finished_bot_table(3, seed=7)
    url = f"{asgi_live_server.url}/tables/{table.pk}/replay/"
    context = chromium.new_context(viewport=SIZES["desktop"], locale="en-GB")
    page = context.new_page()

    def alter(route):
        response = route.fetch()
        html = response.text()
        match = DATA_SCRIPT.search(html)
        data = json.loads(match.group(2))
        replay = data["replay_steps"]
        replay["deals"][0]["steps"][-1]["penalties"] = [97, 98, 99]
        replay["deals"][4]["steps"][-1]["hundred_total"] = 123
        replay["totals"] = [11, 22, 33]
        replay["places"] = [3, 2, 1]
        html = html[: match.start(2)] + json_script(data) + html[match.end(2) :]
        route.fulfill(response=response, body=html)

    page.route(url, alter)
    page.goto(url)
    page.wait_for_selector("[data-ref=sheet] tfoot tr.totals td")
    sheet = page.locator("[data-ref=sheet]")
    assert sheet.locator("tfoot tr.totals td").all_text_contents() == ["11", "22", "33"]
    assert sheet.locator("tfoot tr.places td").all_text_contents() == ["3.", "2.", "1."]
    page.evaluate("() => document.activeElement.blur()")
    page.keyboard.press("End")
    assert page.locator("[data-ref=penalties]").text_content().endswith("97 · 98 · 99")
    page.locator("[data-ref=deal-select]").select_option("4")
    page.evaluate("() => document.activeElement.blur()")
    page.keyboard.press("End")
    assert page.locator("[data-ref=hundred-total]").text_content() == "123"
    context.close()
