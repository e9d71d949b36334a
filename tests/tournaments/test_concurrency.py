"""The scheduler's tasks run twice and at the same time: a round is seated and started once."""

from __future__ import annotations

import threading

import pytest
from django.conf import settings
from django.core import mail
from django.db import connection

from games.models import Table
from rosbi_platform.notifications.models import Notification
from tests.tournaments.helpers import open_event, start_now, state_of
from tournaments import results, rounds, scheduler, tasks
from tournaments.common import TournamentError
from tournaments.models import Round, RoundSeat, RoundTable

pytestmark = [pytest.mark.django_db(transaction=True)]


def run_at_once(calls, copies: int = 2) -> None:
    errors: list[BaseException] = []
    barrier = threading.Barrier(len(calls) * copies)

    def run(call) -> None:
        try:
            barrier.wait()
            call()
        except BaseException as error:  # noqa: BLE001 - re-raised below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(c,)) for c in calls for _ in range(copies)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


def test_concurrent_sweeps_seat_and_start_a_round_once(eager_celery):
    tournament, organiser = open_event(9, slug="race")
    start_now(tournament, organiser)

    run_at_once([lambda: tasks.advance_tournament(tournament.pk)], copies=4)

    round_one = Round.objects.get(tournament=tournament, number=1)
    assert round_one.status == Round.Status.STARTED
    tables = list(RoundTable.objects.filter(round=round_one))
    assert sorted(t.size for t in tables) == [4, 5]
    assert RoundSeat.objects.filter(round=round_one).count() == 9
    assert Table.objects.filter(tournament_round_id=round_one.pk).count() == 2
    assert all(t.game_table.status == Table.Status.PLAYING for t in tables)
    ready = Notification.objects.filter(tournament_id=tournament.pk, kind="table_ready")
    assert ready.count() == 9
    ready_mail = [m for m in mail.outbox if "table is ready" in m.subject]
    assert len(ready_mail) == 9
    links = {f"{settings.SITE_URL}/tables/{t.game_table_id}/" for t in tables}
    assert all(any(link in m.body for link in links) for m in ready_mail)  # absolute links

    results.recompute_standings(tournament.pk)
    before = state_of(tournament)
    run_at_once(
        [
            lambda: tasks.advance_tournament(tournament.pk),
            lambda: tasks.recompute_standings(tournament.pk),
            lambda: tasks.notify_table_ready(round_one.pk),
            lambda: tasks.sweep_tournaments(),
        ]
    )
    assert state_of(tournament) == before
    assert len([m for m in mail.outbox if "table is ready" in m.subject]) == 9


def test_a_started_round_cannot_be_seated_or_reseated_again(eager_celery):
    tournament, organiser = open_event(6, slug="twice")
    start_now(tournament, organiser)
    scheduler.advance_tournament(tournament.pk)
    round_one = Round.objects.get(tournament=tournament, number=1)

    assert rounds.seat_round(round_one.pk) is False
    assert rounds.start_round(round_one.pk) is False
    with pytest.raises(TournamentError):
        rounds.reseat_round(round_one.pk, by=organiser)
    assert RoundTable.objects.filter(round=round_one).count() == 2
