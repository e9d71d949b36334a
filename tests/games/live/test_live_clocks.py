"""Clocks: an expired turn gets exactly one stand-in bot move, never after the player's own."""

from __future__ import annotations

import datetime as dt
import threading
import zoneinfo

import pytest
from django.db import connection
from django.utils import timezone

from games import clocks, lobby, moves, selectors
from games.models import Seat, Table, TableEvent
from tests.games.live.helpers import humans_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


def clocked_table():
    table, users = humans_table(4, seed=6, turn_seconds=30)
    table.refresh_from_db()
    assert table.turn_deadline is not None
    return table, users


def run_out_the_clock(table: Table) -> None:
    """Move the stored deadline one second into the past, as if 30 seconds had gone by."""
    Table.objects.filter(pk=table.pk).update(turn_deadline=timezone.now() - dt.timedelta(seconds=1))


def stand_in_moves(table: Table) -> list[dict]:
    return [
        e.data
        for e in TableEvent.objects.filter(table=table, kind="move").order_by("version")
        if e.data["by_bot"]
    ]


def test_an_expired_turn_is_played_by_a_bot_once_and_the_seat_marked_away():
    table, users = clocked_table()
    seat = table.turn_seat
    assert clocks.expire_turns() == 0
    run_out_the_clock(table)
    assert clocks.expire_turns() == 1
    assert clocks.expire_turns() == 0

    played = stand_in_moves(table)
    assert [m["seat"] for m in played] == [seat]
    assert Seat.objects.get(table=table, number=seat).away
    table.refresh_from_db()
    assert table.turn_seat == (seat + 1) % 4
    assert table.turn_deadline > timezone.now()
    events = list(TableEvent.objects.filter(table=table).order_by("version"))
    assert [e.kind for e in events[-2:]] == ["seat_changed", "move"]
    # The next player's clock rides in the move event: no separate clock frame per move.
    assert events[-1].data["clock"] == {
        "seat": (seat + 1) % 4,
        "deadline": selectors.format_deadline(table.turn_deadline),
        "seconds": 30,
    }


def test_concurrent_sweepers_still_play_one_move():
    table, users = clocked_table()
    run_out_the_clock(table)
    played: list[int] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(2)

    def sweep():
        try:
            barrier.wait()
            played.append(clocks.expire_turns())
        except BaseException as error:  # noqa: BLE001 - reported by the assertion below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=sweep) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert sorted(played) == [0, 1]
    assert len(stand_in_moves(table)) == 1


def test_the_players_own_move_wins_over_the_sweeper_at_the_same_version():
    table, users = clocked_table()
    seat = table.turn_seat
    view = selectors.build_snapshot(table.pk, users[seat])
    run_out_the_clock(table)

    result = moves.submit_move(
        table.pk, view["deal"]["legal_moves"][0], view["version"], user=users[seat]
    )
    assert result.status == "applied"
    assert clocks.expire_turns() == 0
    assert stand_in_moves(table) == []
    assert not Seat.objects.get(table=table, number=seat).away


def test_after_the_sweeper_the_players_late_move_is_stale_and_acting_takes_the_seat_back():
    table, users = clocked_table()
    seat = table.turn_seat
    view = selectors.build_snapshot(table.pk, users[seat])
    run_out_the_clock(table)
    assert clocks.expire_turns() == 1

    late = moves.submit_move(
        table.pk, view["deal"]["legal_moves"][0], view["version"], user=users[seat]
    )
    assert late.status == "error" and late.code in ("stale", "not_your_turn")
    assert not Seat.objects.get(table=table, number=seat).away
    assert len(stand_in_moves(table)) == 1


def test_an_away_player_is_played_for_until_they_come_back():
    table, users = clocked_table()
    away_seat = table.turn_seat
    run_out_the_clock(table)
    assert clocks.expire_turns() == 1
    # The others play on; whenever the turn reaches the away seat, the bot plays it at once.
    for _ in range(12):
        table.refresh_from_db()
        turn = table.turn_seat
        assert turn != away_seat, "an away seat never waits for its clock"
        view = selectors.build_snapshot(table.pk, users[turn])
        moves.submit_move(
            table.pk, view["deal"]["legal_moves"][0], view["version"], user=users[turn]
        )
        if len(stand_in_moves(table)) >= 2:
            break
    seats = [m["seat"] for m in stand_in_moves(table)]
    assert len(seats) >= 2 and set(seats) == {away_seat}
    assert clocks.return_to_seat(table.pk, users[away_seat])
    assert not Seat.objects.get(table=table, number=away_seat).away


def test_turn_based_tables_mail_the_player_on_turn(mailoutbox, settings):
    settings.SITE_URL = "https://rosbi.example"
    table, users = humans_table(3, seed=2, turn_seconds=86400)
    table.refresh_from_db()
    on_turn = users[table.turn_seat]
    assert [m.to for m in mailoutbox] == [[on_turn.email]]
    assert "your move" in mailoutbox[0].subject
    assert f"https://rosbi.example/tables/{table.pk}/" in mailoutbox[0].body  # a link that works


def test_the_turn_mail_speaks_the_players_language_and_time_zone(mailoutbox, settings):
    from rosbi_platform.accounts.models import Profile

    def german_in_tokyo(user):
        Profile.objects.update_or_create(
            user=user, defaults={"language": "de", "time_zone": "Asia/Tokyo"}
        )

    table, users = humans_table(3, seed=None, turn_seconds=86400)
    for user in users:
        german_in_tokyo(user)
    lobby.start_table(table.pk, users[0], seed=2)
    table.refresh_from_db()
    mail = mailoutbox[-1]
    assert mail.subject.startswith("Rosbi: Du bist am Zug")
    deadline = table.turn_deadline.astimezone(zoneinfo.ZoneInfo("Asia/Tokyo"))
    assert "(Asia/Tokyo)" in mail.body
    assert f"{deadline:%H:%M}" in mail.body, "the deadline in the player's own zone"


def test_a_bot_turn_whose_task_was_lost_is_picked_up_by_the_sweeper():
    table, users = clocked_table()
    seat = table.turn_seat
    # As if the player had left and the worker died before running the bot task.
    Seat.objects.filter(table=table, number=seat).update(user=None, bot_level="random")
    Table.objects.filter(pk=table.pk).update(
        bot_due_at=timezone.now() - dt.timedelta(seconds=1), turn_deadline=None
    )
    assert clocks.expire_turns() == 0
    assert clocks.resume_stalled_bots() == 1
    assert [m["seat"] for m in stand_in_moves(table)] == [seat]
    assert clocks.resume_stalled_bots() == 0
    table.refresh_from_db()
    assert table.bot_due_at is None and table.turn_deadline is not None
