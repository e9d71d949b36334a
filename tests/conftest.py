"""Shared pytest set-up for the whole suite.

Pure-Python tests (engine, seating, ratings maths) need nothing from here and also run with
`-p no:django`; Django is only imported inside fixtures and hooks that need it.

Service policy: the suite always runs on PostgreSQL and Redis. On a developer machine without
DATABASE_URL/REDIS_URL those are the embedded servers under var/ (started by the settings and
stopped at the end of the session if this run started them and nothing else uses them); CI
points both variables at real servers. A test marked `redis` that cannot reach its server
FAILS with a message saying what it needs, in CI and locally alike; nothing is ever skipped.
"""

from __future__ import annotations

import os

import pytest

IN_CI = os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def django_is_active(config: pytest.Config) -> bool:
    return config.pluginmanager.hasplugin("django")


def redis_answers(url: str) -> str | None:
    """None when Redis at `url` answers PING, else the reason it does not."""
    import redis

    client = redis.Redis.from_url(url, socket_timeout=2.0, socket_connect_timeout=2.0)
    try:
        client.ping()
        return None
    except (redis.RedisError, OSError) as error:
        return f"{type(error).__name__}: {error}"
    finally:
        client.close()


def require_redis() -> str:
    """Return the configured Redis URL, or fail the test (never skip) when it does not answer."""
    from django.conf import settings

    problem = redis_answers(settings.REDIS_URL)
    if problem is not None:
        origin = "REDIS_URL" if os.environ.get("REDIS_URL") else "the embedded Redis"
        pytest.fail(
            f"Redis is required but {origin} ({settings.REDIS_URL}) does not answer: {problem}"
            + (" [CI=true: services must be up, see .ci/run]" if IN_CI else ""),
            pytrace=False,
        )
    return settings.REDIS_URL


@pytest.fixture
def redis_url() -> str:
    """The configured Redis (REDIS_URL or the embedded one); fails loudly when unreachable."""
    return require_redis()


@pytest.fixture(scope="session", autouse=True)
def private_celery_queue(request: pytest.FixtureRequest):
    """Send this run's tasks to a queue of its own.

    Test runs on one machine share the embedded Redis; without this, one run's real worker
    (``celery_worker``) would take another run's tasks, for a database it cannot see.
    """
    if not django_is_active(request.config):
        yield None
        return
    import uuid

    from rosbi_platform import celery_app

    previous = celery_app.conf.task_default_queue
    queue = f"tests-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    celery_app.conf.task_default_queue = queue
    yield queue
    celery_app.conf.task_default_queue = previous


@pytest.fixture(autouse=True)
def event_loop_connections_closed(request: pytest.FixtureRequest):
    """Websocket tests read on their event loop's own connections (rosbi_platform/async_db.py);
    each test has a loop of its own, so close them after it: left open they add up over the
    run and keep PostgreSQL from dropping the test database at the end."""
    yield
    if django_is_active(request.config):
        from rosbi_platform import async_db

        async_db.close_all()


@pytest.fixture
def celery_worker(redis_url: str):
    """A real Celery worker running in this process (solo pool) on the configured broker."""
    from celery.contrib.testing.worker import start_worker

    from rosbi_platform import celery_app

    # Tasks that earlier tests of this run queued (bot turns and hand-offs with a countdown)
    # belong to tests that are over; run here, they would touch this test's database while it
    # is being set up.
    with celery_app.connection_for_write() as connection:
        connection.default_channel.queue_purge(celery_app.conf.task_default_queue)
    with start_worker(celery_app, pool="solo", perform_ping_check=False, loglevel="WARNING") as w:
        yield w


@pytest.fixture(autouse=True)
def no_anonymous_page_throttle(request: pytest.FixtureRequest):
    """The whole suite requests pages from one address within minutes; the throttle's own
    tests (tests/platform/test_security.py) turn it on with their own rate."""
    if not django_is_active(request.config):
        yield
        return
    from django.test import override_settings

    with override_settings(ANONYMOUS_PAGE_RATE=None):
        yield


@pytest.fixture(autouse=True)
def no_api_throttle(request: pytest.FixtureRequest):
    """The suite calls the API from one address and a few users: no API throttle here; the
    throttle's own test (tests/platform/test_api.py) turns it on with its own rate."""
    if not django_is_active(request.config):
        yield
        return
    from django.test import override_settings

    with override_settings(API_THROTTLE_RATES={}):
        yield


@pytest.fixture(autouse=True)
def no_account_rate_limits(request: pytest.FixtureRequest):
    """The suite signs up, resets passwords and makes tokens from one address: no account
    limits here; their own tests (tests/platform/test_api_throttle.py) turn them on."""
    if not django_is_active(request.config):
        yield
        return
    from django.test import override_settings

    with override_settings(ACCOUNT_RATE_LIMITS={}):
        yield


@pytest.fixture(autouse=True)
def fast_password_hashing(request: pytest.FixtureRequest):
    """PBKDF2's deliberate slowness protects real passwords, not test users: use MD5 in tests."""
    if not django_is_active(request.config):
        yield
        return
    from django.test import override_settings

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(autouse=True)
def second_factor_for_test_logins(request: pytest.FixtureRequest, monkeypatch):
    """``client.force_login``/``client.login`` skip the password; for people who must log in
    with a second factor (staff in the admin, site moderators, club owners) they skip the code
    too: the session is OTP-verified by a confirmed authenticator (tests/two_factor.py). The
    rule itself is tested through the log-in pages and ``login_without_second_factor``."""
    if not django_is_active(request.config):
        yield
        return
    from django.test.client import ClientMixin

    from tests import two_factor

    plain = ClientMixin._login
    two_factor._plain_login = plain

    def login_with_second_factor(client, user, backend=None):
        plain(client, user, backend)
        if two_factor.needs_second_factor(user):
            two_factor.satisfy_second_factor(client, user)

    monkeypatch.setattr(ClientMixin, "_login", login_with_second_factor)
    yield


def pytest_configure(config: pytest.Config) -> None:
    if django_is_active(config):
        empty_tables_by_delete()


def empty_tables_by_delete() -> None:
    """Transactional tests end with Django's flush, a TRUNCATE of every table: 1.4-1.9 s for
    the 65 tables even when they are empty (PostgreSQL gives each table and index a new
    file), about two seconds after each of the ~270 transactional tests, a third of the
    suite's time. A DELETE of each table in one transaction leaves the same state in ~10 ms:
    Django's foreign keys on PostgreSQL are DEFERRABLE INITIALLY DEFERRED, so the order does
    not matter, and a flush never resets sequences unless asked (then TRUNCATE as before).
    ``tests/platform/test_flush.py`` holds that every foreign key is deferrable."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush
    if getattr(truncate, "deletes", False):
        return

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or not tables:
            return truncate(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        return [f"{style.SQL_KEYWORD('DELETE FROM')} {self.quote_name(t)};" for t in tables]

    sql_flush.deletes = True
    sql_flush.truncate = truncate
    DatabaseOperations.sql_flush = sql_flush


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Marker `redis`: Redis must answer."""
    if item.get_closest_marker("redis") is None:
        return
    if not django_is_active(item.config):
        pytest.fail("tests marked redis need pytest-django (not -p no:django)")
    require_redis()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Stop the embedded servers if this test run started them and nothing else uses them."""
    if not django_is_active(session.config):
        return
    from rosbi_platform import embedded_postgres, embedded_redis

    # Our own connections close only when this process exits, hence detached helpers.
    for socket_path in list(embedded_redis.started_by_this_process):
        embedded_redis.stop_when_idle_in_background(socket_path)
    for data_dir in list(embedded_postgres.started_by_this_process):
        embedded_postgres.stop_when_idle_in_background(data_dir)
