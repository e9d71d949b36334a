"""The final screen after the sixth deal (issue 16, defect 2) fits one screen at every size:
for 3 and 6 players, at 1280x800, 1366x768, 390x844 and 360x740, the places and totals of
every seat (as the server sent them), the player's own place and the way on (rematch, replay,
lobby) are on the first screen without scrolling, nothing scrolls sideways, and axe-core finds
nothing serious. Ties are worded as ties, in the page's language.

The Partie is played out by the bots, the human's seat included (marked away, as when their
clock runs out), so each page loads a finished table from its snapshot. The final screen
reached by playing a Partie in the browser is tested in test_deal_pause_in_browser.py.
"""

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
from tests.e2e.test_table_in_browser import make_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FINAL = "[data-ref=final]:not([hidden])"
# What must be on the first screen once the Partie is over.
ON_SCREEN = {
    "the winners": "[data-ref=final-winners]",
    "the last place": "[data-ref=final-places] tr:last-child",
    "the player's place": "[data-ref=final-own]",
    "the rematch button": "[data-extra=rematch] button",
    "the replay link": "[data-ref=final-replay]",
    "the lobby link": "[data-ref=final-lobby]",
}
SHOWN = """() => [...document.querySelectorAll('[data-ref=final-places] tr')].map(tr => ({
  seat: Number(tr.dataset.seat), place: Number(tr.querySelector('[data-place]').textContent),
  total: Number(tr.querySelector('[data-total]').textContent),
  winner: tr.classList.contains('final-winner'), text: tr.textContent }))"""


def finished_table(players: int, username: str, seed: int):
    """A finished table with ``username`` in seat 0: the bots played every seat, theirs too."""
    from games import lobby
    from games.bot_turns import play_bot_turns
    from games.models import Seat, Table

    user = make_player(username, "german")
    table = lobby.create_table(
        owner=user,
        name="Schluss",
        size=players,
        fill_with_bots=True,
        bot_level="random",
        turn_seconds=0,
    )
    lobby.start_table(table.pk, by_user=user, seed=seed)
    Seat.objects.filter(table=table, user=user).update(away=True)
    for _ in range(20):
        if Table.objects.get(pk=table.pk).status == Table.Status.FINISHED:
            break
        play_bot_turns(table.pk)
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED
    return user, table


def final_screen_problems(page, label: str) -> list[str]:
    """What is wrong with the final screen as loaded (empty: nothing)."""
    problems = []
    page.wait_for_selector(FINAL, timeout=15_000)
    page.wait_for_selector("[data-extra=rematch]:not([hidden])", timeout=5_000)
    state = page.evaluate("() => window.rosbiTable.state")
    places, totals = state["partie"]["places"], state["partie"]["totals"]
    rows = page.evaluate(SHOWN)
    if sorted(r["seat"] for r in rows) != list(range(len(places))):
        problems.append(f"not every seat is listed once: {rows}")
    for row in rows:
        if (row["place"], row["total"]) != (places[row["seat"]], totals[row["seat"]]):
            problems.append(
                f"seat {row['seat']} shows {row} but the state says "
                f"place {places[row['seat']]}, total {totals[row['seat']]}"
            )
        if row["winner"] != (places[row["seat"]] == min(places)):
            problems.append(f"seat {row['seat']} is wrongly marked as a winner or not: {row}")
    if [r["place"] for r in rows] != sorted(r["place"] for r in rows):
        problems.append(f"the places are not listed best first: {rows}")
    for what, selector in ON_SCREEN.items():
        ok, found = fully_visible(page, selector)
        if not ok:
            problems.append(f"{what} is not fully on the first screen: {found}")
    wide = sideways_scroll(page)
    if wide:
        problems.append(f"the page scrolls sideways: {wide}")
    return [f"{label}: {p}" for p in problems]


@pytest.mark.parametrize("players", [3, 6])
def test_the_final_screen_fits_every_screen(asgi_live_server, chromium, players):
    user, table = finished_table(players, f"Schlussspielerin{players}", seed=160 + players)
    url = f"{asgi_live_server.url}/tables/{table.pk}/"
    problems: list[str] = []
    for size, viewport in VIEWPORTS.items():
        axe = size in ("1280x800", "390x844")
        context = session_context(chromium, asgi_live_server.url, user, viewport, axe=axe)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error, errors=errors: errors.append(str(error)))
        page.goto(url)
        label = f"{players} players at {size}"
        problems += final_screen_problems(page, label)
        own = page.locator("[data-ref=final-own]").text_content()
        place = page.evaluate("() => window.rosbiTable.state.partie.places[0]")
        if str(place) not in own and "won" not in own and "first place" not in own:
            problems.append(f"{label}: the player's own place ({place}) is not said: {own!r}")
        shoot(page, f"table-final-{players}p-{size}")
        if axe:
            problems += [f"axe at {label}: {p}" for p in axe_problems(page)]
        problems += [f"{label}: page error {e}" for e in errors]
        context.close()
    assert not problems, "\n".join(problems)


def test_a_shared_first_place_is_worded_as_a_tie_in_german(asgi_live_server, chromium):
    """Two winners: both marked, 'teilen sich' (plural), the names joined with 'und', each
    shared place said to be shared, and the player told they share first place."""
    from games.models import PartieDeal

    user, table = finished_table(4, "Gleichauf", seed=7)
    # The last deal's stored penalties changed so that the totals are 10, 30, 10, 40 (the
    # snapshot adds up the stored deals and places the seats): seats 0 and 2 share first place.
    deals = list(PartieDeal.objects.filter(partie__table=table).order_by("number"))
    before = [sum(d.penalties[s] for d in deals[:-1]) for s in range(4)]
    deals[-1].penalties = [want - had for want, had in zip([10, 30, 10, 40], before, strict=True)]
    deals[-1].save(update_fields=["penalties"])
    context = session_context(
        chromium, asgi_live_server.url, user, VIEWPORTS["390x844"], "de", axe=True
    )
    page = context.new_page()
    page.goto(f"{asgi_live_server.url}/tables/{table.pk}/")
    page.wait_for_selector(FINAL)
    rows = page.evaluate(SHOWN)
    assert [(r["seat"], r["place"], r["winner"]) for r in rows] == [
        (0, 1, True),
        (2, 1, True),
        (1, 3, False),
        (3, 4, False),
    ]
    assert all("geteilt" in r["text"] for r in rows[:2])
    winners = page.locator("[data-ref=final-winners]").text_content()
    assert "teilen sich" in winners and " und " in winners, winners
    assert "gewinnt" not in winners
    own = page.locator("[data-ref=final-own]").text_content()
    assert "ersten Platz" in own, own
    assert page.locator("[data-ref=final-lobby]").text_content().strip() == "Zur Lobby"
    assert not axe_problems(page)
    context.close()
