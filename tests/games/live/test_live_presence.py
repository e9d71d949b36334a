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


def test_a_flush_writes_each_users_marks_as_one_command_of_each_kind(monkeypatch):
    """A reconnect storm queues a mark per socket: a user's marks go out together, and a
    place marked twice in one flush is written once, as its last mark says."""
    presence.mark_present(5, "table:1")
    presence.mark_present(5, "table:2")
    presence.flush()
    sent: list[tuple] = []
    real_pipeline = presence.shared_client().pipeline

    def recording_pipeline(*args, **kwargs):
        pipe = real_pipeline(*args, **kwargs)
        real_execute = pipe.execute

        def execute(*a, **k):
            sent.extend(command[0][0] for command in pipe.command_stack)
            return real_execute(*a, **k)

        pipe.execute = execute
        return pipe

    monkeypatch.setattr(presence.shared_client(), "pipeline", recording_pipeline)
    presence.mark_absent(5, "table:1")  # the storm's drop ...
    presence.mark_absent(5, "table:2")
    presence.mark_present(5, "table:1")  # ... and the reconnect of one of them
    presence.mark_present(5, presence.LOBBY)
    presence.mark_present(6, "table:3")
    presence.mark_absent(6, "table:3")
    presence.flush()

    assert sorted(sent) == ["EXPIRE", "ZADD", "ZREM", "ZREM"]
    assert presence.places_of([5, 6]) == {5: ["lobby", "table:1"]}
