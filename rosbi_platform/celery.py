"""The Celery application: Redis broker, JSON only, late acks, beat schedule in the database.

Every task of every app shares one retry policy (``RetryingTask``): a transient failure of
PostgreSQL (a dropped connection, a full pool, a deadlock left after the row-lock helper's own
retries) or of Redis is retried with exponential backoff and jitter. Every task is idempotent
(unique keys, locked status transitions, version checks), so running one again never doubles
an effect; any other error is a bug and is raised at once.
"""

import os

from celery import Celery, Task
from celery.signals import after_setup_logger
from django.db import InterfaceError as DatabaseInterfaceError
from django.db import OperationalError as DatabaseOperationalError
from kombu.exceptions import OperationalError as BrokerOperationalError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from rosbi_platform.task_logging import quiet_frequent_sweeps

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rosbi_platform.settings")

TRANSIENT_ERRORS = (
    DatabaseOperationalError,
    DatabaseInterfaceError,
    BrokerOperationalError,
    RedisConnectionError,
    RedisTimeoutError,
)


class RetryingTask(Task):
    """The one retry policy of every Rosbi task (see the module docstring)."""

    autoretry_for = TRANSIENT_ERRORS
    retry_backoff = 1
    retry_backoff_max = 30
    retry_jitter = True
    max_retries = 12


app = Celery("rosbi_platform", task_cls=RetryingTask)
# Broker/backend URLs, serializers, acks_late, prefetch=1 and the DatabaseScheduler are set as
# CELERY_* in settings.py so there is one place to read them.
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@after_setup_logger.connect
def _quiet_frequent_sweeps(**kwargs: object) -> None:
    """Once the worker's logging is set up, its every-second sweeps stop filling the log
    (``rosbi_platform.task_logging``)."""
    quiet_frequent_sweeps()
