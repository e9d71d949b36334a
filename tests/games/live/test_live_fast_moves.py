"""The cached move path: one compare-and-swap write from a process-local position.

A cached position is only a guess about the database; these tests show that a move played
from it reads nothing, that a stale guess (another process wrote, or this process missed the
broadcast) never writes and falls back to the locked path with its exact answers, and that
the cache follows broadcast move events.
"""

from __future__ import annotations

import copy

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import clocks, moves, selectors
from games.engine import Partie as EnginePartie
from games.events import MoveResult
from games.live.positions import Position, positions
from games.models import Partie, PartieDeal, SeatResult, Table, TableEvent
from tests.games.live.helpers import humans_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


@pytest.fixture(autouse=True)
def empty_position_cache():
    """Each test starts cold: table ids repeat across tests on a fresh database."""
    positions.clear()
    yield
    positions.clear()


def play_on_turn(table: Table, users: list, index: int = 0) -> tuple[MoveResult, str]:
    """The player on turn plays their ``index``-th legal move at the current version."""
    table.refresh_from_db()
    user = users[table.turn_seat]
    view = selectors.build_snapshot(table.pk, user)
    card = view["deal"]["legal_moves"][index]
    return moves.submit_move(table.pk, card, view["version"], user=user), card


def copy_of_cached(table_id: int) -> Position:
    """An independent copy of the cached position (as another process would hold it)."""
    entry = positions.take(table_id)
    assert entry is not None, "the position should be cached"
    positions.put(table_id, entry)
    return Position(
        table=copy.copy(entry.table),
        seats=[copy.copy(s) for s in entry.seats],
        row=copy.copy(entry.row),
        deal=entry.deal.clone(),
    )


def reads(queries: list[dict]) -> list[str]:
    return [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith("SELECT")]


def test_a_started_table_is_cached_and_its_first_move_reads_nothing():
    table, users = humans_table(4, seed=5, turn_seconds=30)
    table.refresh_from_db()
    assert positions.peek_version(table.pk) == table.version

    user = users[table.turn_seat]
    view = selectors.build_snapshot(table.pk, user)
    with CaptureQueriesContext(connection) as captured:
        result = moves.submit_move(
            table.pk, view["deal"]["legal_moves"][0], view["version"], user=user
        )
    assert result.status == "applied" and result.version == view["version"] + 1
    assert reads(captured.captured_queries) == []
    assert len(captured.captured_queries) == 1  # table, deal row and event in one statement
    # What the cached path wrote is what the locked path would have: a fresh rebuild agrees.
    table.refresh_from_db()
    assert positions.peek_version(table.pk) == table.version == result.version
    cached = copy_of_cached(table.pk)
    row = selectors.current_deal_row(table)
    assert row.moves == cached.row.moves == [view["deal"]["legal_moves"][0]]
    rebuilt = selectors.rebuild_deal(row, table)
    assert rebuilt.view_for(None).to_dict() == cached.deal.view_for(None).to_dict()
    assert table.turn_seat == rebuilt.turn
    event = TableEvent.objects.get(table=table, version=result.version)
    assert event.kind == "move"
    assert event.data["clock"] == {
        "seat": rebuilt.turn,
        "deadline": selectors.format_deadline(table.turn_deadline),
        "seconds": 30,
    }


def test_a_whole_partie_through_the_cache_matches_the_stored_truth():
    table, users = humans_table(4, seed=8, turn_seconds=0)
    played = 0
    while True:
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            break
        result, _card = play_on_turn(table, users, index=-1)
        assert result.status == "applied", result
        played += 1
    events = TableEvent.objects.filter(table=table).order_by("version")
    assert [e.version for e in events] == list(range(1, table.version + 1))
    assert sum(1 for e in events if e.kind == "move") == played
    # The stored record replays to the stored results: nothing was lost or doubled.
    partie = Partie.objects.get(table=table)
    replayed = EnginePartie.from_record(partie.to_record())
    stored = [r.total for r in SeatResult.objects.filter(partie=partie).order_by("seat")]
    assert list(replayed.totals) == stored
    assert sum(len(d.moves) for d in PartieDeal.objects.filter(partie=partie)) == played
    assert positions.peek_version(table.pk) is None  # a finished Partie is not kept


def test_a_stale_cache_never_writes_and_a_resend_is_still_acknowledged_once():
    table, users = humans_table(4, seed=5, turn_seconds=30)
    first, _ = play_on_turn(table, users)
    stale = copy_of_cached(table.pk)  # what this process knows at version v
    table.refresh_from_db()
    mover = users[table.turn_seat]
    view = selectors.build_snapshot(table.pk, mover)
    card = view["deal"]["legal_moves"][0]
    second = moves.submit_move(table.pk, card, view["version"], user=mover)
    assert second.status == "applied"

    # As if another process had played ``second``: this process still holds version v.
    positions.clear()
    positions.put(table.pk, stale)
    resent = moves.submit_move(table.pk, card, view["version"], user=mover)
    assert resent.status == "duplicate" and resent.version == second.version
    assert TableEvent.objects.filter(table=table, kind="move").count() == 2

    # The next player's move still applies (the locked path reloads and caches again).
    third, _ = play_on_turn(table, users)
    assert third.status == "applied" and third.version == second.version + 1
    assert positions.peek_version(table.pk) == third.version


def test_a_conflicting_write_fails_the_compare_and_swap_and_the_locked_path_decides():
    table, users = humans_table(4, seed=9, turn_seconds=30)
    table.refresh_from_db()
    seat = table.turn_seat
    view = selectors.build_snapshot(table.pk, users[seat])
    stale = copy_of_cached(table.pk)
    # Another process's write that this process never heard of: the clock ran out and a bot
    # played for the seat (seat_changed + move).
    Table.objects.filter(pk=table.pk).update(turn_deadline=table.turn_deadline.replace(year=2000))
    assert clocks.expire_turns() == 1
    positions.clear()
    positions.put(table.pk, stale)

    late = moves.submit_move(
        table.pk, view["deal"]["legal_moves"][0], view["version"], user=users[seat]
    )
    assert late.status == "error" and late.code in ("stale", "not_your_turn")
    stored = TableEvent.objects.filter(table=table, kind="move")
    assert [m.data["by_bot"] for m in stored] == [True]


def test_the_cache_follows_broadcast_moves_and_drops_what_it_cannot_follow():
    table, users = humans_table(4, seed=4, turn_seconds=30)
    before = copy_of_cached(table.pk)
    result, _ = play_on_turn(table, users)
    message = TableEvent.objects.get(table=table, version=result.version).as_message()

    # This process had not played that move: it learns it from the broadcast alone.
    positions.clear()
    positions.put(table.pk, before)
    positions.follow(table.pk, [message])
    positions.follow(table.pk, [message])  # every consumer of the table passes it on: no-op
    table.refresh_from_db()
    followed = copy_of_cached(table.pk)
    assert followed.version == table.version == table.state_version
    assert followed.table.turn_seat == table.turn_seat
    assert followed.table.turn_deadline == table.turn_deadline
    row = selectors.current_deal_row(table)
    assert followed.row.moves == row.moves
    rebuilt = selectors.rebuild_deal(row, table)
    assert followed.deal.view_for(None).to_dict() == rebuilt.view_for(None).to_dict()
    # ...and the next move is played from it without a read.
    user = users[table.turn_seat]
    view = selectors.build_snapshot(table.pk, user)
    with CaptureQueriesContext(connection) as captured:
        nxt = moves.submit_move(
            table.pk, view["deal"]["legal_moves"][0], view["version"], user=user
        )
    assert nxt.status == "applied" and reads(captured.captured_queries) == []

    # A gap or an event the cache does not model drops the entry.
    gap = {"version": nxt.version + 2, "event": message["event"]}
    positions.follow(table.pk, [gap])
    assert positions.peek_version(table.pk) is None
    third, _ = play_on_turn(table, users)  # cold again: the locked path, then cached
    finished = {
        "version": third.version + 1,
        "event": {"kind": "partie_finished", "totals": [], "places": [], "score_sheet": []},
    }
    positions.follow(table.pk, [finished])
    assert positions.peek_version(table.pk) is None


def assert_cache_matches_database(table: Table) -> None:
    table.refresh_from_db()
    cached = copy_of_cached(table.pk)
    row = selectors.current_deal_row(table)
    assert cached.version == table.version and cached.table.state_version == table.state_version
    assert (cached.row.partie_id, cached.row.number) == (row.partie_id, row.number)
    assert cached.row.moves == row.moves and cached.row.hands == row.hands
    assert cached.table.turn_seat == table.turn_seat
    assert cached.table.turn_deadline == table.turn_deadline
    rebuilt = selectors.rebuild_deal(row, table)
    assert cached.deal.view_for(None).to_dict() == rebuilt.view_for(None).to_dict()
    stored = [(s.user_id, s.bot_level, s.away) for s in selectors.play_seats(table)]
    assert [(s.user_id, s.bot_level, s.away) for s in cached.seats] == stored


def test_the_cache_follows_a_deal_ending_into_the_next_deal_and_seat_changes():
    table, users = humans_table(4, seed=12, turn_seconds=30)
    # Play the first deal up to its last move.
    while True:
        table.refresh_from_db()
        row = selectors.current_deal_row(table)
        deal = selectors.rebuild_deal(row, table)
        probe = deal.clone()
        probe.play(deal.legal_moves()[0])
        if probe.over:
            break
        result, _ = play_on_turn(table, users)
        assert result.status == "applied"
    before = copy_of_cached(table.pk)
    last, _ = play_on_turn(table, users)  # ends the deal: the locked path
    table.refresh_from_db()
    assert table.version > last.version  # deal_finished, deal_started, clock followed it
    messages = [
        e.as_message()
        for e in TableEvent.objects.filter(table=table, version__gt=before.version).order_by(
            "version"
        )
    ]
    assert [m["event"]["kind"] for m in messages] == [
        "move",
        "deal_finished",
        "deal_started",
        "clock",
    ]
    # This process had not played that move: the broadcast alone takes it to the next deal.
    positions.clear()
    positions.put(table.pk, before)
    positions.follow(table.pk, messages)
    assert_cache_matches_database(table)
    user = users[table.turn_seat]
    view = selectors.build_snapshot(table.pk, user)
    with CaptureQueriesContext(connection) as captured:
        first = moves.submit_move(
            table.pk, view["deal"]["legal_moves"][0], view["version"], user=user
        )
    assert first.status == "applied" and reads(captured.captured_queries) == []
    assert_cache_matches_database(table)

    # A clock that ran out: seat_changed (away) and the stand-in move, followed as well.
    before = copy_of_cached(table.pk)
    Table.objects.filter(pk=table.pk).update(turn_deadline=table.turn_deadline.replace(year=2000))
    assert clocks.expire_turns() == 1
    messages = [
        e.as_message()
        for e in TableEvent.objects.filter(table=table, version__gt=before.version).order_by(
            "version"
        )
    ]
    assert [m["event"]["kind"] for m in messages] == ["seat_changed", "move"]
    positions.clear()
    positions.put(table.pk, before)
    positions.follow(table.pk, messages)
    assert_cache_matches_database(table)


def test_a_cached_position_of_another_table_with_the_same_id_is_never_written():
    table, users = humans_table(4, seed=5, turn_seconds=30)
    table.refresh_from_db()
    impostor = copy_of_cached(table.pk)
    impostor.table.invite_code = "someone-else"  # a table of another database, same id
    positions.clear()
    positions.put(table.pk, impostor)
    result, _ = play_on_turn(table, users)
    assert result.status == "applied"
    assert TableEvent.objects.filter(table=table, kind="move").count() == 1
    # The locked path wrote it (and cached the real table); the impostor's write failed.
    assert copy_of_cached(table.pk).table.invite_code == table.invite_code


def test_moves_run_on_the_move_threads_in_parallel() -> None:
    """Moves leave the one shared database thread: each runs on a move thread of its own."""
    from games import consumers

    assert consumers._submit_move._thread_sensitive is False
    assert consumers._submit_move._executor is consumers.move_threads.executor
