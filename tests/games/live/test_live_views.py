"""Lobby and table pages, the JSON list, and websocket access through the full ASGI stack."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from games import lobby
from games.models import Seat, Table
from rosbi_platform.asgi import application
from tests.games.factories import UserFactory
from tests.games.live.helpers import humans_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]
ORIGIN = (b"origin", b"http://localhost:8000")


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_create_join_start_from_the_lobby_forms():
    owner, guest = UserFactory(), UserFactory()
    client = logged_in(owner)
    response = client.post(
        "/tables/new/",
        {
            "name": "Evening table",
            "size": "3",
            "doubling": "on",
            "layout": "free",
            "turn_seconds": "60",
            "public": "on",
            "fill_with_bots": "on",
            "bot_level": "random",
        },
    )
    table = Table.objects.get(name="Evening table")
    assert response.status_code == 302 and response["Location"] == f"/tables/{table.pk}/"
    assert (table.size, table.layout, table.turn_seconds, table.doubling) == (3, "free", 60, True)

    listed = client.get("/lobby/tables.json").json()["tables"]
    assert [t["id"] for t in listed] == [table.pk]
    assert listed[0]["seats"][0]["user_id"] == owner.pk
    assert b"Evening table" in client.get("/lobby/").content

    logged_in(guest).post(f"/tables/{table.pk}/join/", {"seat": "2"})
    assert Seat.objects.get(table=table, number=2).user_id == guest.pk
    refused = logged_in(guest).post(f"/tables/{table.pk}/start/", follow=True)
    assert "organiser" in refused.content.decode()
    client.post(f"/tables/{table.pk}/start/")
    table.refresh_from_db()
    assert table.status == "playing"
    assert client.get("/lobby/tables.json").json()["tables"] == []

    page = client.get(f"/tables/{table.pk}/")
    assert page.status_code == 200
    assert page.context["your_seat"] == 0 and page.context["table_id"] == table.pk
    assert page.context["ws_url"] == f"ws://testserver/ws/tables/{table.pk}/"
    assert page.context["card_look"] == "german"


def test_private_tables_need_the_invite_code():
    table, users = humans_table(3, seed=None, public=False)
    stranger = logged_in(UserFactory())
    assert stranger.get(f"/tables/{table.pk}/").status_code == 403
    page = stranger.get(f"/tables/{table.pk}/?invite={table.invite_code}")
    assert page.status_code == 200
    assert page.context["ws_url"].endswith(f"?invite={table.invite_code}")
    assert stranger.get("/lobby/tables.json").json()["tables"] == []
    # The page's plain join form works: the invite from the link is kept in the session.
    lobby.leave_table(table.pk, users[2])
    stranger.post(f"/tables/{table.pk}/join/")
    assert Seat.objects.get(table=table, number=2).user_id is not None
    assert Seat.objects.get(table=table, number=2).user_id != users[2].pk


def test_the_replay_page_embeds_the_partie_record_once_finished():
    owner = UserFactory()
    client = logged_in(owner)
    # An organiser's table of three bots (the organiser watches): it plays to the end at once.
    table = lobby.create_table(
        owner=owner, size=3, seat_owner=False, fill_with_bots=True, bot_level="random"
    )
    assert client.get(f"/tables/{table.pk}/replay/").status_code == 404
    client.post(f"/tables/{table.pk}/start/")
    table.refresh_from_db()
    assert table.status == "finished"
    page = client.get(f"/tables/{table.pk}/replay/")
    record = page.context["replay"]["partie_record"]
    assert record["players"] == 3 and len(record["deals"]) == 6
    assert [s["seat"] for s in page.context["replay"]["seats"]] == [0, 1, 2]
    assert client.get(f"/tables/{table.pk}/record.json").json() == record
    assert json.loads(json.dumps(record)) == record


async def test_websocket_access_through_the_full_stack():
    table, users = await database_sync_to_async(humans_table)(3, seed=None, public=False)

    anonymous = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/", headers=[ORIGIN])
    assert (await anonymous.connect())[0]
    assert (await anonymous.receive_output(5)) == {"type": "websocket.close", "code": 4401}

    def session_cookie(user) -> bytes:
        client = Client()
        client.force_login(user)
        name = settings.SESSION_COOKIE_NAME
        return f"{name}={client.cookies[name].value}".encode()

    stranger = await database_sync_to_async(UserFactory)()
    cookie = await database_sync_to_async(session_cookie)(stranger)
    refused = WebsocketCommunicator(
        application, f"/ws/tables/{table.pk}/", headers=[ORIGIN, (b"cookie", cookie)]
    )
    await refused.connect()
    assert (await refused.receive_output(5))["code"] == 4403

    invited = WebsocketCommunicator(
        application,
        f"/ws/tables/{table.pk}/?invite={table.invite_code}",
        headers=[ORIGIN, (b"cookie", cookie)],
    )
    await invited.connect()
    snapshot = await invited.receive_json_from(5)
    assert snapshot["type"] == "snapshot" and snapshot["you"]["role"] == "spectator"
    await invited.disconnect()

    player_cookie = await database_sync_to_async(session_cookie)(users[1])
    player = WebsocketCommunicator(
        application, f"/ws/tables/{table.pk}/", headers=[ORIGIN, (b"cookie", player_cookie)]
    )
    await player.connect()
    assert (await player.receive_json_from(5))["you"] == {
        "user_id": users[1].pk,
        "seat": 1,
        "role": "player",
    }
    await player.disconnect()

    missing = WebsocketCommunicator(
        application, "/ws/tables/999999/", headers=[ORIGIN, (b"cookie", player_cookie)]
    )
    await missing.connect()
    assert (await missing.receive_output(5))["code"] == 4404


async def test_the_lobby_socket_pushes_the_list_when_it_changes():
    owner = await database_sync_to_async(UserFactory)()
    socket = WebsocketCommunicator(application, "/ws/lobby/", headers=[ORIGIN])
    assert (await socket.connect())[0]
    assert await socket.receive_json_from(5) == {"type": "tables", "tables": []}
    table = await database_sync_to_async(lobby.create_table)(owner=owner, name="Fresh")
    pushed = await socket.receive_json_from(5)
    assert [t["name"] for t in pushed["tables"]] == ["Fresh"]
    assert pushed["tables"][0]["id"] == table.pk
    await socket.disconnect()


def test_the_admin_exports_finished_parties_as_records():
    admin = UserFactory(is_staff=True, is_superuser=True)
    table = lobby.create_table(
        owner=admin, size=3, seat_owner=False, fill_with_bots=True, bot_level="random"
    )
    lobby.start_table(table.pk, admin, seed=2)
    client = logged_in(admin)
    assert client.get(f"/admin/games/table/{table.pk}/change/").status_code == 200
    assert client.get("/admin/games/tableevent/").status_code == 200
    response = client.post(
        "/admin/games/table/",
        {"action": "replay_as_record", "_selected_action": [str(table.pk)]},
    )
    lines = response.content.decode().splitlines()
    assert response["Content-Type"] == "application/x-ndjson"
    record = json.loads(lines[0])
    assert len(lines) == 1 and record["players"] == 3 and len(record["deals"]) == 6
