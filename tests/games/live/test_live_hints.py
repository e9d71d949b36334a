"""Hint mode (issue 17, bot item 5): on casual tables the player on turn may ask for the strong
bot's move with a one-line reason; refused at rated and tournament tables; built from the
asker's own view only."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games import hints, selectors
from games.events import ServiceError
from games.models import PartieDeal, Table
from tests.games.factories import UserFactory
from tests.games.live.helpers import Viewer, card_codes, humans_table, table_version

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


@pytest.fixture(autouse=True)
def quick_hints(settings):
    """A fixed number of sampled worlds: fast, and the same hint for the same view and seed."""
    settings.GAMES_HINT_OPTIONS = {"samples": 12, "time_limit": None}


async def seated(table, users, cookie=None):
    viewers = [Viewer(user, table.pk) for user in users]
    for viewer in viewers:
        if cookie:
            viewer.communicator.scope["cookies"] = {"django_language": cookie}
        await viewer.connect()
    return viewers


async def ask(viewer, client_id="h-1"):
    await viewer.send({"type": "hint", "id": client_id})
    answer = await viewer.reply(timeout=30)
    assert answer["id"] == client_id
    return answer


async def test_the_player_on_turn_gets_a_legal_move_with_a_reason_and_can_play_it():
    table, users = await database_sync_to_async(humans_table)(4)
    viewers = await seated(table, users)
    turn = viewers[0].state["deal"]["turn"]
    me = viewers[turn]
    before = await table_version(table.pk)
    answer = await ask(me)
    assert answer["type"] == "hint", answer
    assert answer["move"] in me.state["deal"]["legal_moves"]
    assert answer["reason"] and len(answer["reason"].splitlines()) == 1
    # Nothing but the asker's own cards can appear: no other seat's card code in the frame.
    assert card_codes(answer) <= set(me.state["deal"]["hand"])
    # A hint changes nothing at the table and is sent to nobody else.
    assert await table_version(table.pk) == before
    for other in viewers:
        if other is not me:
            assert await other.nothing_more()
    played = await me.move(answer["move"])
    assert played["type"] == "ack"
    for viewer in viewers:
        await viewer.disconnect()


async def test_the_reason_is_in_the_pages_language():
    table, users = await database_sync_to_async(humans_table)(4)
    viewers = await seated(table, users, cookie="de")
    turn = viewers[0].state["deal"]["turn"]
    answer = await ask(viewers[turn])
    assert answer["type"] == "hint"
    assert "Strafpunkte" in answer["reason"] or "einzige" in answer["reason"]
    for viewer in viewers:
        await viewer.disconnect()


async def test_hints_are_refused_at_a_rated_table_with_a_clear_message():
    table, users = await database_sync_to_async(humans_table)(4, rated=True)
    viewers = await seated(table, users)
    turn = viewers[0].state["deal"]["turn"]
    before = await table_version(table.pk)
    answer = await ask(viewers[turn])
    assert answer["type"] == "error" and answer["code"] == "hints_off"
    assert answer["message"] == (
        "Hints are off at rated tables: the rating should measure your own play."
    )
    assert await table_version(table.pk) == before
    for viewer in viewers:
        await viewer.disconnect()


async def test_hints_are_refused_in_tournaments_off_turn_and_to_spectators():
    table, users = await database_sync_to_async(humans_table)(4)
    viewers = await seated(table, users)
    turn = viewers[0].state["deal"]["turn"]
    waiting = await ask(viewers[(turn + 1) % 4])
    assert waiting["type"] == "error" and waiting["code"] == "not_your_turn"
    spectator = Viewer(await database_sync_to_async(UserFactory)(), table.pk)
    await spectator.connect()
    watching = await ask(spectator)
    assert watching["type"] == "error" and watching["code"] == "not_seated"
    await database_sync_to_async(Table.objects.filter(pk=table.pk).update)(tournament_round_id=99)
    answer = await ask(viewers[turn], "h-2")
    assert answer["type"] == "error" and answer["code"] == "hints_off"
    assert answer["message"] == "Hints are off in tournaments."
    for viewer in [*viewers, spectator]:
        await viewer.disconnect()


def test_the_hint_depends_only_on_the_askers_view():
    """Swapping the hidden hands of two other seats changes nothing the asker may know, so
    (same seed, same number of sampled worlds) the hint stays the same: it never reads them."""
    table, users = humans_table(4)
    row = selectors.current_deal_row(table)
    turn = selectors.rebuild_deal(row, table).turn
    first = hints.suggest_move(table.pk, users[turn])
    a, b = [seat for seat in range(4) if seat != turn][:2]
    hands = [list(hand) for hand in row.hands]
    hands[a], hands[b] = hands[b], hands[a]
    PartieDeal.objects.filter(pk=row.pk).update(hands=hands)
    assert hints.suggest_move(table.pk, users[turn]) == first
    with pytest.raises(ServiceError) as refused:
        hints.suggest_move(table.pk, users[a])
    assert refused.value.code == "not_your_turn"


def test_the_hint_button_is_on_casual_tables_only(client):
    casual, users = humans_table(4)
    rated, rated_users = humans_table(4, rated=True)
    client.force_login(users[0])
    page = client.get(f"/tables/{casual.pk}/").content.decode()
    assert 'data-action="hint"' in page and "js/table_hint.js" in page
    client.force_login(rated_users[0])
    page = client.get(f"/tables/{rated.pk}/").content.decode()
    assert 'data-action="hint"' not in page and "js/table_hint.js" not in page
