"""/healthz against real services: a real in-process Celery worker, a really absent Redis."""

import socket

import pytest
from django.test import override_settings

from rosbi_platform.tasks import ping


def unused_tcp_port() -> int:
    """A loopback port nothing listens on (bound then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# transaction=True: starting a worker makes Celery's Django fixup close DB connections, which a
# request outside a test transaction survives by reconnecting (as in production).
@pytest.mark.django_db(transaction=True)
def test_healthz_reports_ok_when_database_redis_and_worker_answer(client, celery_worker):
    response = client.get("/healthz")

    body = response.json()
    assert response.status_code == 200, body
    assert body["status"] == "ok"
    assert body["failing"] == []
    assert set(body["checks"]) == {"database", "redis", "celery"}
    assert all(check["ok"] for check in body["checks"].values())
    assert body["checks"]["celery"]["workers"], "at least one worker must have answered"


@pytest.mark.django_db
def test_ping_task_round_trips_through_the_worker(celery_worker):
    assert ping.delay().get(timeout=10) == "pong"


@pytest.mark.django_db
def test_healthz_names_redis_and_celery_when_redis_is_down(client):
    dead_redis = f"redis://127.0.0.1:{unused_tcp_port()}/0"
    with override_settings(REDIS_URL=dead_redis, CELERY_BROKER_URL=dead_redis):
        response = client.get("/healthz")

    body = response.json()
    assert response.status_code == 503
    assert body["status"] == "degraded"
    assert body["failing"] == ["redis", "celery"]
    assert body["checks"]["database"]["ok"] is True
    assert "Connection" in body["checks"]["redis"]["error"]
    assert body["checks"]["celery"]["ok"] is False


def broker_url_on_unused_database(broker_url: str) -> str:
    """Same Redis server, database 15: no worker (ours or a running `make run`) listens there."""
    if broker_url.startswith("redis+socket://"):
        return broker_url.split("?")[0] + "?virtual_host=15"
    return broker_url.rsplit("/", 1)[0] + "/15"


@pytest.mark.django_db
def test_healthz_reports_a_missing_worker(client, redis_url, settings):
    """Redis up but nobody consuming the broker: 503 naming only celery."""
    settings.CELERY_BROKER_URL = broker_url_on_unused_database(settings.CELERY_BROKER_URL)
    response = client.get("/healthz")

    body = response.json()
    assert response.status_code == 503
    assert body["failing"] == ["celery"]
    assert body["checks"]["redis"]["ok"] is True
    assert body["checks"]["celery"]["error"] == "no Celery worker answered"
