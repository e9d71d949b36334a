"""A finished Partie is handed off even when its hand-off task was lost, and only once."""

from __future__ import annotations

import datetime as dt
import importlib

import pytest
from django.apps import apps
from django.db import OperationalError
from django.utils import timezone
from django_celery_beat.models import PeriodicTask

from games import handoff, queue, tasks
from games.models import Partie
from games.signals import partie_finished
from tests.games.factories import TableFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def handed_off():
    received: list[int] = []

    def receiver(sender, outcome, **kwargs):
        received.append(outcome.partie_id)

    partie_finished.connect(receiver)
    yield received
    partie_finished.disconnect(receiver)


def finished_partie_whose_hand_off_was_lost(finished_ago: dt.timedelta) -> Partie:
    """A bots' Partie played to the end, then put back to "not handed off" as if its task
    had never run, finished ``finished_ago``."""
    from games import lobby

    owner = UserFactory()
    table = TableFactory(owner=owner, size=3, fill_with_bots=True, bot_level="random")
    lobby.start_table(table.pk, owner, seed=7)
    partie = Partie.objects.get(table=table)
    Partie.objects.filter(pk=partie.pk).update(
        handed_off=False, handed_off_at=None, finished_at=timezone.now() - finished_ago
    )
    return partie


def test_the_sweeper_hands_off_overdue_parties_once(handed_off):
    overdue = finished_partie_whose_hand_off_was_lost(dt.timedelta(minutes=5))
    recent = finished_partie_whose_hand_off_was_lost(dt.timedelta(seconds=1))
    handed_off.clear()  # the first hand-offs, made while the Parties were played

    assert tasks.sweep_hand_offs() == 1
    assert handed_off == [overdue.pk]
    assert Partie.objects.get(pk=overdue.pk).handed_off
    assert not Partie.objects.get(pk=recent.pk).handed_off, "its task may still be on the way"
    assert tasks.sweep_hand_offs() == 0, "a second sweep finds nothing"
    assert handed_off == [overdue.pk]


def test_a_transient_database_error_is_retried_by_the_one_task_policy(monkeypatch, handed_off):
    partie = finished_partie_whose_hand_off_was_lost(dt.timedelta(minutes=5))
    handed_off.clear()
    real = handoff.hand_off_partie_result
    calls: list[int] = []

    def flaky(partie_id: int) -> bool:
        calls.append(partie_id)
        if len(calls) == 1:
            raise OperationalError("server closed the connection unexpectedly")
        return real(partie_id)

    monkeypatch.setattr(handoff, "hand_off_partie_result", flaky)
    result = tasks.hand_off_partie_result.apply(args=[partie.pk])

    assert result.successful() and result.get() is True
    assert calls == [partie.pk, partie.pk]
    assert handed_off == [partie.pk]


def test_every_task_of_every_app_shares_the_retry_policy():
    from rosbi_platform import celery_app
    from rosbi_platform.celery import TRANSIENT_ERRORS, RetryingTask

    ours = [
        task
        for name, task in celery_app.tasks.items()
        if name.split(".")[0] in {"games", "tournaments", "ratings", "rosbi_platform"}
    ]
    assert len(ours) >= 8
    for task in ours:
        assert isinstance(task, RetryingTask), task.name
        assert set(TRANSIENT_ERRORS) <= set(task.autoretry_for), task.name


def test_the_sweeper_is_registered_with_beat():
    migration = importlib.import_module("games.migrations.0005_hand_off_sweeper")
    migration.create_periodic_task(apps, None)
    migration.create_periodic_task(apps, None)
    task = PeriodicTask.objects.get(task=queue.SWEEP_HAND_OFFS)
    assert task.enabled and task.interval.every == 30 and task.interval.period == "seconds"
