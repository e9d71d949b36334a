"""Events stored before moves carried their layout row (and deal starts their row ranks) are
never replayed to a client, which could not apply them without the rules: a snapshot instead."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games import moves, selectors
from games.models import Table, TableEvent
from tests.games.live.helpers import Viewer, fresh_snapshot, humans_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


def play_one_move(table_id: int, users) -> None:
    table = Table.objects.get(pk=table_id)
    turn = selectors.build_snapshot(table_id, users[0])["deal"]["turn"]
    snapshot = selectors.build_snapshot(table_id, users[turn])
    move = snapshot["deal"]["legal_moves"][0]
    assert moves.submit_move(table.pk, move, table.version, user=users[turn]).ok


def store_as_before_the_facts(table_id: int, after: int) -> None:
    """Drop the fact fields from the stored events after ``after``, as older servers wrote them."""
    for event in TableEvent.objects.filter(table_id=table_id, version__gt=after):
        for field in ("row", "row_ranks"):
            event.data.pop(field, None)
        TableEvent.objects.filter(pk=event.pk).update(data=event.data)


def test_events_since_gives_way_to_a_snapshot_over_outdated_events():
    table, users = humans_table(4, seed=21)
    version = Table.objects.get(pk=table.pk).version
    play_one_move(table.pk, users)
    current = selectors.events_since(table.pk, version)
    assert current and all("row" in m["event"] for m in current if m["event"]["kind"] == "move")
    store_as_before_the_facts(table.pk, version)
    assert selectors.events_since(table.pk, version) is None
    assert selectors.events_since(table.pk, Table.objects.get(pk=table.pk).version) == []


async def test_a_reconnect_over_outdated_events_gets_a_fresh_snapshot():
    table, users = await database_sync_to_async(humans_table)(4, seed=22)
    version = await database_sync_to_async(
        lambda: Table.objects.values_list("version", flat=True).get(pk=table.pk)
    )()
    await database_sync_to_async(play_one_move)(table.pk, users)
    await database_sync_to_async(store_as_before_the_facts)(table.pk, version)
    back = Viewer(users[1], table.pk, f"?since={version}")
    await back.connect(expect_snapshot=False)
    frame = await back.receive()
    assert frame["type"] == "snapshot"
    assert back.state == await fresh_snapshot(table.pk, users[1])
    await back.disconnect()
