"""Sound and motion at the table: off by default where they disturb, switched on in the table's
settings (kept in this browser), a played card animated within 200 ms and not at all when the
system asks for reduced motion."""

from __future__ import annotations

import pytest

from tests.e2e.test_table_in_browser import READY, make_player, spectator_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SOUNDS = "window.rosbiTableExtras.sounds.played"


def play_a_card_and_wait(page) -> str:
    """Click a legal card; wait until the move is applied (the bots have answered, too)."""
    page.wait_for_selector(READY, state="attached", timeout=20_000)
    version = page.evaluate("() => window.rosbiTable.state.version")
    card = page.locator(".hand-card.legal:not([disabled])").first
    code = card.get_attribute("data-card")
    card.click()
    page.wait_for_function(
        "v => !window.rosbiTable.pendingMove && window.rosbiTable.state.version > v", arg=version
    )
    return code


def test_sounds_are_opt_in_and_played_cards_move_unless_motion_is_reduced(
    asgi_live_server, chromium
):
    from games import lobby

    player = make_player("tonia", "french")
    table = lobby.create_table(
        owner=player, size=3, turn_seconds=0, fill_with_bots=True, bot_level="random"
    )
    lobby.start_table(table.pk, player, seed=21)
    page = spectator_page(chromium, player, f"{asgi_live_server.url}/tables/{table.pk}/")
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.emulate_media(reduced_motion="no-preference")
    page.set_viewport_size({"width": 1280, "height": 800})

    # Off by default: the player's turn makes no sound.
    page.wait_for_selector(READY, state="attached", timeout=20_000)
    assert page.evaluate(f"() => {SOUNDS}") == []
    settings = page.locator(".table-settings")
    settings.locator("summary").click()
    assert not settings.locator("[data-setting=sound-turn]").is_checked()
    assert not settings.locator("[data-setting=sound-clock]").is_checked()
    assert settings.locator("[data-setting=motion]").is_checked()

    # Switched on (and remembered in this browser): the next turn rises.
    settings.locator("[data-setting=sound-turn]").check()
    assert page.evaluate("() => localStorage.getItem('rosbi.soundTurn')") == "1"
    page.evaluate(
        """() => {
            window.seenMoving = [];
            new MutationObserver(() => {
                for (const card of document.querySelectorAll('.pcard.just-played')) {
                    const style = getComputedStyle(card);
                    window.seenMoving.push([card.dataset.card, style.animationName,
                                            style.animationDuration]);
                }
            }).observe(document.body, {subtree: true, attributes: true, attributeFilter: ['class']});
        }"""
    )
    code = play_a_card_and_wait(page)
    page.wait_for_function(f"() => {SOUNDS}.includes('turn')")
    moving = page.evaluate("() => window.seenMoving")
    assert [code, "rosbi-card-in", "0.18s"] in moving, moving

    # The system asks for less motion: cards are laid without animation.
    page.emulate_media(reduced_motion="reduce")
    page.evaluate("() => { window.seenMoving = []; }")
    play_a_card_and_wait(page)
    assert page.evaluate("() => window.seenMoving") == []

    # The clock running low ticks once, when switched on.
    settings.locator("[data-setting=sound-clock]").check()
    page.evaluate(
        """() => {
            const state = window.rosbiTable.state;
            state.clock = {seat: state.you.seat, seconds: 30,
                           deadline: new Date(Date.now() + 3000).toISOString()};
        }"""
    )
    page.wait_for_function(f"() => {SOUNDS}.includes('clock')")
    page.wait_for_timeout(600)
    assert page.evaluate(f"() => {SOUNDS}").count("clock") == 1
    assert errors == []
    page.context.close()
