"""Whole Parties over websockets: bots and humans, hidden information, events versus state."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games import lobby
from games.models import Partie, SeatResult, Table, TableEvent
from games.signals import partie_finished
from tests.games.factories import TableFactory, UserFactory
from tests.games.live.helpers import (
    Viewer,
    fresh_snapshot,
    hidden_cards_by_version,
    leaks,
    start,
    sync_all,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


@pytest.fixture
def handed_off():
    """Records every partie_finished signal."""
    received = []

    def receiver(sender, outcome, **kwargs):
        received.append((outcome.partie_id, [(s.seat, s.total, s.place) for s in outcome.seats]))

    partie_finished.connect(receiver)
    yield received
    partie_finished.disconnect(receiver)


async def test_one_human_three_bots_play_a_whole_partie(handed_off):
    human, watcher = await database_sync_to_async(lambda: (UserFactory(), UserFactory()))()
    table = await database_sync_to_async(
        lambda: TableFactory(owner=human, fill_with_bots=True, bot_level="heuristic")
    )()
    await database_sync_to_async(lobby.join_table)(table.pk, human, seat=1)
    player, spectator = Viewer(human, table.pk), Viewer(watcher, table.pk)
    await player.connect()
    await spectator.connect()
    assert player.seat == 1 and spectator.seat is None
    assert player.state["deal"] is None and player.state["partie"] is None

    await start(table.pk, human, seed=11)
    await sync_all([player, spectator], table.pk)
    moves = 0
    while player.state["table"]["status"] != "finished":
        deal = player.state["deal"]
        assert deal["turn"] == 1, "after the bots moved it must be the human's turn"
        answer = await player.move(deal["legal_moves"][-1])
        assert answer["type"] == "ack", answer
        moves += 1
        await sync_all([player, spectator], table.pk)
        if moves % 12 == 0:
            # Mid-Partie: the state built from events equals a fresh snapshot, for both views.
            assert player.state == await fresh_snapshot(table.pk, human)
            assert spectator.state == await fresh_snapshot(table.pk, watcher)

    assert player.state == await fresh_snapshot(table.pk, human)
    assert spectator.state == await fresh_snapshot(table.pk, watcher)
    assert player.snapshots == 1 and spectator.snapshots == 1
    final = player.state["partie"]
    assert len(final["score_sheet"]) == 6 and final["places"] is not None

    def stored():
        partie = Partie.objects.get(table_id=table.pk)
        results = list(SeatResult.objects.filter(partie=partie).order_by("seat"))
        by_bot = TableEvent.objects.filter(table_id=table.pk, kind="move", data__seat=1)
        return partie, results, [e.data["by_bot"] for e in by_bot]

    partie, results, human_moves_by_bot = await database_sync_to_async(stored)()
    assert [r.total for r in results] == final["totals"]
    assert [r.place for r in results] == final["places"]
    assert results[1].user_id == human.pk and results[0].bot_level == "heuristic"
    assert human_moves_by_bot == [False] * moves
    assert partie.handed_off
    assert handed_off == [(partie.pk, [(r.seat, r.total, r.place) for r in results])]
    # Replaying the record gives the same penalties as the live play.
    record = await database_sync_to_async(partie.to_record)()
    from games.engine import Partie as EnginePartie

    assert list(EnginePartie.from_record(record).totals) == final["totals"]

    # No frame ever held a card of another seat's hand that was not played yet.
    hidden_from_player = await database_sync_to_async(hidden_cards_by_version)(table.pk, 1)
    hidden_from_spectator = await database_sync_to_async(hidden_cards_by_version)(table.pk, None)
    assert leaks(player.frames, hidden_from_player) == []
    assert leaks(spectator.frames, hidden_from_spectator) == []
    # ...and the check is not vacuous: the raw stored deal_started events do hold them.
    assert any(hidden_from_player.values())
    await player.disconnect()
    await spectator.disconnect()


async def test_four_humans_play_a_whole_partie_with_clocks():
    users = await database_sync_to_async(lambda: [UserFactory() for _ in range(5)])()
    table = await database_sync_to_async(lambda: TableFactory(owner=users[0], turn_seconds=30))()
    for user in users[:4]:
        await database_sync_to_async(lobby.join_table)(table.pk, user)
    viewers = [Viewer(user, table.pk) for user in users]
    for viewer in viewers:
        await viewer.connect()
    await start(table.pk, users[0], seed=5)
    await sync_all(viewers, table.pk)
    clocks_seen = 0
    while viewers[0].state["table"]["status"] != "finished":
        turn = viewers[0].state["deal"]["turn"]
        on_turn = viewers[turn]
        assert on_turn.state["clock"]["seat"] == turn
        clocks_seen += 1
        # Legal moves only ever reach the seat on turn.
        assert all(v.state["deal"]["legal_moves"] == [] for v in viewers if v is not on_turn)
        answer = await on_turn.move(on_turn.state["deal"]["legal_moves"][0])
        assert answer["type"] == "ack", answer
        await sync_all(viewers, table.pk)

    for viewer, user in zip(viewers, users, strict=True):
        assert viewer.state == await fresh_snapshot(table.pk, user)
        hidden = await database_sync_to_async(hidden_cards_by_version)(table.pk, viewer.seat)
        assert leaks(viewer.frames, hidden) == []
    assert viewers[0].state["clock"] is None
    assert clocks_seen > 100
    status = await database_sync_to_async(
        lambda: Table.objects.values_list("status", flat=True).get(pk=table.pk)
    )()
    assert status == "finished"
    for viewer in viewers:
        await viewer.disconnect()
