"""`make run` keeps its log readable: beat and the every-second sweeps do not flood it.

Issue 29: beat logged every second at INFO (10,088 lines in 32 minutes) and the worker logged
two lines per sweep, so the box with the demo log-ins scrolled away within a second.
"""

from __future__ import annotations

import importlib
import logging

import pytest
from celery.app.trace import LOG_RECEIVED, LOG_SUCCESS
from django.apps import apps
from django_celery_beat.models import PeriodicTask

from rosbi_platform.celery import app
from rosbi_platform.management.commands.runplatform import platform_commands
from rosbi_platform.task_logging import FREQUENT_SWEEPS, quiet_frequent_sweeps


def option(command: list[str], name: str) -> str:
    return command[command.index(name) + 1]


def test_beat_runs_at_warning_without_banner_and_the_worker_at_info():
    commands = platform_commands("python", "127.0.0.1", 8000, 2, supervisor_pid=42)
    assert set(commands) == {"web", "worker", "beat"}
    beat = commands["beat"]
    assert option(beat, "--loglevel") == "WARNING"  # its errors still show
    assert "--quiet" in beat[: beat.index("beat")]  # a global option: no start-up banner
    worker = commands["worker"]
    assert option(worker, "--loglevel") == "INFO"
    assert option(worker, "--hostname") == "worker-42@%h"


def task_line(logger_name: str, message: str, task: str, level: int = logging.INFO) -> None:
    """Log one line as Celery does: the format string and its context as the only argument."""
    context = {"id": "abc", "name": task, "args": "()", "kwargs": "{}", "eta": None}
    context.update(return_value="0", runtime=0.01)
    logging.getLogger(logger_name).log(level, message, context, extra={"data": context})


def test_the_frequent_sweeps_routine_lines_drop_to_debug_and_nothing_else_does(caplog):
    quiet_frequent_sweeps()
    quiet_frequent_sweeps()  # idempotent: the worker may set up logging more than once
    sweep = "games.tasks.sweep_turn_clocks"
    other = "games.tasks.play_bot_turns"
    with caplog.at_level(logging.INFO):
        task_line("celery.worker.strategy", LOG_RECEIVED, sweep)
        task_line("celery.app.trace", LOG_SUCCESS, sweep)
        task_line("celery.worker.strategy", LOG_RECEIVED, other)
        task_line("celery.app.trace", LOG_SUCCESS, other)
        task_line("celery.app.trace", "Task %(name)s[%(id)s] raised", sweep, logging.ERROR)
    heard = [(r.levelname, r.args["name"], r.msg) for r in caplog.records]
    assert heard == [
        ("INFO", other, LOG_RECEIVED),
        ("INFO", other, LOG_SUCCESS),
        ("ERROR", sweep, "Task %(name)s[%(id)s] raised"),
    ]
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger="celery.app.trace"):
        task_line("celery.app.trace", LOG_SUCCESS, sweep)
    assert [(r.levelname, r.args["name"]) for r in caplog.records] == [("DEBUG", sweep)]


# The data migrations that register periodic tasks with beat's DatabaseScheduler.
SCHEDULE_MIGRATIONS = (
    "games.migrations.0002_sweep_turn_clocks_periodic_task",
    "games.migrations.0005_hand_off_sweeper",
    "ratings.migrations.0002_periodic_tasks",
    "ratings.migrations.0010_leaderboard",
    "ratings.migrations.0014_season_ends_at_and_scheduled_close",
    "tournaments.migrations.0003_sweep_tournaments_periodic_task",
    "tournaments.migrations.0008_series_periodic_task",
    "tournaments.migrations.0011_club_seasons_periodic_task",
)


@pytest.mark.django_db
def test_every_task_beat_sends_each_minute_or_more_often_is_a_quiet_sweep():
    """The list follows the schedule the migrations register, and names real tasks."""
    # Transactional tests empty every table afterwards, so run the data migrations' functions
    # again (they are idempotent), as tests/games/live/test_live_services.py does.
    for module in SCHEDULE_MIGRATIONS:
        migration = importlib.import_module(module)
        create = getattr(migration, "create_periodic_tasks", None) or migration.create_periodic_task
        create(apps, None)
    app.loader.import_default_modules()
    frequent = {
        task.task
        for task in PeriodicTask.objects.filter(enabled=True, interval__isnull=False)
        if task.interval.schedule.run_every.total_seconds() <= 60
    }
    assert "games.tasks.sweep_turn_clocks" in frequent
    assert frequent <= FREQUENT_SWEEPS
    assert set(app.tasks) >= FREQUENT_SWEEPS
