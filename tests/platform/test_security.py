"""Hardening: log-in throttling, the client address behind proxies, the content security policy."""

from __future__ import annotations

import time

import pytest
from django.test import override_settings

from rosbi_platform.accounts.models import User
from rosbi_platform.client_ip import address_from

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-right-password-1"


def log_in(client, username: str, password: str, address: str = "198.51.100.7", **extra):
    return client.post(
        "/accounts/login/",
        {"username": username, "password": password},
        REMOTE_ADDR=address,
        **extra,
    )


def test_five_wrong_passwords_lock_that_name_at_that_address_even_for_the_right_one(client):
    User.objects.create_user("victim", password=PASSWORD)
    for _ in range(4):
        assert log_in(client, "victim", "wrong").status_code == 200  # the form again
    assert log_in(client, "victim", "wrong").status_code == 429, "the fifth failure locks"
    locked = log_in(client, "victim", PASSWORD)

    assert locked.status_code == 429
    assert "Too many failed log-ins" in locked.content.decode()
    assert "_auth_user_id" not in client.session


def test_a_lock_out_never_blocks_the_owner_logging_in_from_elsewhere(client):
    """Issue 25, defect 6: five wrong passwords for dieter from one address locked dieter's
    right password from every other address, so anyone could lock anyone out."""
    User.objects.create_user("dieter", password=PASSWORD)
    for _ in range(3):  # repeatably: the attacker keeps trying at address A
        for _ in range(6):
            log_in(client, "dieter", "wrong", address="198.51.100.66")
        assert log_in(client, "dieter", PASSWORD, address="198.51.100.66").status_code == 429

        at_home = log_in(client, "dieter", PASSWORD, address="203.0.113.9")
        assert at_home.status_code == 302, "dieter logs in from address B"
        assert client.session["_auth_user_id"] == str(User.objects.get(username="dieter").pk)
        client.logout()


def test_one_address_trying_many_accounts_is_locked(client, settings):
    limit = settings.LOGIN_FAILURE_LIMITS["address"]
    assert limit > settings.LOGIN_FAILURE_LIMITS["pair"]
    for n in range(limit):
        # Fewer than the pair limit per name: only the address's count can lock.
        log_in(client, f"player{n % 5}-{n // 5}", "wrong", address="192.0.2.66")
    User.objects.create_user("fresh", password=PASSWORD)

    assert log_in(client, "fresh", PASSWORD, address="192.0.2.66").status_code == 429
    other = log_in(client, "fresh", PASSWORD, address="192.0.2.67")
    assert other.status_code == 302, "another address logs in normally"


def test_an_address_is_not_locked_below_its_own_limit(client, settings):
    User.objects.create_user("mine", password=PASSWORD)
    for n in range(settings.LOGIN_FAILURE_LIMITS["address"] - 2):
        log_in(client, f"guess{n}", "wrong", address="192.0.2.70")
    assert log_in(client, "mine", PASSWORD, address="192.0.2.70").status_code == 302


def test_a_right_password_does_not_reset_the_address_count(client, settings):
    """A guesser with an account of their own cannot wipe the address's count by logging in
    between guesses."""
    User.objects.create_user("guesser", password=PASSWORD)
    for n in range(settings.LOGIN_FAILURE_LIMITS["address"] - 1):
        log_in(client, f"someone{n}", "wrong", address="192.0.2.80")
        if n % 4 == 3:
            assert log_in(client, "guesser", PASSWORD, address="192.0.2.80").status_code == 302
            client.logout()
    log_in(client, "someone-last", "wrong", address="192.0.2.80")
    assert log_in(client, "guesser", PASSWORD, address="192.0.2.80").status_code == 429


def test_a_huge_user_name_is_a_wrong_log_in_not_a_failure(client):
    """Issue 25, defect 9: a 100,000-character user name answered 500 (axes stored it)."""
    answer = log_in(client, "x" * 100_000, "whatever")
    assert answer.status_code == 200
    assert "Please enter a correct username and password" in answer.content.decode()


def test_the_lock_out_page_speaks_german(client):
    User.objects.create_user("spieler", password=PASSWORD)
    client.cookies["django_language"] = "de"
    for _ in range(5):
        log_in(client, "spieler", "falsch")
    page = log_in(client, "spieler", PASSWORD).content.decode()

    assert "Zu viele fehlgeschlagene Anmeldungen" in page
    assert "15 Minuten gesperrt" in page


def test_a_right_password_resets_the_count(client):
    User.objects.create_user("forgetful", password=PASSWORD)
    for _ in range(4):
        log_in(client, "forgetful", "wrong")
    assert log_in(client, "forgetful", PASSWORD).status_code == 302
    client.logout()
    for _ in range(4):
        log_in(client, "forgetful", "wrong")
    assert log_in(client, "forgetful", PASSWORD).status_code == 302


@pytest.mark.parametrize(
    ("remote", "forwarded", "trusted", "expected"),
    [
        # Straight from the internet: a forged header changes nothing.
        ("203.0.113.5", "1.2.3.4", [], "203.0.113.5"),
        ("203.0.113.5", "1.2.3.4", ["172.28.0.10"], "203.0.113.5"),
        # Through our proxy: the address it appended, not what the client wrote before it.
        ("172.28.0.10", "1.2.3.4, 203.0.113.5", ["172.28.0.10"], "203.0.113.5"),
        # Two proxies of ours (a network): skip both.
        ("10.0.0.2", "203.0.113.5, 10.0.0.3", ["10.0.0.0/24"], "203.0.113.5"),
        # Our proxy but no header, or garbage in it: the proxy's own address.
        ("172.28.0.10", "", ["172.28.0.10"], "172.28.0.10"),
        ("172.28.0.10", "not-an-ip", ["172.28.0.10"], "172.28.0.10"),
        ("2001:db8::1", "", [], "2001:db8::1"),
        ("", "1.2.3.4", [], None),
    ],
)
def test_the_client_address_believes_only_trusted_proxies(remote, forwarded, trusted, expected):
    meta = {"REMOTE_ADDR": remote, "HTTP_X_FORWARDED_FOR": forwarded}
    assert address_from(meta, trusted) == expected


@override_settings(TRUSTED_PROXIES=("172.28.0.10/32",))
def test_throttling_counts_the_real_client_behind_the_proxy(client):
    User.objects.create_user("behindproxy", password=PASSWORD)
    for n in range(5):
        log_in(
            client,
            "behindproxy",
            "wrong",
            address="172.28.0.10",
            HTTP_X_FORWARDED_FOR=f"198.51.100.{n}, 192.0.2.99",
        )
    # A forged left-hand address does not help: the proxy saw 192.0.2.99 every time.
    blocked = log_in(
        client, "behindproxy", PASSWORD, address="172.28.0.10", HTTP_X_FORWARDED_FOR="192.0.2.99"
    )
    assert blocked.status_code == 429
    elsewhere = log_in(
        client, "behindproxy", PASSWORD, address="172.28.0.10", HTTP_X_FORWARDED_FOR="192.0.2.98"
    )
    assert elsewhere.status_code == 302, "the real client elsewhere is not locked"


@pytest.mark.parametrize("path", ["/", "/lobby/", "/rules/", "/accounts/login/", "/ladder/"])
def test_pages_carry_a_strict_content_security_policy(client, path):
    response = client.get(path)
    policy = response["Content-Security-Policy"]
    directives = dict(
        (part.split()[0], part.split()[1:]) for part in policy.split(";") if part.strip()
    )

    assert directives["script-src"] == ["'self'"], "no inline or eval'd scripts"
    assert directives["object-src"] == ["'none'"]
    assert directives["frame-ancestors"] == ["'none'"]
    body = response.content.decode()
    for tag in body.split("<script")[1:]:
        opening = tag.split(">", 1)[0]
        assert "src=" in opening or "application/json" in opening, f"inline script: {opening}"
    assert " onclick=" not in body and "javascript:" not in body


def test_an_anonymous_flood_of_an_expensive_page_gets_429_and_players_do_not(
    client, settings, monkeypatch
):
    import types

    import django_ratelimit.core
    from django.core.cache import cache

    settings.ANONYMOUS_PAGE_RATE = "3/m"
    cache.clear()
    # django-ratelimit counts in fixed windows of the clock: requests that straddled a window's
    # end were counted afresh and all answered (a CI run saw five 200s). Its clock stands still.
    now = time.time()
    monkeypatch.setattr(django_ratelimit.core, "time", types.SimpleNamespace(time=lambda: now))
    answers = [client.get("/ladder/", REMOTE_ADDR="203.0.113.50").status_code for _ in range(5)]
    assert answers == [200, 200, 200, 429, 429]
    refused = client.get("/ladder/", REMOTE_ADDR="203.0.113.50")
    assert refused["Retry-After"] == "60"
    assert "Too many requests" in refused.content.decode()
    assert client.get("/ladder/", REMOTE_ADDR="203.0.113.51").status_code == 200, "per address"
    assert client.get("/rules/", REMOTE_ADDR="203.0.113.50").status_code == 200, "cheap page"
    User.objects.create_user("regular", password=PASSWORD)
    client.force_login(User.objects.get(username="regular"))
    assert client.get("/ladder/", REMOTE_ADDR="203.0.113.50").status_code == 200


def test_huge_sign_up_and_password_reset_fields_are_form_errors(client):
    huge = "x" * 100_000
    sign_up = client.post(
        "/accounts/signup/",
        {"username": huge, "email": huge, "password1": huge, "password2": huge},
    )
    assert sign_up.status_code == 200
    assert "at most 150 characters" in sign_up.content.decode()
    assert not User.objects.exists()
    reset = client.post("/accounts/password/reset/", {"email": huge + "@example.org"})
    assert reset.status_code == 200
    assert "at most 254 characters" in reset.content.decode()


@override_settings(SITE_URL="https://rosbi.example.org")
def test_security_txt_names_the_contact_and_a_future_expiry(client):
    """RFC 9116: a finder of a problem reads where to report it at a fixed address."""
    import datetime as dt

    from django.utils import timezone

    response = client.get("/.well-known/security.txt")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    fields = dict(line.split(": ", 1) for line in response.content.decode().splitlines())
    assert fields["Contact"] == "mailto:security@rosbi.example.org"
    assert fields["Canonical"] == "https://rosbi.example.org/.well-known/security.txt"
    expires = dt.datetime.strptime(fields["Expires"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.UTC)
    assert (
        timezone.now() + dt.timedelta(days=300) < expires < timezone.now() + dt.timedelta(days=366)
    )
