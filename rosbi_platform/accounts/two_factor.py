"""Two-factor log-in: a TOTP authenticator app plus one-time recovery codes (django-otp).

Every player may turn it on; site moderators and club owners must (``must_use_two_factor``,
enforced by ``middleware.TwoFactorRequiredMiddleware``). The secrets, codes, their checking and
the throttling of wrong codes (exponential back-off per device) are django-otp's; this module
only decides who must, and keeps the steps (set up, confirm, new recovery codes, turn off,
reset by an operator) in one place for the pages and the ``reset_two_factor`` command.
"""

from __future__ import annotations

import base64
from typing import Any

import qrcode
import qrcode.image.svg
from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _
from django_otp import verify_token
from django_otp.models import Device
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from rosbi_platform.accounts.permissions import is_site_moderator
from rosbi_platform.accounts.selectors import owns_any_club

AUTHENTICATOR_NAME = "authenticator"
RECOVERY_NAME = "recovery codes"


class TwoFactorError(Exception):
    """A two-factor step that cannot be done; the message is a sentence for the person."""


def must_use_two_factor(user: Any) -> bool:
    """Site moderators and club owners must log in with a second factor."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return is_site_moderator(user) or owns_any_club(user)


def has_two_factor(user: Any) -> bool:
    """Whether the person has a confirmed authenticator (then every log-in asks for a code)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return TOTPDevice.objects.filter(user_id=user.pk, confirmed=True).exists()


def pending_authenticator(user: Any) -> TOTPDevice:
    """The authenticator being set up (not confirmed yet): a new secret the first time, the
    same one on every reload of the set-up page."""
    if has_two_factor(user):
        raise TwoFactorError(_("Two-factor log-in is already on."))
    device = TOTPDevice.objects.filter(user_id=user.pk, confirmed=False).order_by("pk").first()
    if device is None:
        device = TOTPDevice.objects.create(user=user, name=AUTHENTICATOR_NAME, confirmed=False)
    return device


def secret_text(device: TOTPDevice) -> str:
    """The secret as authenticator apps take it typed in (base32, in groups of four)."""
    secret = base64.b32encode(device.bin_key).decode("ascii").rstrip("=")
    return " ".join(secret[i : i + 4] for i in range(0, len(secret), 4))


def qr_code_svg(device: TOTPDevice) -> str:
    """The set-up link as an inline SVG QR code (drawn here: the secret never leaves)."""
    image = qrcode.make(device.config_url, image_factory=qrcode.image.svg.SvgPathImage)
    return image.to_string(encoding="unicode")


def _normalised(code: str) -> str:
    return "".join(str(code).split()).replace("-", "").lower()


def _new_recovery_codes(user: Any) -> list[str]:
    """Replace the person's recovery codes with new ones; the plain codes, shown once."""
    device, _created = StaticDevice.objects.get_or_create(
        user=user, name=RECOVERY_NAME, defaults={"confirmed": True}
    )
    device.token_set.all().delete()
    codes = [StaticToken.random_token() for _ in range(settings.TWO_FACTOR_RECOVERY_CODES)]
    StaticToken.objects.bulk_create([StaticToken(device=device, token=code) for code in codes])
    return codes


def confirm_authenticator(user: Any, code: str) -> tuple[TOTPDevice, list[str]]:
    """Turn two-factor log-in on once the app shows the right code; the device and the new
    recovery codes."""
    with transaction.atomic():
        device = (
            TOTPDevice.objects.select_for_update()
            .filter(user_id=user.pk, confirmed=False)
            .order_by("pk")
            .first()
        )
        if device is None or has_two_factor(user):
            raise TwoFactorError(_("Start the set-up again: there is nothing to confirm."))
        if not device.verify_token(_normalised(code)):
            raise TwoFactorError(
                _("That code is not right. Check the clock of your phone and try the next code.")
            )
        device.confirmed = True
        device.save(update_fields=["confirmed"])
        TOTPDevice.objects.filter(user_id=user.pk, confirmed=False).delete()
        codes = _new_recovery_codes(user)
    return device, codes


def check_code(user: Any, code: str) -> Device | None:
    """The device that accepts this code (an authenticator code, or a recovery code, which is
    used up), or None. Each device throttles wrong codes (django-otp's exponential back-off)."""
    code = _normalised(code)
    if not code:
        return None
    # App codes are six digits; recovery codes are eight characters (base32).
    devices = TOTPDevice if code.isdigit() and len(code) == 6 else StaticDevice
    for device in devices.objects.filter(user_id=user.pk, confirmed=True).order_by("pk"):
        verified = verify_token(user, device.persistent_id, code)
        if verified is not None:
            return verified
    return None


def regenerate_recovery_codes(user: Any) -> list[str]:
    """New recovery codes (the old ones stop working); only with two-factor log-in on."""
    with transaction.atomic():
        if not has_two_factor(user):
            raise TwoFactorError(_("Turn two-factor log-in on first."))
        return _new_recovery_codes(user)


def remaining_recovery_codes(user: Any) -> int:
    return StaticToken.objects.filter(device__user_id=user.pk, device__confirmed=True).count()


def disable_two_factor(user: Any, code: str) -> None:
    """Turn two-factor log-in off with a current code; not for those who must use it."""
    if must_use_two_factor(user):
        raise TwoFactorError(_("Site moderators and club owners must keep two-factor log-in on."))
    if check_code(user, code) is None:
        raise TwoFactorError(_("That code is not right."))
    reset_two_factor(user)


def reset_two_factor(user: Any) -> int:
    """Remove every authenticator and recovery code of the person (they lost their phone and
    codes; an operator runs ``manage.py reset_two_factor``). How many devices went."""
    with transaction.atomic():
        removed = 0
        for model in (TOTPDevice, StaticDevice):
            _count, per_model = model.objects.filter(user_id=user.pk).delete()
            removed += per_model.get(model._meta.label, 0)
    return removed


def two_factor_export(user: Any) -> dict[str, Any]:
    """Two-factor log-in's part of "download my data": which devices exist and when they were
    last used, never a key or a recovery code (they are secrets, not data about the person)."""
    return {
        "authenticators": list(
            TOTPDevice.objects.filter(user_id=user.pk)
            .order_by("pk")
            .values("name", "confirmed", "created_at", "last_used_at")
        ),
        "recovery_codes_left": remaining_recovery_codes(user),
    }
