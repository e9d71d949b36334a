"""``bench_tables``: the load benchmark's plan holds started tables and sessions that log in."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.management import call_command

from games.models import Seat, Table
from rosbi_platform.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]
ORIGIN = (b"origin", b"http://localhost:8000")


async def test_plan_tables_are_started_and_every_session_plays_its_seat(tmp_path):
    out = tmp_path / "plan.json"
    await database_sync_to_async(call_command)(
        "bench_tables", tables=2, rounds=2, turn_seconds=30, prefix="bt", out=str(out)
    )
    plan = json.loads(out.read_text())
    assert plan["prefix"] == "bt" and plan["turn_seconds"] == 30
    assert [len(slot["tables"]) for slot in plan["slots"]] == [2, 2]

    def seated_users(table_id: int) -> tuple[str, list[int | None]]:
        table = Table.objects.get(pk=table_id)
        seats = Seat.objects.filter(table=table).order_by("number")
        return table.status, [s.user_id for s in seats]

    for slot in plan["slots"]:
        user_ids = [player["user_id"] for player in slot["players"]]
        assert len(set(user_ids)) == 4
        for table_id in slot["tables"]:
            status, seated = await database_sync_to_async(seated_users)(table_id)
            assert status == "playing" and seated == user_ids

    # Each session cookie authenticates its user at the seat the plan gives it.
    slot = plan["slots"][1]
    table_id = slot["tables"][0]
    turns = []
    for seat, player in enumerate(slot["players"]):
        cookie = f"{plan['session_cookie']}={player['session']}".encode()
        socket = WebsocketCommunicator(
            application, f"/ws/tables/{table_id}/", headers=[ORIGIN, (b"cookie", cookie)]
        )
        assert (await socket.connect())[0]
        snapshot = await socket.receive_json_from(5)
        await socket.disconnect()
        assert snapshot["you"] == {"user_id": player["user_id"], "seat": seat, "role": "player"}
        assert snapshot["table"]["status"] == "playing"
        assert snapshot["clock"]["seconds"] == 30
        turns.append(snapshot["deal"]["turn"] == seat and bool(snapshot["deal"]["legal_moves"]))
    assert turns.count(True) == 1
