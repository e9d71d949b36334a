"""The API throttle: one Redis counter per client and window, shared by every web process,
a ``Retry-After`` up to the window's end, and requests let through when Redis is down."""

from __future__ import annotations

import pytest
import redis
from django.core.cache import cache
from django.test import override_settings
from redis.backoff import NoBackoff
from redis.retry import Retry

from rosbi_platform import redis_clients
from rosbi_platform.api import ApiThrottle
from tests.api_clients import assert_error, token_client
from tests.games.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock(monkeypatch):
    """The throttle's clock, set by the test (a window starts at a multiple of its length)."""
    now = {"t": 1_800_000_000.0}  # a multiple of 60: a minute window starts here
    monkeypatch.setattr(ApiThrottle, "timer", lambda self: now["t"])
    return now


@override_settings(API_THROTTLE_RATES={"token": "3/min"})
def test_a_window_allows_the_rate_then_refuses_until_it_ends(clock):
    client = token_client(UserFactory(), ["read"])
    assert [client.get("/api/v1/me").status_code for _ in range(3)] == [200, 200, 200]
    clock["t"] += 20
    refused = client.get("/api/v1/me")
    assert_error(refused, 429, "throttled")
    assert refused["Retry-After"] == "40"  # the rest of the minute
    clock["t"] += 40  # the next window
    assert client.get("/api/v1/me").status_code == 200


@override_settings(API_THROTTLE_RATES={"token": "2/min"})
def test_two_programs_with_one_token_share_its_count_but_not_anothers(clock):
    user = UserFactory()
    first = token_client(user, ["read"])
    same_token = token_client(user, ["read"])
    same_token.credentials(HTTP_AUTHORIZATION=first._credentials["HTTP_AUTHORIZATION"])
    other_token = token_client(user, ["read"])
    assert first.get("/api/v1/me").status_code == 200
    assert same_token.get("/api/v1/me").status_code == 200
    assert same_token.get("/api/v1/me").status_code == 429
    assert other_token.get("/api/v1/me").status_code == 200


@override_settings(API_THROTTLE_RATES={"token": "1/min"})
def test_the_api_answers_when_redis_does_not(clock, monkeypatch):
    client = token_client(UserFactory(), ["read"])
    unreachable = redis.Redis(
        port=1, socket_timeout=0.2, socket_connect_timeout=0.2, retry=Retry(NoBackoff(), 0)
    )
    monkeypatch.setattr(redis_clients, "shared_client", lambda: unreachable)
    monkeypatch.setattr("rosbi_platform.api.shared_client", lambda: unreachable)
    assert [client.get("/api/v1/me").status_code for _ in range(3)] == [200, 200, 200]


def test_the_cache_reuses_one_redis_client_per_pool():
    client = cache._cache.get_client(write=True)
    assert cache._cache.get_client(write=True) is client
    cache.set("reuse-check", 41)
    assert cache.get("reuse-check") == 41
    assert cache.incr("reuse-check") == 42
