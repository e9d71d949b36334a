"""A whole tournament run by the Celery tasks: 21 entrants, 3 Swiss rounds, bots at every seat.

The entrants are real users registered and checked in through the services. Nobody moves, so
each player's clock runs out and the games' clock sweeper hands the seat to a bot, which is
how the platform treats an absent player; the bots play every Partie through the engine.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from django.core import mail

from games.models import Partie, PartieDeal
from tests.tournaments.helpers import drive, game_totals, open_event, start_now, state_of
from tournaments import tasks
from tournaments.models import Entry, Round, RoundSeat, RoundTable, Standing, Tournament
from tournaments.standings import TableResult, compute_standings

ENTRANTS = 21
ROUNDS = 3

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis, pytest.mark.slow]


def check_finished_event(tournament: Tournament) -> None:
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    entries = set(Entry.objects.filter(tournament=tournament).values_list("pk", flat=True))
    assert len(entries) == ENTRANTS
    met: Counter[tuple[int, int]] = Counter()
    independent: list[TableResult] = []
    for round_ in Round.objects.filter(tournament=tournament).order_by("number"):
        assert round_.status == Round.Status.FINISHED
        seated = list(RoundSeat.objects.filter(round=round_).values_list("entry_id", flat=True))
        assert sorted(seated) == sorted(entries)  # everyone plays, once (21 = 4 x 4 + 5)
        for table in RoundTable.objects.filter(round=round_):
            assert table.status == RoundTable.Status.FINISHED
            assert 3 <= table.size <= 5
            partie = Partie.objects.get(table_id=table.game_table_id)
            assert PartieDeal.objects.filter(partie=partie, penalties__isnull=False).count() == 6
            seats = dict(table.seats.values_list("seat", "total"))
            assert seats == game_totals(table)
            by_entry = dict(table.seats.values_list("entry_id", "seat"))
            independent.append(
                TableResult(round_.number, {e: game_totals(table)[s] for e, s in by_entry.items()})
            )
            if round_.number == 2:
                for pair in combinations(sorted(by_entry), 2):
                    met[pair] += 1
        if round_.number == 1:
            round_one_pairs = {
                pair
                for table in RoundTable.objects.filter(round=round_)
                for pair in combinations(sorted(table.seats.values_list("entry_id", flat=True)), 2)
            }
    assert not round_one_pairs & set(met), "Swiss round 2 repeats a round-1 pairing"
    expected = compute_standings(independent, rounds=ROUNDS)
    stored = list(Standing.objects.filter(tournament=tournament).order_by("rank", "entry_id"))
    assert [(s.entry_id, s.rank, s.points, s.penalty) for s in stored] == [
        (row.player, row.rank, row.points, row.penalty) for row in expected
    ]
    assert all(s.rounds_played == ROUNDS for s in stored)


def wait_until_settled(tournament: Tournament, quiet: float = 2.0, limit: float = 120) -> None:
    """Until nothing the tasks write changes for ``quiet`` seconds (the worker drained)."""
    import time

    deadline = time.monotonic() + limit
    last, since = state_of(tournament), time.monotonic()
    while time.monotonic() - since < quiet:
        if time.monotonic() > deadline:
            raise AssertionError(f"the worker was still writing after {limit} s")
        time.sleep(0.25)
        now = state_of(tournament)
        if now != last:
            last, since = now, time.monotonic()


def run_every_task_twice_concurrently(tournament: Tournament) -> None:
    """After the event, every task again, twice and at once, changes nothing."""
    import threading

    from django.db import connection

    before = state_of(tournament)
    mails = len(mail.outbox)
    round_ids = list(Round.objects.filter(tournament=tournament).values_list("pk", flat=True))
    calls = [
        lambda: tasks.advance_tournament(tournament.pk),
        lambda: tasks.recompute_standings(tournament.pk),
        *[lambda r=r: tasks.notify_table_ready(r) for r in round_ids],
    ]
    errors: list[BaseException] = []

    def run(call) -> None:
        try:
            call()
        except BaseException as error:  # noqa: BLE001 - collected and re-raised below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(c,)) for c in calls for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert state_of(tournament) == before
    assert len(mail.outbox) == mails


def test_whole_tournament_with_eager_tasks(eager_celery):
    tournament, organiser = open_event(ENTRANTS, slug="eager", rounds=ROUNDS)
    start_now(tournament, organiser)

    drive(tournament, sweep=lambda: tasks.sweep_tournaments.delay())

    check_finished_event(tournament)
    ready = [m for m in mail.outbox if "table is ready" in m.subject]
    assert len(ready) == ENTRANTS * ROUNDS  # "your table is ready", once per round each
    run_every_task_twice_concurrently(tournament)


def test_whole_tournament_with_a_real_worker(instant_bots, celery_worker):
    tournament, organiser = open_event(ENTRANTS, slug="worker", rounds=ROUNDS)
    start_now(tournament, organiser)

    drive(tournament, sweep=lambda: tasks.sweep_tournaments.delay(), pause=0.2)

    check_finished_event(tournament)
    # The event is finished before the worker has sent the last round's notices (tasks
    # queued after the commit): take the "before" state only once the worker is done.
    wait_until_settled(tournament)
    run_every_task_twice_concurrently(tournament)
