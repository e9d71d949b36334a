"""With a think delay, a bot task plays one move and queues the next with a countdown.

A worker never sleeps for a bot, so one worker serves many tables. The queued task is read
back from the real broker (Redis) and removed again.
"""

from __future__ import annotations

import json

import pytest
import redis
from django.conf import settings as django_settings

from games import bot_turns, lobby, tasks
from games.models import Table, TableEvent
from tests.games.factories import TableFactory, UserFactory


def queued_bot_tasks(client: redis.Redis, queue: str) -> list[tuple[bytes, dict]]:
    """The play_bot_turns messages waiting in the broker queue, raw and decoded."""
    found = []
    for raw in client.lrange(queue, 0, -1):
        message = json.loads(raw)
        if message["headers"].get("task") == "games.tasks.play_bot_turns":
            found.append((raw, message))
    return found


@pytest.mark.redis
@pytest.mark.django_db
def test_a_bot_task_plays_one_move_and_queues_the_next_after_the_think_delay(
    settings, django_capture_on_commit_callbacks
):
    from rosbi_platform import celery_app

    celery_app.conf.task_always_eager = False  # the autouse fixture restores it afterwards
    settings.GAMES_BOT_THINK_SECONDS = 30
    owner = UserFactory()
    table = TableFactory(owner=owner, size=3, fill_with_bots=True, bot_level="random")
    with django_capture_on_commit_callbacks(execute=False):
        lobby.start_table(table.pk, owner, seed=5)
    table.refresh_from_db()
    assert bot_turns.bot_is_on_turn(table.pk, table.state_version)
    moves_before = TableEvent.objects.filter(table=table, kind="move").count()

    client = redis.Redis.from_url(django_settings.REDIS_URL)
    queue = celery_app.conf.task_default_queue
    try:
        played = tasks.play_bot_turns.run(table.pk, table.state_version)

        table.refresh_from_db()
        assert played == 1
        assert TableEvent.objects.filter(table=table, kind="move").count() == moves_before + 1
        assert bot_turns.bot_is_on_turn(table.pk, table.state_version), "three bots: next is one"
        mine = [
            (raw, message)
            for raw, message in queued_bot_tasks(client, queue)
            if message["headers"].get("argsrepr") == repr((table.pk, table.state_version))
        ]
        assert len(mine) == 1, "exactly the next bot turn is queued"
        assert mine[0][1]["headers"]["eta"] is not None, "with the think delay as countdown"
    finally:
        for raw, message in queued_bot_tasks(client, queue):
            if message["headers"].get("argsrepr", "").startswith(f"({table.pk},"):
                client.lrem(queue, 0, raw)
        client.close()


@pytest.mark.redis
@pytest.mark.django_db
def test_a_stale_bot_task_plays_nothing_and_queues_nothing(settings):
    # The worker's path (not eager): an eager run would sleep the think delay first.
    from rosbi_platform import celery_app

    celery_app.conf.task_always_eager = False  # the autouse fixture restores it afterwards
    settings.GAMES_BOT_THINK_SECONDS = 30
    owner = UserFactory()
    table = TableFactory(owner=owner, size=3, fill_with_bots=True, bot_level="random")
    lobby.start_table(table.pk, owner, seed=5)  # inside the test transaction: no task runs
    table = Table.objects.get(pk=table.pk)
    moves = TableEvent.objects.filter(table=table, kind="move").count()
    client = redis.Redis.from_url(django_settings.REDIS_URL)
    queue = celery_app.conf.task_default_queue
    try:
        assert tasks.play_bot_turns.run(table.pk, table.state_version - 1) == 0
        assert TableEvent.objects.filter(table=table, kind="move").count() == moves
        mine = [
            message
            for _raw, message in queued_bot_tasks(client, queue)
            if message["headers"].get("argsrepr", "").startswith(f"({table.pk},")
        ]
        assert mine == []
    finally:
        client.close()


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_plays_the_queued_bots_to_the_end_and_hands_off_once(celery_worker):
    """The actions queue tasks by name (``games.queue``); a real worker runs them."""
    import time

    from games.models import Partie
    from games.signals import partie_finished
    from rosbi_platform import celery_app

    celery_app.conf.task_always_eager = False  # the autouse fixture restores it afterwards
    received: list[int] = []

    def receiver(sender, outcome, **kwargs):
        received.append(outcome.partie_id)

    partie_finished.connect(receiver)
    try:
        owner = UserFactory()
        table = TableFactory(owner=owner, size=3, fill_with_bots=True, bot_level="random")
        lobby.start_table(table.pk, owner, seed=5)
        deadline = time.monotonic() + 60
        while not Partie.objects.filter(table=table, handed_off=True).exists():
            assert time.monotonic() < deadline, "the worker did not finish the bots' Partie"
            time.sleep(0.2)
    finally:
        partie_finished.disconnect(receiver)
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED
    assert received == [Partie.objects.get(table=table).pk]
