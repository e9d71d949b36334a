"""Live-table test set-up: eager Celery, bots without think time, helpers to play."""

from __future__ import annotations

import pytest

from rosbi_platform import celery_app


@pytest.fixture(autouse=True)
def eager_tasks_and_instant_bots(settings):
    """Run Celery tasks in-process right after commit and let bots answer at once."""
    settings.GAMES_BOT_THINK_SECONDS = 0
    settings.GAMES_DEFAULT_BOT_LEVEL = "heuristic"
    previous = (celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates)
    celery_app.conf.task_always_eager = True
    celery_app.conf.task_eager_propagates = True
    yield
    celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates = previous
