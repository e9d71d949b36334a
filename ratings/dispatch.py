"""The one place the ratings actions hand work to Celery: by task name, after the commit.

The actions never import ``ratings.tasks`` (the tasks import the actions), so there is no
import loop; a web process need not even have the task modules loaded to queue them.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from rosbi_platform import celery_app as app

APPLY_PENDING_RATINGS = "ratings.tasks.apply_pending_ratings"
FORM_LADDER_TABLES = "ratings.tasks.form_ladder_tables"
REFRESH_LEADERBOARD = "ratings.tasks.refresh_leaderboard"
CLOSE_DUE_SEASONS = "ratings.tasks.close_due_seasons"


def enqueue_task(name: str, *args: Any) -> None:
    """Queue the task ``name`` with ``args`` once the current transaction commits (at once
    outside one); nothing is queued when it rolls back."""
    transaction.on_commit(lambda: send_task(name, *args))


def send_task(name: str, *args: Any, countdown: float = 0) -> None:
    """Queue the task ``name`` now (``countdown`` seconds later on a worker)."""
    if app.conf.task_always_eager:
        # ``send_task`` ignores eager mode (tests, a worker-less run): run it in-process as
        # ``delay`` would, after loading the task modules if nothing imported them yet.
        if name not in app.tasks:
            app.loader.import_default_modules()
        app.tasks[name].apply_async(args)
        return
    app.send_task(name, args=list(args), countdown=countdown or None)
