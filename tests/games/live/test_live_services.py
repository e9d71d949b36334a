"""Service functions on their own: lobby rules, seat hand-over, records, the result hand-off."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games import events, handoff, lobby, moves
from games.engine import Partie as EnginePartie
from games.models import Partie, PartieDeal, Seat, SeatResult, Table, TableEvent
from games.signals import partie_finished
from tests.games.factories import TableFactory, UserFactory
from tests.games.live.helpers import humans_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


@pytest.fixture
def signals_received():
    received = []

    def receiver(sender, outcome, **kwargs):
        received.append(outcome.partie_id)

    partie_finished.connect(receiver)
    yield received
    partie_finished.disconnect(receiver)


def test_create_table_seats_the_owner_and_checks_its_settings():
    owner = UserFactory()
    table = lobby.create_table(owner=owner, size=5, turn_seconds=60, layout="free")
    assert table.status == "open" and table.rules.layout == "free"
    seats = list(Seat.objects.filter(table=table).order_by("number"))
    assert [s.user_id for s in seats] == [owner.pk, None, None, None, None]
    for bad in ({"size": 7}, {"bot_level": "genius"}, {"layout": "any"}, {"turn_seconds": -1}):
        with pytest.raises(events.ServiceError):
            lobby.create_table(owner=owner, **bad)


def test_join_checks_seats_invites_and_duplicates():
    owner, guest, other = UserFactory(), UserFactory(), UserFactory()
    table = lobby.create_table(owner=owner, size=3, public=False)
    with pytest.raises(events.ServiceError) as no_invite:
        lobby.join_table(table.pk, guest)
    assert no_invite.value.code == "forbidden"
    assert lobby.join_table(table.pk, guest, seat=2, invite=table.invite_code) == 2
    with pytest.raises(events.ServiceError) as again:
        lobby.join_table(table.pk, guest, invite=table.invite_code)
    assert again.value.code == "already_seated"
    with pytest.raises(events.ServiceError) as taken:
        lobby.join_table(table.pk, other, seat=2, invite=table.invite_code)
    assert taken.value.code == "seat_taken"
    kinds = list(TableEvent.objects.filter(table=table).values_list("version", "kind"))
    assert kinds == [(1, "seat_changed")]


def test_start_needs_the_owner_and_a_full_table_unless_bots_fill_it():
    owner, guest = UserFactory(), UserFactory()
    table = lobby.create_table(owner=owner, size=3, fill_with_bots=False, turn_seconds=0)
    lobby.join_table(table.pk, guest)
    with pytest.raises(events.ServiceError) as forbidden:
        lobby.start_table(table.pk, guest)
    assert forbidden.value.code == "forbidden"
    with pytest.raises(events.ServiceError) as not_full:
        lobby.start_table(table.pk, owner)
    assert not_full.value.code == "not_full"
    # The organiser chooses bots at the start: the bots play until the humans are on turn.
    lobby.start_table(table.pk, owner, fill_with_bots=True, seed=99)
    table.refresh_from_db()
    assert table.status == "playing"
    bot = Seat.objects.get(table=table, number=2)
    assert bot.is_bot and bot.bot_level == "heuristic"
    assert table.turn_seat in (0, 1)
    with pytest.raises(events.ServiceError):
        lobby.start_table(table.pk, owner)


def test_a_player_leaving_a_started_table_is_replaced_by_a_bot_that_plays_on():
    table, users = humans_table(3, seed=12)
    table.refresh_from_db()
    leaver = table.turn_seat
    lobby.leave_table(table.pk, users[leaver])
    seat = Seat.objects.get(table=table, number=leaver)
    assert seat.user_id is None and seat.bot_level == "heuristic"
    played = TableEvent.objects.filter(table=table, kind="move")
    assert [(m.data["seat"], m.data["by_bot"]) for m in played] == [(leaver, True)]


def test_leaving_an_open_table_frees_the_seat():
    owner = UserFactory()
    table = lobby.create_table(owner=owner, size=3)
    lobby.leave_table(table.pk, owner)
    assert Seat.objects.get(table=table, number=0).is_empty
    with pytest.raises(events.ServiceError):
        lobby.leave_table(table.pk, owner)


def test_a_bot_partie_is_stored_as_a_replayable_record(signals_received):
    owner = UserFactory()
    table = TableFactory(owner=owner, size=3, fill_with_bots=True, bot_level="random")
    lobby.start_table(table.pk, owner, seed=31)
    table.refresh_from_db()
    partie = Partie.objects.get(table=table)
    assert table.status == "finished" and partie.finished_at is not None
    record = partie.to_record()
    assert len(record.deals) == 6
    replayed = EnginePartie.from_record(record)
    results = list(SeatResult.objects.filter(partie=partie).order_by("seat"))
    assert [r.total for r in results] == list(replayed.totals)
    assert [r.place for r in results] == replayed.places()
    assert [d.penalties for d in PartieDeal.objects.filter(partie=partie)] == [
        list(p) for p in replayed.deal_penalties()
    ]
    # Same seed, same cards and the same bot decisions: duplicate tables replay exactly.
    twin = TableFactory(owner=owner, size=3, fill_with_bots=True, bot_level="random")
    lobby.start_table(twin.pk, owner, seed=31)
    assert Partie.objects.get(table=twin).to_record() == record
    assert signals_received == [partie.pk, Partie.objects.get(table=twin).pk]


def test_the_hand_off_sends_the_signal_once_however_often_it_runs(signals_received):
    owner = UserFactory()
    table = TableFactory(owner=owner, size=3, fill_with_bots=True, bot_level="random")
    lobby.start_table(table.pk, owner, seed=5)
    partie = Partie.objects.get(table=table)
    assert signals_received == [partie.pk]

    from games.tasks import hand_off_partie_result

    assert hand_off_partie_result.delay(partie.pk).get() is False
    assert hand_off_partie_result(partie.pk) is False

    Partie.objects.filter(pk=partie.pk).update(handed_off=False)
    outcomes: list[bool] = []

    def hand_off():
        try:
            outcomes.append(handoff.hand_off_partie_result(partie.pk))
        finally:
            connection.close()

    threads = [threading.Thread(target=hand_off) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == [False, True]
    assert signals_received == [partie.pk, partie.pk]


def test_an_unfinished_partie_is_not_handed_off(signals_received):
    table, users = humans_table(3, seed=1)
    partie = Partie.objects.get(table=table)
    assert handoff.hand_off_partie_result(partie.pk) is False
    assert signals_received == []
    assert Table.objects.get(pk=table.pk).status == "playing"


def test_a_move_costs_a_handful_of_queries_whatever_the_history(django_assert_max_num_queries):
    from games import selectors

    table, users = humans_table(4, seed=3)
    for _ in range(6):
        table.refresh_from_db()
        turn = table.turn_seat
        view = selectors.build_snapshot(table.pk, users[turn])
        # BEGIN, lock, table, seats, deal, deal update, table update, events insert, COMMIT.
        with django_assert_max_num_queries(9):
            result = moves.submit_move(
                table.pk, view["deal"]["legal_moves"][0], view["version"], user=users[turn]
            )
        assert result.status == "applied"


def test_the_sweep_command_plays_expired_turns():
    import datetime as dt
    from io import StringIO

    from django.core.management import call_command
    from django.utils import timezone

    table, users = humans_table(3, seed=4, turn_seconds=30)
    out = StringIO()
    call_command("sweep_clocks", stdout=out)
    assert out.getvalue().strip() == "no expired turns"
    Table.objects.filter(pk=table.pk).update(turn_deadline=timezone.now() - dt.timedelta(seconds=1))
    call_command("sweep_clocks", stdout=out)
    assert "played 1 stand-in move(s)" in out.getvalue()


def test_the_clock_sweeper_is_registered_with_the_beat_database_scheduler():
    import importlib

    from django.apps import apps
    from django_celery_beat.models import PeriodicTask

    from games.queue import SWEEP_TURN_CLOCKS

    # Transactional tests empty every table afterwards, so run the data migration's function
    # (twice: migrating again must not duplicate the task).
    migration = importlib.import_module("games.migrations.0002_sweep_turn_clocks_periodic_task")
    migration.create_periodic_task(apps, None)
    migration.create_periodic_task(apps, None)
    task = PeriodicTask.objects.get(task=SWEEP_TURN_CLOCKS)
    assert task.enabled and task.interval.every == 1 and task.interval.period == "seconds"


def test_an_organiser_leaving_an_open_table_hands_it_to_the_next_player_then_it_closes():
    owner, second, third = UserFactory(), UserFactory(), UserFactory()
    table = lobby.create_table(owner=owner, size=4)
    lobby.join_table(table.pk, third, seat=3)
    lobby.join_table(table.pk, second, seat=2)

    lobby.leave_table(table.pk, owner)
    table.refresh_from_db()
    assert table.owner_id == second.pk, "the next seated player clockwise (seat 2) runs it"
    handed = TableEvent.objects.filter(table=table, kind="owner_changed").get()
    assert handed.data["owner_user_id"] == second.pk
    lobby.start_table(table.pk, second, fill_with_bots=True)  # the new organiser can start it
    assert Table.objects.get(pk=table.pk).status == "playing"

    lonely = lobby.create_table(owner=owner, size=3)
    lobby.leave_table(lonely.pk, owner)
    lonely.refresh_from_db()
    assert lonely.status == "closed"
    assert TableEvent.objects.filter(table=lonely, kind="table_closed").exists()
    from games.selectors import open_tables

    assert lonely.pk not in [t.pk for t in open_tables()]
    with pytest.raises(events.ServiceError):
        lobby.join_table(lonely.pk, second)
