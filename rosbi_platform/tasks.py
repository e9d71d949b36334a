"""Platform-level Celery tasks."""

from celery import shared_task


@shared_task(name="rosbi_platform.tasks.ping")
def ping() -> str:
    """Round-trip probe used by /healthz and the tests: proves a worker consumes the queue."""
    return "pong"
