"""E-mail verification: a new account proves it reads its address before it enters events or
plays rated.

The one question every app asks is ``is_email_verified(user)`` (or, for a refusal sentence,
``email_verification_refusal(user)``). The fact lives on the profile as the address that was
verified (``Profile.verified_email``): the account is verified while that equals the user's
e-mail, so a changed address is unverified again wherever it was changed.

The link carries a value signed by Django's ``django.core.signing`` (HMAC with SECRET_KEY, a
salt of its own and a timestamp): the user and the address it was sent to. It works for
``EMAIL_VERIFICATION_MAX_AGE`` seconds; using it again changes nothing, and a link sent to an
earlier address is refused.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from rosbi_platform.accounts.models import Profile, User
from rosbi_platform.links import absolute_url

SALT = "rosbi.accounts.verify-email"


class VerificationError(Exception):
    """A verification that cannot be done; the message is a sentence for the person."""


def _same_address(first: str, second: str) -> bool:
    return bool(first) and first.strip().lower() == second.strip().lower()


def is_email_verified(user: Any) -> bool:
    """Whether the account's current e-mail address is the one its owner verified."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    profile = Profile.objects.filter(user_id=user.pk).only("verified_email").first()
    return profile is not None and _same_address(profile.verified_email, user.email)


def email_verification_refusal(user: Any) -> str | None:
    """The sentence refusing an unverified account (events, rated play); None when verified."""
    if is_email_verified(user):
        return None
    return _(
        "Confirm your e-mail address first: open the link we sent you (your profile can send "
        "it again)."
    )


def verification_token(user: User) -> str:
    """The signed value of a verification link: this user, this address, now."""
    return signing.dumps({"user": user.pk, "email": user.email.strip().lower()}, salt=SALT)


def verification_url(user: User) -> str:
    return absolute_url(reverse("accounts:verify_email", args=[verification_token(user)]))


def mark_email_verified(user: User) -> Profile:
    """Record the user's current address as verified (the link, and accounts made by staff or
    the demo, whose addresses are known)."""
    with transaction.atomic():
        profile, _created = Profile.objects.select_for_update().get_or_create(user=user)
        if not _same_address(profile.verified_email, user.email):
            profile.verified_email = user.email
            profile.email_verified_at = timezone.now()
            profile.save(update_fields=["verified_email", "email_verified_at"])
    return profile


def verify_email(token: str) -> User:
    """Verify the address a link was sent to; the user. A second use changes nothing."""
    try:
        data = signing.loads(token, salt=SALT, max_age=settings.EMAIL_VERIFICATION_MAX_AGE)
    except signing.SignatureExpired as error:
        raise VerificationError(
            _("This link has expired. Sign in and ask for a new one on your profile.")
        ) from error
    except signing.BadSignature as error:
        raise VerificationError(
            _("This link is not valid. Copy the whole link from the e-mail, or ask for a new one.")
        ) from error
    user = User.objects.filter(pk=data.get("user"), is_active=True).first()
    if user is None:
        raise VerificationError(_("This link is not valid any more."))
    if not _same_address(user.email, data.get("email", "")):
        raise VerificationError(
            _("This link was sent to an earlier e-mail address. Use the newest e-mail we sent.")
        )
    mark_email_verified(user)
    return user


def request_verification_email(user: User, *, throttle: bool = True) -> None:
    """Send the verification link to the user's address, after the commit. Throttled: once per
    ``EMAIL_VERIFICATION_RESEND_SECONDS`` (under the profile's row lock, so two clicks send
    one e-mail)."""
    if not user.email:
        raise VerificationError(_("Your account has no e-mail address to verify."))
    with transaction.atomic():
        profile, _created = Profile.objects.select_for_update().get_or_create(user=user)
        if _same_address(profile.verified_email, user.email):
            raise VerificationError(_("Your e-mail address is already verified."))
        now = timezone.now()
        wait = settings.EMAIL_VERIFICATION_RESEND_SECONDS
        if (
            throttle
            and profile.verification_sent_at is not None
            and (now - profile.verification_sent_at).total_seconds() < wait
        ):
            raise VerificationError(
                _("We have just sent you a link. Wait a minute before asking for another.")
            )
        profile.verification_sent_at = now
        profile.save(update_fields=["verification_sent_at"])
        transaction.on_commit(partial(send_verification_email, user.pk))


def send_verification_email(user_id: int) -> bool:
    """Send the link in the person's language; False when there is nothing to verify."""
    from rosbi_platform.notifications.services import as_recipient

    user = User.objects.filter(pk=user_id).select_related("profile").first()
    if user is None or not user.email or is_email_verified(user):
        return False
    with as_recipient(user):
        subject = _("Rosbi: confirm your e-mail address")
        body = "\n\n".join(
            [
                _("Hello %(name)s,") % {"name": user.get_username()},
                _(
                    "open this link to confirm your e-mail address. Until then you cannot "
                    "enter events or play rated games."
                ),
                verification_url(user),
                _("If you did not sign up at Rosbi, ignore this e-mail."),
            ]
        )
    send_mail(
        subject=subject,
        message=body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        recipient_list=[user.email],
    )
    return True


def change_email(user: User, email: str) -> bool:
    """Give the account a new address; whether it now needs verifying (a link is sent to it).
    Going back to the address that was verified keeps the account verified."""
    if _same_address(user.email, email):
        return False
    with transaction.atomic():
        user.email = email
        user.full_clean(exclude=["password"])
        user.save(update_fields=["email"])
        if is_email_verified(user):
            return False
        request_verification_email(user, throttle=False)
    return True
