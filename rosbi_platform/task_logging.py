"""Quiet the worker's per-task lines for the sweeps beat sends every few seconds.

At INFO a Celery worker logs "Task … received" and "Task … succeeded" for every task. The
turn-clock sweep runs every second and the other sweeps every 5 to 60 seconds, so ``make run``
scrolled some ten thousand such lines in half an hour and the box with the demo log-ins was
gone within a second (issue 29). Those two lines of the frequent sweeps are logged at DEBUG
instead (visible with ``--loglevel DEBUG``); every other task keeps them, and a sweep's
failure, retry or warning is logged as before, since only these two messages are touched.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from celery.app.trace import LOG_RECEIVED, LOG_SUCCESS

FREQUENT_SWEEPS = frozenset(
    {
        "games.tasks.sweep_turn_clocks",  # every second
        "ratings.tasks.form_ladder_tables",  # every 5 s
        "tournaments.tasks.sweep_tournaments",  # every 15 s
        "games.tasks.sweep_hand_offs",  # every 30 s
        "ratings.tasks.apply_pending_ratings",  # every minute
        "ratings.tasks.refresh_leaderboard",  # every minute
        "ratings.tasks.close_due_seasons",  # every minute
    }
)
"""The periodic tasks beat sends every minute or more often (their migrations schedule them)."""

ROUTINE_MESSAGES = (LOG_RECEIVED, LOG_SUCCESS)
"""Celery's format strings of the two routine per-task lines (received, succeeded)."""

# The loggers Celery writes those two lines to: the worker's strategy and the task tracer.
TASK_LINE_LOGGERS = ("celery.worker.strategy", "celery.app.trace")


class QuietFrequentSweeps(logging.Filter):
    """Lower a frequent sweep's "received" and "succeeded" lines from INFO to DEBUG."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno != logging.INFO or record.msg not in ROUTINE_MESSAGES:
            return True
        context = record.args
        if not isinstance(context, Mapping) or context.get("name") not in FREQUENT_SWEEPS:
            return True
        record.levelno = logging.DEBUG
        record.levelname = logging.getLevelName(logging.DEBUG)
        return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)


def quiet_frequent_sweeps() -> None:
    """Install the filter on Celery's task-line loggers (once, however often it is called)."""
    for name in TASK_LINE_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, QuietFrequentSweeps) for f in logger.filters):
            logger.addFilter(QuietFrequentSweeps())
