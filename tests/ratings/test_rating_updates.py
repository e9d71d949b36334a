"""Rating updates on the platform: exactly once, in finishing order, bots and leavers."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.db import connection

from games.bots.ratings_table import BOT_RATING_SIGMAS, BOT_RATINGS
from games.handoff import hand_off_partie_result
from ratings import elo, recording, updates
from ratings.models import PlayerRating, RatedPartie, RatingChange, RatingLedger
from ratings.tasks import apply_pending_ratings_task
from rosbi_platform import celery_app
from tests.games.factories import UserFactory
from tests.ratings.factories import BOT, EPOCH, finished_partie, outcome_of

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def eager_celery():
    """Tasks queued after commit run in-process, as a worker would run them."""
    previous = (celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates)
    celery_app.conf.task_always_eager = True
    celery_app.conf.task_eager_propagates = True
    yield
    celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates = previous


def rating(user) -> PlayerRating:
    return PlayerRating.objects.get(user=user)


def expected_after(sequence, bot=None):
    """The pure module's answer for a sequence of (players, totals, finished_at)."""
    bot = bot or elo.Rating(mu=1500.0, sigma=elo.MIN_SIGMA)
    state: dict[int, elo.Rating] = {}
    for players, totals, finished_at in sequence:
        current = [bot if p == BOT else state.get(p.pk, elo.new_rating()) for p in players]
        after = elo.update(current, totals, now=finished_at.timestamp())
        for p, r in zip(players, after, strict=True):
            if p != BOT:
                state[p.pk] = r
    return state


def test_hand_off_records_a_job_and_the_task_applies_it_after_commit(
    django_capture_on_commit_callbacks,
):
    users = UserFactory.create_batch(4)
    partie = finished_partie(users, [5, 12, 20, 30], EPOCH)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        assert hand_off_partie_result(partie.pk)
    # Before the commit only the job row exists; the task ran from the on_commit callback.
    assert callbacks
    job = RatedPartie.objects.get(partie=partie)
    assert job.status == RatedPartie.Status.APPLIED
    expected = expected_after([(users, [5, 12, 20, 30], EPOCH)])
    for user in users:
        row = rating(user)
        assert row.mu == expected[user.pk].mu
        assert row.sigma == expected[user.pk].sigma
        assert row.games == 1
        assert row.last_played == EPOCH
    assert rating(users[0]).mu > 1500 > rating(users[3]).mu
    assert RatingChange.objects.filter(partie=partie).count() == 4


def test_receiver_fired_twice_and_task_run_twice_apply_once(django_capture_on_commit_callbacks):
    users = UserFactory.create_batch(4)
    partie = finished_partie(users, [0, 10, 10, 40], EPOCH)
    with django_capture_on_commit_callbacks(execute=True):
        recording.record_finished_partie(outcome_of(partie))
        recording.record_finished_partie(outcome_of(partie))
    first = {u.pk: (rating(u).mu, rating(u).sigma, rating(u).games) for u in users}
    assert apply_pending_ratings_task.delay().get() == 0
    assert updates.apply_pending_ratings() == 0
    assert RatedPartie.objects.filter(partie=partie).count() == 1
    assert RatingChange.objects.filter(partie=partie).count() == 4
    assert {u.pk: (rating(u).mu, rating(u).sigma, rating(u).games) for u in users} == first
    assert all(games == 1 for _mu, _sigma, games in first.values())
    assert RatingLedger.objects.get(pool="ladder").applied == 1


def record(partie) -> RatedPartie | None:
    return recording.record_finished_partie(outcome_of(partie))


def test_two_parties_apply_in_finishing_order_when_recorded_in_reverse():
    a, b, c, d = UserFactory.create_batch(4)
    first = finished_partie([a, b, c, d], [0, 10, 20, 30], EPOCH)
    second = finished_partie([a, b, c, d], [30, 20, 10, 0], EPOCH + dt.timedelta(minutes=40))
    record(second)
    record(first)
    assert updates.apply_pending_ratings() == 2
    expected = expected_after(
        [
            ([a, b, c, d], [0, 10, 20, 30], EPOCH),
            ([a, b, c, d], [30, 20, 10, 0], EPOCH + dt.timedelta(minutes=40)),
        ]
    )
    for user in (a, b, c, d):
        assert rating(user).mu == expected[user.pk].mu
        chain = list(RatingChange.objects.filter(user=user).order_by("finished_at"))
        assert [ch.partie_id for ch in chain] == [first.pk, second.pk]
        assert chain[0].mu_after == chain[1].mu_before


def test_a_late_partie_rewinds_and_replays_in_finishing_order():
    """B's task ran and applied B before A (finished earlier) was even recorded."""
    a, b, c, d, e = UserFactory.create_batch(5)
    early = finished_partie([a, b, c, d], [0, 10, 20, 30], EPOCH)
    late = finished_partie([a, b, c, e], [25, 5, 10, 0], EPOCH + dt.timedelta(minutes=30))
    record(late)
    assert updates.apply_pending_ratings() == 1
    record(early)
    assert updates.apply_pending_ratings() == 1
    expected = expected_after(
        [
            ([a, b, c, d], [0, 10, 20, 30], EPOCH),
            ([a, b, c, e], [25, 5, 10, 0], EPOCH + dt.timedelta(minutes=30)),
        ]
    )
    for user in (a, b, c, d, e):
        assert rating(user).mu == expected[user.pk].mu
        assert rating(user).sigma == expected[user.pk].sigma
    assert rating(a).games == 2 and rating(d).games == 1
    chain = list(RatingChange.objects.filter(user=a).order_by("finished_at"))
    assert [ch.partie_id for ch in chain] == [early.pk, late.pk]
    assert chain[0].mu_after == chain[1].mu_before


def test_fewer_than_two_rated_humans_change_nothing():
    alone = UserFactory()
    partie = finished_partie([alone, BOT, BOT, BOT], [0, 10, 20, 30], EPOCH)
    job = record(partie)
    assert job.status == RatedPartie.Status.SKIPPED
    assert updates.apply_pending_ratings() == 0
    assert not PlayerRating.objects.exists()
    assert not RatingChange.objects.exists()


def test_unrated_tables_are_not_recorded():
    users = UserFactory.create_batch(3)
    partie = finished_partie(users, [0, 10, 20], EPOCH, rated=False)
    assert record(partie) is None
    assert not RatedPartie.objects.exists()


def test_bots_count_at_their_level_rating_and_are_never_rated():
    """The factory's bots play at the heuristic level: they count as its measured rating."""
    a, b = UserFactory.create_batch(2)
    players = [a, BOT, b, BOT]
    record(finished_partie(players, [0, 5, 30, 12], EPOCH))
    updates.apply_pending_ratings()
    heuristic = elo.Rating(mu=BOT_RATINGS["heuristic"], sigma=BOT_RATING_SIGMAS["heuristic"])
    expected = expected_after([(players, [0, 5, 30, 12], EPOCH)], bot=heuristic)
    assert rating(a).mu == expected[a.pk].mu
    assert rating(b).mu == expected[b.pk].mu
    assert PlayerRating.objects.count() == 2
    assert RatingChange.objects.count() == 2


def test_leaving_a_started_table_counts_as_last_place():
    stayer, winner, leaver, other = UserFactory.create_batch(4)
    # The bot that took the leaver's seat finished second-best (total 8).
    partie = finished_partie([stayer, winner, leaver, other], [20, 0, 8, 15], EPOCH, left={2})
    job = record(partie)
    assert [p["left"] for p in job.participants] == [False, False, True, False]
    assert job.participants[2]["user_id"] == leaver.pk
    updates.apply_pending_ratings()
    change = RatingChange.objects.get(user=leaver)
    assert change.left and change.place == 4
    expected = expected_after([([stayer, winner, leaver, other], [20, 0, 21, 15], EPOCH)])
    assert rating(leaver).mu == expected[leaver.pk].mu
    assert rating(leaver).mu < min(rating(u).mu for u in (stayer, winner, other))


@pytest.mark.django_db(transaction=True)
def test_concurrent_workers_apply_each_partie_exactly_once():
    users = UserFactory.create_batch(6)
    sequence = []
    for i in range(12):
        players = [users[(i + k) % 6] for k in range(4)]
        totals = [(i * 7 + k * 11) % 40 for k in range(4)]
        finished_at = EPOCH + dt.timedelta(minutes=10 * i)
        partie = finished_partie(players, totals, finished_at)
        # The job row as the receiver stores it; no task is queued, the threads are the workers.
        RatedPartie.objects.create(
            partie=partie,
            finished_at=finished_at,
            participants=recording.participants_of(outcome_of(partie)),
        )
        sequence.append((players, totals, finished_at))
    barrier = threading.Barrier(4)
    applied: list[int] = []
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            barrier.wait()
            applied.append(updates.apply_pending_ratings())
        except BaseException as error:  # noqa: BLE001 - reported by the assertion below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert sorted(applied) == [0, 0, 0, 12]
    assert RatingChange.objects.count() == 48
    expected = expected_after(sequence)
    for user in users:
        assert rating(user).mu == expected[user.pk].mu
        assert rating(user).games == expected[user.pk].games
