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


# ------------------------------------------------ account actions (issue 25, defect 9)


@pytest.fixture
def account_limits(settings, monkeypatch):
    """The account limits on, with small rates, and django-ratelimit's clock standing still
    (it counts in fixed windows of the clock)."""
    import time
    import types

    import django_ratelimit.core

    now = time.time()
    monkeypatch.setattr(django_ratelimit.core, "time", types.SimpleNamespace(time=lambda: now))
    cache.clear()
    settings.ACCOUNT_RATE_LIMITS = {
        "invalid_token": "3/m",
        "password_reset_address": "3/h",
        "password_reset_email": "2/h",
        "signup": "2/h",
        "token_create": "2/h",
    }
    return settings.ACCOUNT_RATE_LIMITS


def test_invalid_tokens_are_throttled_per_address(account_limits):
    from rest_framework.test import APIClient

    guesser = APIClient(REMOTE_ADDR="198.51.100.20")
    guesser.credentials(HTTP_AUTHORIZATION="Bearer rosbi_guess")
    assert [guesser.get("/api/v1/me").status_code for _ in range(3)] == [401, 401, 401]
    refused = guesser.get("/api/v1/me")
    assert_error(refused, 429, "throttled")
    assert int(refused["Retry-After"]) > 0
    # Past the limit even a right token from that address waits: guessing gains nothing.
    user = UserFactory()
    right = token_client(user, ["read"])
    right.defaults["REMOTE_ADDR"] = "198.51.100.20"
    assert right.get("/api/v1/me").status_code == 429
    right.defaults["REMOTE_ADDR"] = "198.51.100.21"
    assert right.get("/api/v1/me").status_code == 200, "other addresses are not affected"


def test_password_resets_are_throttled_per_address_and_per_e_mail(account_limits, client):
    from django.core import mail

    from rosbi_platform.accounts.models import User

    User.objects.create_user("resetme", email="resetme@example.org", password="x-long-pw-1")
    answers = [
        client.post(
            "/accounts/password/reset/",
            {"email": "ResetMe@example.org"},
            REMOTE_ADDR=f"203.0.113.{n}",
        ).status_code
        for n in range(4)
    ]
    assert answers == [302, 302, 302, 302], "the page never tells whether the limit was hit"
    assert len(mail.outbox) == 2, "at most two mails an hour to one address"

    for _ in range(3):
        client.post(
            "/accounts/password/reset/", {"email": "a@example.org"}, REMOTE_ADDR="192.0.2.5"
        )
    refused = client.post(
        "/accounts/password/reset/", {"email": "b@example.org"}, REMOTE_ADDR="192.0.2.5"
    )
    assert refused.status_code == 429


def test_sign_ups_are_throttled_per_address(account_limits, client):
    def sign_up(n: int, address: str):
        return client.post(
            "/accounts/signup/",
            {
                "username": f"newcomer{n}",
                "email": f"newcomer{n}@example.org",
                "password1": "a-long-right-password-1",
                "password2": "a-long-right-password-1",
            },
            REMOTE_ADDR=address,
        )

    assert sign_up(1, "192.0.2.30").status_code == 302
    client.logout()
    assert sign_up(2, "192.0.2.30").status_code == 302
    client.logout()
    assert sign_up(3, "192.0.2.30").status_code == 429
    assert sign_up(4, "192.0.2.31").status_code == 302


def test_token_creation_is_throttled_per_user(account_limits, client):
    from rosbi_platform.accounts.models import AccessToken

    user = UserFactory()
    client.force_login(user)
    answers = [
        client.post("/accounts/profile/tokens/", {"name": f"bot {n}", "scopes": ["read"]})
        for n in range(3)
    ]
    assert [answer.status_code for answer in answers] == [200, 200, 429]
    assert "many tokens in a short time" in answers[-1].content.decode()
    assert AccessToken.objects.filter(user=user).count() == 2
