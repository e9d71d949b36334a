"""Readiness probes for /healthz: database, Redis and a live Celery worker.

Each check returns a small dict with `ok` plus details, never raises, and is bounded in time so a
dead dependency makes /healthz answer 503 quickly instead of hanging the load balancer's probe.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import redis
from django.conf import settings
from django.db import connection

PROBE_TIMEOUT_SECONDS = 1.0


def timed(check: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    started = time.perf_counter()
    try:
        result = check()
    except Exception as error:  # a probe reports failures, it never raises
        result = {"ok": False, "error": f"{type(error).__name__}: {error}"}
    result["ms"] = round((time.perf_counter() - started) * 1000, 1)
    return result


def check_database() -> dict[str, Any]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        (value,) = cursor.fetchone()
    return {"ok": value == 1, "vendor": connection.vendor}


def check_redis() -> dict[str, Any]:
    client = redis.Redis.from_url(
        settings.REDIS_URL,
        socket_timeout=PROBE_TIMEOUT_SECONDS,
        socket_connect_timeout=PROBE_TIMEOUT_SECONDS,
    )
    try:
        return {"ok": bool(client.ping())}
    finally:
        client.close()


def check_celery() -> dict[str, Any]:
    """Broadcast a control ping over the broker and wait (at most ~1 s) for one worker to answer."""
    from rosbi_platform import celery_app

    with celery_app.connection_for_write(url=settings.CELERY_BROKER_URL) as conn:
        conn.ensure_connection(max_retries=1, timeout=PROBE_TIMEOUT_SECONDS)
        replies = celery_app.control.ping(timeout=PROBE_TIMEOUT_SECONDS, limit=1, connection=conn)
    workers = sorted(name for reply in replies for name in reply)
    if not workers:
        return {"ok": False, "error": "no Celery worker answered", "workers": []}
    return {"ok": True, "workers": workers}


CHECKS: dict[str, Callable[[], dict[str, Any]]] = {
    "database": check_database,
    "redis": check_redis,
    "celery": check_celery,
}


def run_checks() -> dict[str, Any]:
    """Run every probe; status is "ok" only when all of them are."""
    results = {name: timed(check) for name, check in CHECKS.items()}
    failing = [name for name, result in results.items() if not result["ok"]]
    return {
        "status": "degraded" if failing else "ok",
        "failing": failing,
        "checks": results,
    }
