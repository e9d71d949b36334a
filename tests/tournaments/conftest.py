"""Tournament test set-up: bots without think time, and helpers to run events."""

from __future__ import annotations

import pytest


@pytest.fixture
def instant_bots(settings):
    """Bots answer at once (the live tables' think pause is for people watching)."""
    settings.GAMES_BOT_THINK_SECONDS = 0
    settings.GAMES_DEFAULT_BOT_LEVEL = "random"
    return settings


@pytest.fixture
def eager_celery(settings, instant_bots):
    """Celery tasks run in-process right after the commit that queued them."""
    from rosbi_platform import celery_app

    # Read what to restore before changing the settings: Celery's conf loads them lazily, and
    # read afterwards it would restore "propagate" for every later test of the session.
    previous = (celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates)
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.CELERY_TASK_EAGER_PROPAGATES = True
    celery_app.conf.task_always_eager = True
    celery_app.conf.task_eager_propagates = True
    yield
    celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates = previous


@pytest.fixture(autouse=True)
def english_after_each_test():
    """A request with a German cookie leaves German active in the test thread (the locale
    middleware activates it and nothing deactivates it); the next test starts in English."""
    yield
    from django.utils import translation

    translation.deactivate()
