"""Live-table test set-up: eager Celery, bots without think time, helpers to play."""

from __future__ import annotations

import os
import uuid

import pytest

# Test runs of several engineers share the embedded Redis and all number their tables from 1:
# a prefix per run keeps their "table.1" groups apart.
CHANNEL_PREFIX = f"test{os.getpid()}{uuid.uuid4().hex[:6]}"


@pytest.fixture(autouse=True)
def eager_tasks_and_instant_bots(request):
    """Run Celery tasks in-process right after commit and let bots answer at once.

    Only for tests that use the database: the pure state tests also run without Django.
    """
    if request.node.get_closest_marker("django_db") is None:
        yield
        return
    from rosbi_platform import celery_app

    settings = request.getfixturevalue("settings")
    layers = {name: dict(config) for name, config in settings.CHANNEL_LAYERS.items()}
    for config in layers.values():
        config["CONFIG"] = {**config.get("CONFIG", {}), "prefix": CHANNEL_PREFIX}
    settings.CHANNEL_LAYERS = layers
    settings.GAMES_BOT_THINK_SECONDS = 0
    settings.GAMES_DEFAULT_BOT_LEVEL = "heuristic"
    # Scripted players move far faster than people: no frame limit (test_live_moves has one).
    settings.GAMES_WS_FRAME_LIMIT = (100_000, 100_000)
    previous = (celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates)
    celery_app.conf.task_always_eager = True
    celery_app.conf.task_eager_propagates = True
    yield
    celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates = previous
    close_consumer_thread_connections()


def close_consumer_thread_connections() -> None:
    """Consumers reach the database from asgiref's one sync thread and thread groups, whose
    connections outlive the test (CONN_MAX_AGE); close them so PostgreSQL can drop the test
    database at the end."""
    from asgiref.sync import SyncToAsync
    from django.db import connections

    from rosbi_platform.db_threads import close_thread_connections

    SyncToAsync.single_thread_executor.submit(connections.close_all).result(timeout=30)
    close_thread_connections()
