"""Resigning during a Partie and aborting one before its first card, over websockets."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games import aborts, handoff, lobby, moves, resignations, selectors
from games.events import ServiceError
from games.models import Partie, Seat, SeatResult, Table, TableEvent
from games.outcomes import final_places
from tests.games.factories import TableFactory, UserFactory
from tests.games.live.helpers import Viewer, fresh_snapshot, humans_table, sync_all, table_version

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


def kinds(viewer: Viewer) -> list[str]:
    return [f["event"]["kind"] for f in viewer.frames if f["type"] == "event"]


def test_resigned_players_are_placed_below_everyone_who_played_on():
    assert final_places([10, 3, 8, 20], [False, True, False, False]) == [2, 4, 1, 3]
    assert final_places([5, 5, 9], [False, False, False]) == [1, 1, 3]
    assert final_places([1, 7, 4], [True, False, True]) == [2, 1, 3]


async def test_a_resignation_hands_the_seat_to_a_bot_and_tells_everyone():
    table, users = await database_sync_to_async(humans_table)(3, seed=3)
    watcher = await database_sync_to_async(UserFactory)()
    stay, gone, spectator = (
        Viewer(users[0], table.pk),
        Viewer(users[2], table.pk),
        Viewer(watcher, table.pk),
    )
    for viewer in (stay, gone, spectator):
        await viewer.connect()

    await database_sync_to_async(resignations.resign_partie)(table.pk, users[2])
    await sync_all([stay, spectator, gone], table.pk)

    name = await database_sync_to_async(selectors.user_display_name)(users[2])
    for viewer in (stay, spectator):
        told = [
            f["event"] for f in viewer.frames if f.get("event", {}).get("kind") == "player_resigned"
        ]
        assert told == [
            {"kind": "player_resigned", "seat": 2, "user_id": users[2].pk, "name": name}
        ]
        assert viewer.state["partie"]["resigned"] == [2]
        assert viewer.state["table"]["seats"][2]["bot_level"] == "heuristic"
        assert viewer.state == await fresh_snapshot(table.pk, viewer.user)
    # The player who resigned watches on as a spectator.
    assert gone.state["you"]["role"] == "spectator"
    seat = await database_sync_to_async(Seat.objects.get)(table=table, number=2)
    assert seat.resigned and seat.user_id is None and seat.left_at is not None
    assert seat.started_by_id == users[2].pk

    version = await table_version(table.pk)
    with pytest.raises(ServiceError) as again:
        await database_sync_to_async(resignations.resign_partie)(table.pk, users[2])
    assert again.value.code == "not_seated"
    assert await table_version(table.pk) == version


def test_resigning_is_only_for_a_partie_being_played():
    owner = UserFactory()
    table = lobby.create_table(owner=owner, size=3)
    with pytest.raises(ServiceError) as refused:
        resignations.resign_partie(table.pk, owner)
    assert refused.value.code == "not_playing"
    assert "resign" in refused.value.message
    assert Table.objects.get(pk=table.pk).version == 0


def test_the_resigner_is_placed_last_and_the_outcome_says_so():
    """Two humans and a bot; one human is away (a bot plays for them), the other resigns:
    bots finish the Partie, and the resigner is last whatever the totals."""
    first, second = UserFactory(), UserFactory()
    table = TableFactory(owner=first, size=3, fill_with_bots=True, rated=True)
    lobby.join_table(table.pk, first, seat=0)
    lobby.join_table(table.pk, second, seat=1)
    Seat.objects.filter(table=table, number=1).update(away=True)
    lobby.start_table(table.pk, first, seed=5)

    resignations.resign_partie(table.pk, first)

    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    results = {r.seat: r for r in SeatResult.objects.filter(partie__table=table)}
    assert results[0].resigned and results[0].place == 3
    totals = [results[s].total for s in range(3)]
    assert [results[s].place for s in range(3)] == final_places(totals, [True, False, False])
    finished = TableEvent.objects.get(table=table, kind="partie_finished")
    assert finished.data["places"][0] == 3
    outcome = selectors.partie_outcome(table.partie.pk)
    assert outcome.seats[0].resigned and outcome.seats[0].left
    assert outcome.seats[0].user_id == first.pk
    assert not outcome.seats[1].resigned


async def test_the_owner_aborts_before_the_first_card_and_nothing_counts():
    table, users = await database_sync_to_async(humans_table)(3, seed=3, rated=True)
    other = Viewer(users[1], table.pk)
    await other.connect()

    assert await database_sync_to_async(aborts.abort_table)(table.pk, users[0]) is True
    await sync_all([other], table.pk)

    assert kinds(other)[-1] == "table_aborted"
    assert other.state["table"]["status"] == "aborted"
    assert other.state["deal"] is None and other.state["clock"] is None
    assert other.state == await fresh_snapshot(table.pk, users[1])

    def after() -> tuple:
        table.refresh_from_db()
        partie = Partie.objects.get(table=table)
        return table.status, table.turn_deadline, partie.finished_at, partie.handed_off

    assert await database_sync_to_async(after)() == (Table.Status.ABORTED, None, None, False)
    # Never handed off, so ratings never hear of it; and nobody can play on.
    assert await database_sync_to_async(handoff.hand_off_overdue_parties)() == 0
    deal = await database_sync_to_async(
        lambda: selectors.rebuild_deal(selectors.current_deal_row(table), table)
    )()
    mover = users[deal.turn]
    result = await database_sync_to_async(moves.submit_move)(
        table.pk, deal.legal_moves()[0].code, other.version, user=mover
    )
    assert result.code == "not_playing"
    listed = await database_sync_to_async(selectors.tables_of_user)(users[1])
    assert table.pk not in [t.pk for t in listed]


async def test_at_a_ranked_table_every_player_must_vote_to_abort():
    table, users = await database_sync_to_async(humans_table)(3, seed=3, ranked_queue=True)
    watcher = Viewer(users[0], table.pk)
    await watcher.connect()

    assert await database_sync_to_async(aborts.abort_table)(table.pk, users[1]) is False
    assert await database_sync_to_async(aborts.abort_table)(table.pk, users[1]) is False
    assert await database_sync_to_async(aborts.abort_table)(table.pk, users[0]) is False
    await sync_all([watcher], table.pk)
    assert watcher.state["votes"]["abort"] == [0, 1]
    assert kinds(watcher).count("vote") == 2  # the repeated vote added nothing
    assert watcher.state == await fresh_snapshot(table.pk, users[0])

    assert await database_sync_to_async(aborts.abort_table)(table.pk, users[2]) is True
    await sync_all([watcher], table.pk)
    assert watcher.state["table"]["status"] == "aborted"
    assert watcher.state["votes"] == {"abort": [], "rematch": []}
    assert watcher.state == await fresh_snapshot(table.pk, users[0])


def test_no_abort_after_the_first_card_nor_at_tournament_tables():
    table, users = humans_table(3, seed=3)
    deal = selectors.rebuild_deal(selectors.current_deal_row(table), table)
    played = moves.submit_move(
        table.pk,
        deal.legal_moves()[0].code,
        Table.objects.get(pk=table.pk).version,
        user=users[deal.turn],
    )
    assert played.ok
    version = Table.objects.get(pk=table.pk).version
    with pytest.raises(ServiceError) as late:
        aborts.abort_table(table.pk, users[0])
    assert late.value.code == "too_late" and "resign" in late.value.message
    assert Table.objects.get(pk=table.pk).version == version

    event_table, players = humans_table(3, seed=4, tournament_round_id=99)
    with pytest.raises(ServiceError) as tournament:
        aborts.abort_table(event_table.pk, players[0])
    assert tournament.value.code == "forbidden"
    assert Table.objects.get(pk=event_table.pk).status == Table.Status.PLAYING
