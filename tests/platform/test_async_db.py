"""Reads on the event loop (rosbi_platform/async_db.py) and the handshake's user read on it
(rosbi_platform/ws_auth.py ``session_user_on_loop``), against the real PostgreSQL."""

from __future__ import annotations

import asyncio

import psycopg
import pytest
from channels.auth import get_user
from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test import Client
from django.utils.functional import LazyObject

from rosbi_platform import async_db
from rosbi_platform.db_threads import close_thread_connections
from rosbi_platform.sessions import SessionStore
from rosbi_platform.ws_auth import session_user_on_loop
from tests.games.factories import UserFactory

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def closed_afterwards():
    yield
    close_thread_connections()  # async_db's connections too: the test database can be dropped


def this_loops_connections() -> async_db._LoopConnections:
    return async_db._connections_of_this_loop()


async def test_a_read_returns_its_row_and_reuses_one_connection_in_autocommit():
    assert await async_db.fetch_one("SELECT %s::int + 1", [41]) == (42,)
    assert await async_db.fetch_one("SELECT 1 WHERE false", []) is None
    for _ in range(10):
        await async_db.fetch_one("SELECT 1", [])
    pool = this_loops_connections()
    assert len(pool.idle) == 1 and len(list(pool.opened)) == 1
    # No transaction stays open after a read (a flush or a migration would wait on its locks).
    status = pool.idle[0].info.transaction_status
    assert status == psycopg.pq.TransactionStatus.IDLE


async def test_concurrent_reads_never_hold_more_connections_than_the_setting():
    size = async_db.pool_size()
    rows = await asyncio.gather(
        *(async_db.fetch_one("SELECT pg_backend_pid() FROM pg_sleep(0.05)", []) for _ in range(8))
    )
    assert len({pid for (pid,) in rows}) <= size
    assert len(list(this_loops_connections().opened)) <= size


async def test_a_connection_that_died_is_replaced_and_the_read_answers():
    (pid,) = await async_db.fetch_one("SELECT pg_backend_pid()", [])

    @database_sync_to_async
    def terminate() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])

    await terminate()
    (new_pid,) = await async_db.fetch_one("SELECT pg_backend_pid()", [])
    assert new_pid != pid


async def test_close_all_closes_every_connection():
    await async_db.fetch_one("SELECT 1", [])
    opened = list(this_loops_connections().opened)
    async_db.close_all()
    assert opened and all(c.closed for c in opened)
    assert await async_db.fetch_one("SELECT 2", []) == (2,)  # and the next read reconnects


# ---------------------------------------------------------------- the handshake's user


@database_sync_to_async
def signed_in(**user_fields) -> tuple[object, str]:
    user = UserFactory(**user_fields)
    client = Client()
    client.force_login(user)
    return user, client.cookies[settings.SESSION_COOKIE_NAME].value


def scope_session(key: str | None) -> LazyObject:
    session = LazyObject()
    session._wrapped = SessionStore(key)
    return session


async def test_a_signed_in_session_gives_the_same_user_as_channels_lookup():
    user, key = await signed_in()
    found = await session_user_on_loop(scope_session(key))
    assert found.pk == user.pk and found.profile.pk == user.profile.pk
    expected = await get_user({"session": scope_session(key)})  # Channels' own, on a thread
    assert expected.pk == found.pk


async def test_no_cookie_is_anonymous_without_a_query():
    assert isinstance(await session_user_on_loop(scope_session(None)), AnonymousUser)
    assert not list(this_loops_connections().opened)


async def test_anything_unusual_is_left_to_channels_lookup():
    _, unknown = await signed_in()

    @database_sync_to_async
    def change_password_and_deactivate(key: str) -> tuple[str, str]:
        user, changed = UserFactory(), Client()
        changed.force_login(user)
        user.set_password("another password entirely")
        user.save()  # the session's hash no longer matches
        inactive, idle = UserFactory(), Client()
        idle.force_login(inactive)
        inactive.is_active = False
        inactive.save()
        SessionStore(key).delete()
        return (
            changed.cookies[settings.SESSION_COOKIE_NAME].value,
            idle.cookies[settings.SESSION_COOKIE_NAME].value,
        )

    stale, of_inactive = await change_password_and_deactivate(unknown)
    for key in (unknown, stale, of_inactive, "not-a-session-key"):
        assert await session_user_on_loop(scope_session(key)) is None, key
    # Channels' lookup (the fallback) then finds no user for any of them.
    for key in (stale, of_inactive):
        user = await get_user({"session": scope_session(key)})
        assert isinstance(user, AnonymousUser)
