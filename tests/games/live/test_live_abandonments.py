"""Abandoned rated Parties are recorded once per player and Partie, on every way out."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from games import abandonments, clocks, lobby, resignations, selectors
from games.events import ServiceError
from games.models import Abandonment, Seat, Table
from tests.games.factories import TableFactory, UserFactory
from tests.games.live.helpers import humans_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


def kinds_of(table: Table) -> dict[int, str]:
    return dict(Abandonment.objects.filter(partie__table=table).values_list("user_id", "kind"))


def test_leaving_a_rated_partie_is_recorded_once():
    table, users = humans_table(4, seed=6, rated=True)
    leaver = users[0]
    lobby.leave_table(table.pk, leaver)
    with pytest.raises(ServiceError):  # no longer seated: the retry is refused
        lobby.leave_table(table.pk, leaver)
    assert kinds_of(table) == {leaver.pk: Abandonment.Kind.LEFT}
    assert abandonments.record_abandonment(table, leaver.pk, Abandonment.Kind.TIMEOUT) is False
    assert Abandonment.objects.filter(user=leaver).count() == 1


def test_casual_tables_record_nothing():
    table, users = humans_table(4, seed=6)
    lobby.leave_table(table.pk, users[0])
    assert not Abandonment.objects.exists()


def test_leaving_an_open_table_is_no_abandonment():
    first = UserFactory()
    table = TableFactory(owner=first, size=3, rated=True)
    lobby.join_table(table.pk, first, seat=0)
    lobby.leave_table(table.pk, first)
    assert not Abandonment.objects.exists()


def test_resigning_and_timing_out_without_coming_back_are_recorded_at_the_end():
    """One human is away when the Partie ends (their clock ran out, a bot played on), the
    other resigns: both abandoned it, each recorded once, with its own kind."""
    first, second = UserFactory(), UserFactory()
    table = TableFactory(owner=first, size=3, fill_with_bots=True, rated=True)
    lobby.join_table(table.pk, first, seat=0)
    lobby.join_table(table.pk, second, seat=1)
    Seat.objects.filter(table=table, number=1).update(away=True)
    lobby.start_table(table.pk, first, seed=5)

    resignations.resign_partie(table.pk, first)

    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert kinds_of(table) == {
        first.pk: Abandonment.Kind.RESIGNED,
        second.pk: Abandonment.Kind.TIMEOUT,
    }
    assert [a.partie.table_id for a in selectors.abandonments_of(second)] == [table.pk]


def test_a_timeout_the_player_comes_back_from_is_no_abandonment():
    table, users = humans_table(4, seed=6, turn_seconds=30, rated=True)
    table.refresh_from_db()
    on_turn = Seat.objects.get(table=table, number=table.turn_seat)
    Table.objects.filter(pk=table.pk).update(turn_deadline=timezone.now() - dt.timedelta(seconds=1))
    assert clocks.expire_turns() == 1
    assert Seat.objects.get(pk=on_turn.pk).away
    assert clocks.return_to_seat(table.pk, on_turn.user)
    assert not Abandonment.objects.exists()
