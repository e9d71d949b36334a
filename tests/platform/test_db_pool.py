"""The pool's connection check: skipped for a connection used a moment ago, done otherwise."""

from __future__ import annotations

import time

import psycopg
import pytest
from django.db import connection
from psycopg_pool import ConnectionPool

from rosbi_platform import db_pool

pytestmark = pytest.mark.django_db


def conninfo() -> str:
    params = connection.get_connection_params()
    parts = {
        "dbname": params["dbname"],
        "user": params.get("user") or "postgres",
        "host": params.get("host") or "127.0.0.1",
        "port": params.get("port") or 5432,
    }
    return " ".join(f"{key}={value}" for key, value in parts.items())


@pytest.fixture
def pool():
    with ConnectionPool(
        conninfo(),
        min_size=1,
        max_size=1,
        check=db_pool.check_unless_recently_used,
        reset=db_pool.note_returned,
        kwargs={"autocommit": True},
    ) as pool:
        pool.wait()
        yield pool


def backend_pid(conn: psycopg.Connection) -> int:
    return conn.execute("SELECT pg_backend_pid()").fetchone()[0]


def terminate(pid: int) -> None:
    with psycopg.connect(conninfo(), autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])


def test_a_connection_idle_for_a_while_is_checked_and_a_dead_one_replaced(pool, monkeypatch):
    monkeypatch.setattr(db_pool, "RECENTLY_USED_SECONDS", 0.05)
    with pool.connection() as conn:
        first = backend_pid(conn)
    terminate(first)  # as a PostgreSQL restart does
    time.sleep(0.1)

    with pool.connection() as conn:
        second = backend_pid(conn)

    assert second != first


def test_a_connection_back_a_moment_ago_is_handed_out_without_a_round_trip(pool, monkeypatch):
    checks = []
    real_check = ConnectionPool.check_connection
    monkeypatch.setattr(
        ConnectionPool,
        "check_connection",
        staticmethod(lambda c: checks.append(c) or real_check(c)),
    )
    monkeypatch.setattr(db_pool, "RECENTLY_USED_SECONDS", 60.0)
    with pool.connection() as conn:
        first = backend_pid(conn)
    checks.clear()  # the first checkout of a fresh connection may be checked

    with pool.connection() as conn:
        again = backend_pid(conn)

    assert again == first
    assert checks == []


def test_the_settings_use_these_checks_instead_of_djangos_per_checkout_one():
    assert connection.settings_dict["OPTIONS"]["pool"]["reset"] is db_pool.note_returned
    assert connection.settings_dict["CONN_HEALTH_CHECKS"] is False
    assert connection.pool._check is db_pool.check_unless_recently_used
