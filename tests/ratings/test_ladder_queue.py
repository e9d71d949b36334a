"""The ranked queue through its actions and the beat task, with an injected clock."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import OperationalError
from django.utils import translation

from games import bot_turns, clocks, handoff, lobby
from games.models import Seat, Table
from ratings import elo, ranked_queue, updates
from ratings.matchmaking import DEFAULT_MATCHMAKING
from ratings.models import LadderQueueEntry, RatedPartie, RatingChange
from ratings.tasks import form_ladder_tables_task
from tests.games.factories import UserFactory
from tests.ratings.factories import PlayerRatingFactory

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 3, 1, 18, 0, tzinfo=dt.UTC)


def queued(mu: float, joined: dt.datetime = T0, ip: str | None = None):
    user = PlayerRatingFactory(mu=mu).user
    ranked_queue.join_queue(user, ip=ip, now=joined)
    return user


def seated_users(table: Table) -> set[int]:
    return set(Seat.objects.filter(table=table).values_list("user_id", flat=True))


def test_join_twice_keeps_the_first_entry_and_leave_removes_it():
    user = UserFactory()
    first = ranked_queue.join_queue(user, now=T0)
    again = ranked_queue.join_queue(user, now=T0 + dt.timedelta(minutes=1))
    assert again.pk == first.pk and again.joined_at == T0
    assert ranked_queue.leave_queue(user)
    assert not ranked_queue.leave_queue(user)
    assert LadderQueueEntry.objects.get(pk=first.pk).status == LadderQueueEntry.Status.LEFT
    assert ranked_queue.form_ladder_tables(now=T0 + dt.timedelta(hours=1)) == []


def test_the_task_forms_tables_of_four_close_ratings(settings):
    settings.RATINGS_LADDER_TURN_SECONDS = 45
    low = [queued(mu) for mu in (1200, 1230, 1250, 1270)]
    high = [queued(mu) for mu in (1800, 1820, 1850, 1880)]
    assert (
        form_ladder_tables_task.apply(
            kwargs={"now": (T0 + dt.timedelta(seconds=5)).isoformat()}
        ).get()
        == 2
    )
    tables = list(Table.objects.order_by("pk"))
    assert {frozenset(seated_users(t)) for t in tables} == {
        frozenset(u.pk for u in low),
        frozenset(u.pk for u in high),
    }
    for table in tables:
        assert table.rated and table.status == Table.Status.PLAYING
        assert table.turn_seconds == 45 and table.size == 4
        assert table.ranked_queue is True
    assert not LadderQueueEntry.objects.filter(status=LadderQueueEntry.Status.WAITING).exists()
    # Run again: every entry was consumed exactly once, nothing new is formed.
    assert (
        form_ladder_tables_task.apply(
            kwargs={"now": (T0 + dt.timedelta(seconds=10)).isoformat()}
        ).get()
        == 0
    )
    assert Table.objects.count() == 2


def test_far_apart_players_wait_until_the_window_widens_and_nobody_waits_forever():
    users = [queued(mu) for mu in (1000, 1500, 1800, 2300)]
    params = DEFAULT_MATCHMAKING
    waited = 0.0
    formed: list = []
    while not formed:
        assert waited <= params.max_wait, "the widening bound must seat everyone"
        formed = ranked_queue.form_ladder_tables(now=T0 + dt.timedelta(seconds=waited))
        if not formed:
            waited += 5
    # 1300 points apart: more than the widest window (600), so only the overdue rule seats them.
    assert waited == params.max_wait
    assert seated_users(formed[0]) == {u.pk for u in users}


def test_three_after_a_long_wait_within_the_window():
    users = [queued(mu) for mu in (1500, 1520, 1540)]
    assert ranked_queue.form_ladder_tables(now=T0 + dt.timedelta(seconds=60)) == []
    formed = ranked_queue.form_ladder_tables(
        now=T0 + dt.timedelta(seconds=DEFAULT_MATCHMAKING.odd_size_after)
    )
    assert len(formed) == 1 and formed[0].size == 3
    assert seated_users(formed[0]) == {u.pk for u in users}


def test_same_ip_players_are_never_seated_together_when_the_setting_is_on(settings):
    settings.RATINGS_LADDER_DISTINCT_IPS = True
    twins = [queued(1500, ip="203.0.113.9"), queued(1505, ip="203.0.113.9")]
    others = [queued(1510, ip="198.51.100.1"), queued(1515, ip="198.51.100.2")]
    extra = queued(1520, ip="198.51.100.3")
    formed = ranked_queue.form_ladder_tables(now=T0 + dt.timedelta(seconds=5))
    assert len(formed) == 1
    seated = seated_users(formed[0])
    assert len(seated & {u.pk for u in twins}) == 1
    assert {u.pk for u in others} | {extra.pk} <= seated


def test_a_group_is_consumed_once_even_if_two_rounds_propose_it():
    users = [queued(mu) for mu in (1500, 1510, 1520, 1530)]
    ids = list(
        LadderQueueEntry.objects.filter(user__in=users).order_by("pk").values_list("pk", flat=True)
    )
    first = ranked_queue.start_ladder_table(ids, "ladder", T0)
    second = ranked_queue.start_ladder_table(ids, "ladder", T0)
    assert first is not None and second is None
    assert Table.objects.count() == 1
    assert set(LadderQueueEntry.objects.filter(pk__in=ids).values_list("table_id", flat=True)) == {
        first.pk
    }


def test_a_player_at_a_running_ranked_table_cannot_queue_again():
    users = [queued(mu) for mu in (1500, 1510, 1520, 1530)]
    ranked_queue.form_ladder_tables(now=T0 + dt.timedelta(seconds=5))
    with pytest.raises(ranked_queue.QueueError) as english:
        ranked_queue.join_queue(users[0], now=T0 + dt.timedelta(seconds=6))
    with translation.override("de"), pytest.raises(ranked_queue.QueueError) as german:
        ranked_queue.join_queue(users[0], now=T0 + dt.timedelta(seconds=6))
    assert str(english.value) == "Finish your ranked table before queueing again."
    assert str(german.value).startswith("Spiel erst Deinen Ranglistentisch zu Ende")


def test_leaving_a_ranked_table_counts_as_last_place(settings):
    """A real ranked table: one player leaves (a bot takes the seat), the clocks run out for
    the others and stand-in bots finish the Partie; the leaver is rated last."""
    settings.GAMES_BOT_THINK_SECONDS = 0
    settings.GAMES_DEFAULT_BOT_LEVEL = "random"
    settings.RATINGS_LADDER_TURN_SECONDS = 30
    users = [queued(mu) for mu in (1500, 1510, 1520, 1530)]
    (table,) = ranked_queue.form_ladder_tables(now=T0 + dt.timedelta(seconds=5))
    leaver = users[1]
    lobby.leave_table(table.pk, leaver)
    assert Seat.objects.get(table=table, number__in=[0, 1, 2, 3], user=None).bot_level
    far_future = dt.datetime(2100, 1, 1, tzinfo=dt.UTC)
    for _ in range(500):
        table.refresh_from_db()
        if table.status == Table.Status.FINISHED:
            break
        if not clocks.expire_turns(now=far_future):
            bot_turns.play_bot_turns(table.pk)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert handoff.hand_off_partie_result(table.partie.pk)
    job = RatedPartie.objects.get(partie=table.partie)
    assert [p["user_id"] for p in job.participants if p["left"]] == [leaver.pk]
    updates.apply_pending_ratings()
    changes = {c.user_id: c for c in RatingChange.objects.filter(partie=table.partie)}
    assert set(changes) == {u.pk for u in users}
    assert changes[leaver.pk].left and changes[leaver.pk].place == 4
    assert changes[leaver.pk].mu_after < changes[leaver.pk].mu_before
    # The leaver counts with a total one point worse than the worst at the table. (Another
    # player may still lose more points: the bots play at random, and a higher-rated player
    # who finishes third can drop further than a lower-rated leaver.)
    people = job.participants
    worst = max(p["total"] for p in people)
    totals = [worst + 1 if p["left"] else p["total"] for p in people]
    before = [
        elo.Rating(
            mu=c.mu_before,
            sigma=c.sigma_before,
            games=c.games_before,
            last_played=c.last_played_before.timestamp() if c.last_played_before else None,
        )
        for c in (changes[p["user_id"]] for p in people)
    ]
    after = elo.update(before, totals, now=job.finished_at.timestamp())
    assert [changes[p["user_id"]].mu_after for p in people] == [r.mu for r in after]


class _Conflict(Exception):
    sqlstate = "40P01"  # deadlock_detected, as psycopg reports it


def conflict() -> OperationalError:
    error = OperationalError("deadlock detected")
    error.__cause__ = _Conflict()
    return error


def queued_group() -> list[int]:
    users = [queued(mu) for mu in (1500, 1510, 1520)]
    return list(
        LadderQueueEntry.objects.filter(user__in=users).order_by("pk").values_list("pk", flat=True)
    )


@pytest.mark.django_db(transaction=True)
def test_a_group_hit_by_a_deadlock_is_tried_again_and_then_seated(monkeypatch):
    ids = queued_group()
    seat_group = ranked_queue._seat_group
    calls = []

    def flaky(*args):
        calls.append(args)
        if len(calls) < 3:
            raise conflict()
        return seat_group(*args)

    monkeypatch.setattr(ranked_queue, "_seat_group", flaky)
    table = ranked_queue.start_ladder_table(ids, "ladder", T0)
    assert table is not None and len(calls) == 3
    assert set(LadderQueueEntry.objects.values_list("table_id", flat=True)) == {table.pk}


def test_a_group_still_in_conflict_waits_for_the_next_round(monkeypatch):
    ids = queued_group()

    def always(*args):
        raise conflict()

    monkeypatch.setattr(ranked_queue, "_seat_group", always)
    assert ranked_queue.start_ladder_table(ids, "ladder", T0) is None
    assert set(LadderQueueEntry.objects.values_list("status", flat=True)) == {
        LadderQueueEntry.Status.WAITING
    }


def test_other_database_errors_are_raised_whatever_their_message_says(monkeypatch):
    ids = queued_group()

    def locked(*args):
        raise OperationalError("database is locked")

    monkeypatch.setattr(ranked_queue, "_seat_group", locked)
    with pytest.raises(OperationalError):
        ranked_queue.start_ladder_table(ids, "ladder", T0)
