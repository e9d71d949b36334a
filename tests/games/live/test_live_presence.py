"""Friends online: lobby and table sockets keep their user's presence in Redis."""

from __future__ import annotations

import uuid

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from games import lobby, presence, selectors
from rosbi_platform.friends.models import Block, Follow
from tests.games.factories import UserFactory
from tests.games.live.helpers import ROUTER, Viewer

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


@pytest.fixture(autouse=True)
def presence_of_this_run(settings):
    """Earlier runs on the same test database left presence (ids restart with the database)."""
    settings.GAMES_PRESENCE_PREFIX = f"test-presence:{uuid.uuid4().hex}"


def lobby_text(user) -> str:
    client = Client()
    client.force_login(user)
    return client.get("/lobby/").content.decode()


async def test_the_lobby_shows_which_friends_are_online_and_where():
    anna, ben, clara, dora = await database_sync_to_async(
        lambda: [UserFactory() for _ in range(4)]
    )()

    def setup():
        for friend in (ben, clara, dora):
            Follow.objects.create(follower=anna, followee=friend)
        Block.objects.create(blocker=dora, blocked=anna)  # dora hides from anna
        public = lobby.create_table(owner=clara, name="Clara's evening", size=3)
        secret = lobby.create_table(owner=dora, name="Hidden", size=3, public=False)
        return public, secret

    public, secret = await database_sync_to_async(setup)()
    ben_lobby = WebsocketCommunicator(ROUTER, "/ws/lobby/")
    ben_lobby.scope["user"] = ben
    assert (await ben_lobby.connect())[0]
    await ben_lobby.receive_json_from()
    clara_table, dora_table = Viewer(clara, public.pk), Viewer(dora, secret.pk)
    await clara_table.connect()
    await dora_table.connect()

    online = await database_sync_to_async(selectors.friends_online)(anna)
    by_name = {f.username: f for f in online}
    assert set(by_name) == {ben.username, clara.username}
    assert by_name[ben.username].in_lobby and by_name[ben.username].tables == []
    assert by_name[clara.username].tables == [(public.pk, "Clara's evening")]
    text = await database_sync_to_async(lobby_text)(anna)
    assert f"/tables/{public.pk}/" in text

    # A friend at a private table: shown, the table not named.
    await database_sync_to_async(Block.objects.all().delete)()
    online = await database_sync_to_async(selectors.friends_online)(anna)
    assert {f.username: f.private_tables for f in online}[dora.username] == 1

    await ben_lobby.send_json_to({"type": "ping"})
    while (await ben_lobby.receive_json_from())["type"] != "pong":
        pass  # the list of tables, pushed when they changed
    await ben_lobby.disconnect()
    await clara_table.disconnect()
    online = await database_sync_to_async(selectors.friends_online)(anna)
    assert {f.username for f in online} == {dora.username}
    await dora_table.disconnect()
    assert await database_sync_to_async(presence.places_of)([dora.pk]) == {}


def test_marks_are_written_in_order_in_one_pipeline_and_read_back_at_once():
    """A reconnect closes and reopens a page: absent then present must leave it present,
    and present then absent must not; a read sees what this process queued a moment ago."""
    presence.mark_present(1, "table:7")
    presence.mark_absent(1, "table:7")
    presence.mark_present(1, "table:7")  # the reconnect
    presence.mark_present(2, presence.LOBBY)
    presence.mark_absent(2, presence.LOBBY)  # closed for good

    assert presence.places_of([1, 2]) == {1: ["table:7"]}


def test_the_handshake_only_queues_its_mark():
    presence.flush()
    presence.mark_present(3, "table:9")

    assert presence._queued == [(True, 3, "table:9")]
    presence.flush()
    assert presence._queued == []
    assert presence.places_of([3]) == {3: ["table:9"]}
