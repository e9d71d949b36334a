"""Reconnects replay what was missed; a table resumes from the database alone."""

from __future__ import annotations

import copy

import pytest
from channels.db import database_sync_to_async

from games import moves
from games.live.state import apply_event
from games.selectors import MAX_REPLAY_EVENTS
from tests.games.live.helpers import Viewer, fresh_snapshot, humans_table, sync_all

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


async def play_moves(viewers: list[Viewer], table_id: int, count: int) -> None:
    """``count`` moves by whoever is on turn among ``viewers`` (all must be connected)."""
    for _ in range(count):
        turn = viewers[0].state["deal"]["turn"]
        mover = next(v for v in viewers if v.seat == turn)
        assert (await mover.move(mover.state["deal"]["legal_moves"][0]))["type"] == "ack"
        await sync_all(viewers, table_id)


async def play_without(absent_seat: int, table_id: int, users, count: int) -> None:
    """Moves by the other seats straight through the service while one player is away."""
    from games import selectors

    for _ in range(count):
        snapshot = await database_sync_to_async(selectors.build_snapshot)(table_id, users[0])
        turn = snapshot["deal"]["turn"]
        if turn == absent_seat:
            return
        mine = await database_sync_to_async(selectors.build_snapshot)(table_id, users[turn])
        result = await database_sync_to_async(moves.submit_move)(
            table_id, mine["deal"]["legal_moves"][0], mine["version"], user=users[turn]
        )
        assert result.status == "applied"


async def test_sync_after_a_reconnect_replays_the_missed_events_in_order():
    table, users = await database_sync_to_async(humans_table)(4, seed=21)
    viewers = [Viewer(user, table.pk) for user in users]
    for viewer in viewers:
        await viewer.connect()
    await play_moves(viewers, table.pk, 3)
    gone = viewers[0] if viewers[0].state["deal"]["turn"] != 0 else viewers[1]
    left_at = copy.deepcopy(gone.state)
    await gone.disconnect()
    await play_without(gone.seat, table.pk, users, 3)

    back = Viewer(gone.user, table.pk)
    await back.connect()
    assert back.version > left_at["version"]
    await back.send({"type": "sync", "version": left_at["version"]})
    # Read raw frames: the client applies them to the state it had before the disconnect.
    count = back.version - left_at["version"]
    replayed = [await back.communicator.receive_json_from(timeout=10) for _ in range(count)]

    assert [f["version"] for f in replayed] == list(range(left_at["version"] + 1, back.version + 1))
    state = left_at
    for frame in replayed:
        state = apply_event(state, frame)
    assert state == await fresh_snapshot(table.pk, gone.user)
    assert await back.nothing_more()


async def test_connecting_with_since_replays_instead_of_a_snapshot():
    table, users = await database_sync_to_async(humans_table)(3, seed=4)
    viewers = [Viewer(user, table.pk) for user in users]
    for viewer in viewers:
        await viewer.connect()
    await play_moves(viewers, table.pk, 2)
    seat = viewers[0].state["deal"]["turn"]
    gone = viewers[(seat + 1) % 3]
    left_at = copy.deepcopy(gone.state)
    await gone.disconnect()
    await play_moves([v for v in viewers if v is not gone][:1] + [viewers[seat]], table.pk, 0)
    await play_without(gone.seat, table.pk, users, 1)

    back = Viewer(gone.user, table.pk, query=f"?since={left_at['version']}")
    back.state = left_at
    await back.connect(expect_snapshot=False)
    target = (await fresh_snapshot(table.pk, gone.user))["version"]
    await back.catch_up(target)
    assert back.snapshots == 0
    assert back.state == await fresh_snapshot(table.pk, gone.user)


async def test_too_old_a_version_gets_a_snapshot():
    table, users = await database_sync_to_async(humans_table)(3, seed=4)
    viewer = Viewer(users[0], table.pk)
    await viewer.connect()
    await viewer.send({"type": "sync", "version": viewer.version + MAX_REPLAY_EVENTS + 5})
    assert (await viewer.receive())["type"] == "snapshot"


async def test_the_table_resumes_after_every_consumer_is_gone():
    table, users = await database_sync_to_async(humans_table)(4, seed=8)
    viewers = [Viewer(user, table.pk) for user in users]
    for viewer in viewers:
        await viewer.connect()
    await play_moves(viewers, table.pk, 5)
    states = [copy.deepcopy(v.state) for v in viewers]
    for viewer in viewers:
        await viewer.disconnect()

    # A restart keeps nothing in memory: new consumers read everything from the database.
    fresh = [Viewer(user, table.pk) for user in users]
    for viewer in fresh:
        await viewer.connect()
    assert [v.state for v in fresh] == states
    await play_moves(fresh, table.pk, 10)
    for viewer, user in zip(fresh, users, strict=True):
        assert viewer.state == await fresh_snapshot(table.pk, user)
