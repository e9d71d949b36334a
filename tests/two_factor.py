"""Test helpers for two-factor log-in (django-otp).

Site moderators and club owners must log in with a second factor, and the Django admin asks
everyone for one. Tests that sign such a person in with ``client.force_login`` (or
``client.login``) skip the password step on purpose; the autouse fixture
``second_factor_for_test_logins`` (tests/conftest.py) makes them skip the code step the same
way: the person gets a confirmed authenticator and the session is OTP-verified, as after a real
log-in with a code. Tests of the rule itself sign in with ``login_without_second_factor`` or
through the log-in pages.
"""

from __future__ import annotations

import time
from typing import Any

from django_otp import DEVICE_ID_SESSION_KEY
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice

_plain_login: Any = None  # Django's own ClientMixin._login, kept by the fixture


def authenticator_of(user: Any) -> TOTPDevice:
    """The person's confirmed authenticator, made when they have none."""
    device = TOTPDevice.objects.filter(user=user, confirmed=True).first()
    return device or TOTPDevice.objects.create(user=user, name="authenticator", confirmed=True)


def totp_code(device: TOTPDevice, *, steps_ahead: int = 0) -> str:
    """The code the person's app shows (``steps_ahead`` periods later: a code is accepted once,
    and the next period's within the tolerance of one step)."""
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    totp.time = time.time() + steps_ahead * device.step
    return f"{totp.token():0{device.digits}d}"


def needs_second_factor(user: Any) -> bool:
    from rosbi_platform.accounts.two_factor import must_use_two_factor

    return bool(user.is_staff) or must_use_two_factor(user)


def satisfy_second_factor(client: Any, user: Any) -> TOTPDevice:
    """Mark the client's signed-in session as verified by the person's authenticator."""
    device = authenticator_of(user)
    session = client.session
    session[DEVICE_ID_SESSION_KEY] = device.persistent_id
    session.save()
    return device


def login_without_second_factor(client: Any, user: Any) -> None:
    """``client.force_login`` as Django does it: the session has passed no second factor."""
    _plain_login(client, user, "rosbi_platform.accounts.backends.ModelBackend")
