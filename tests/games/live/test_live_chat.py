"""Table chat: players and spectators have their own channels; organisers and staff mute."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games import chat, events
from tests.games.factories import SiteModeratorFactory, UserFactory
from tests.games.live.helpers import Viewer, humans_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


async def chat_table():
    table, users = await database_sync_to_async(humans_table)(3)
    watchers = await database_sync_to_async(lambda: [UserFactory(), UserFactory()])()
    players = [Viewer(u, table.pk) for u in users]
    spectators = [Viewer(u, table.pk) for u in watchers]
    for viewer in players + spectators:
        await viewer.connect()
    return table, users, watchers, players, spectators


async def next_chat(viewer: Viewer) -> dict:
    start = len(viewer.chats)
    while len(viewer.chats) == start:
        await viewer.receive()
    return viewer.chats[-1]


async def test_players_chat_reaches_everyone_and_spectators_chat_only_spectators():
    table, users, watchers, players, spectators = await chat_table()

    await players[0].send({"type": "chat", "channel": "players", "text": " gut gespielt "})
    for viewer in players + spectators:
        line = await next_chat(viewer)
        assert line["kind"] == "chat" and line["channel"] == "players"
        assert line["text"] == "gut gespielt" and line["author"] == users[0].profile.display_name

    await spectators[0].send({"type": "chat", "channel": "spectators", "text": "KH is coming"})
    for viewer in spectators:
        assert (await next_chat(viewer))["text"] == "KH is coming"
    for viewer in players:
        assert await viewer.nothing_more()
        assert [c["channel"] for c in viewer.chats] == ["players"]


async def test_writing_to_the_other_channel_or_too_much_is_refused():
    table, users, watchers, players, spectators = await chat_table()
    await players[1].send({"type": "chat", "channel": "spectators", "text": "psst", "id": "x"})
    assert (await players[1].reply())["code"] == "bad_request"
    await spectators[1].send({"type": "chat", "channel": "players", "text": "play KH!"})
    assert (await spectators[1].reply())["code"] == "bad_request"
    await players[1].send({"type": "chat", "channel": "players", "text": "x" * 501})
    assert (await players[1].reply())["code"] == "bad_request"
    for viewer in players + spectators:
        assert viewer.chats == []


async def test_muted_users_get_an_error_and_only_organisers_or_staff_may_mute():
    table, users, watchers, players, spectators = await chat_table()
    with pytest.raises(events.ServiceError) as refused:
        await database_sync_to_async(chat.mute_user)(table.pk, users[1], watchers[0])
    assert refused.value.code == "forbidden"

    await database_sync_to_async(chat.mute_user)(table.pk, users[0], watchers[0])
    await spectators[0].send({"type": "chat", "channel": "spectators", "text": "hello?"})
    answer = await spectators[0].reply()
    assert answer["type"] == "error" and answer["code"] == "muted"
    # Everyone at the table is told of the mute (a versionless notice), and hears no more.
    notice = await next_chat(spectators[1])
    assert notice["kind"] == "mute" and notice["muted"] and notice["user_id"] == watchers[0].pk
    assert await spectators[1].nothing_more()

    # A site moderator (is_staff alone mutes nobody: issue 25).
    staff = await database_sync_to_async(lambda: SiteModeratorFactory())()
    await database_sync_to_async(chat.unmute_user)(table.pk, staff, watchers[0])
    assert (await next_chat(spectators[1]))["muted"] is False
    await spectators[0].send({"type": "chat", "channel": "spectators", "text": "hello!"})
    assert (await next_chat(spectators[1]))["text"] == "hello!"
