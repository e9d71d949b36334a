"""E-mail verification: new accounts start unverified, the signed link verifies them, and an
unverified account is refused with a sentence (events: tests/tournaments/test_verified_entries.py)."""

from __future__ import annotations

import re

import pytest
from django.core import mail, signing
from django.urls import reverse
from django.utils import translation

from rosbi_platform.accounts import verification
from rosbi_platform.accounts.models import Profile, User
from tests.games.factories import UserFactory

PASSWORD = "unter-ober-koenig-42"
LINK = re.compile(r"https?://\S+/accounts/email/verify/\S+/")


def sign_up(client, username: str = "vera") -> User:
    response = client.post(
        "/accounts/signup/",
        {
            "username": username,
            "email": f"{username}@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302
    return User.objects.get(username=username)


def link_path(message) -> str:
    return "/" + LINK.search(message.body).group(0).split("/", 3)[3]


@pytest.mark.django_db(transaction=True)
def test_sign_up_sends_a_link_that_verifies_the_account(client):
    user = sign_up(client)
    assert not verification.is_email_verified(user)
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["vera@example.com"]

    profile = client.get(reverse("accounts:profile")).content.decode()
    assert 'data-ref="verify-email-notice"' in profile
    assert "We sent a link to vera@example.com" in profile

    page = client.get(link_path(mail.outbox[0]))
    assert page.status_code == 200 and "is confirmed" in page.content.decode()
    assert verification.is_email_verified(user)
    assert (
        'data-ref="verify-email-notice"'
        not in client.get(reverse("accounts:profile")).content.decode()
    )

    # Opening it again changes nothing and still says so.
    again = client.get(link_path(mail.outbox[0]))
    assert again.status_code == 200 and verification.is_email_verified(user)


@pytest.mark.django_db
def test_a_tampered_or_expired_link_is_refused_and_verifies_nothing(client, settings):
    user = UserFactory(unverified=True)
    token = verification.verification_token(user)

    tampered = client.get(reverse("accounts:verify_email", args=[token[:-2] + "xy"]))
    assert tampered.status_code == 400 and "not valid" in tampered.content.decode()
    forged = signing.dumps({"user": user.pk, "email": user.email}, salt="some other purpose")
    assert client.get(reverse("accounts:verify_email", args=[forged])).status_code == 400

    settings.EMAIL_VERIFICATION_MAX_AGE = -1
    expired = client.get(reverse("accounts:verify_email", args=[token]))
    assert expired.status_code == 400 and "expired" in expired.content.decode()
    assert not verification.is_email_verified(user)


@pytest.mark.django_db
def test_changing_the_address_unverifies_and_an_old_link_no_longer_works(client):
    user = UserFactory()
    assert verification.is_email_verified(user)
    old_link = verification.verification_token(user)
    client.force_login(user)

    response = client.post(
        reverse("accounts:profile_edit"),
        {
            "display_name": "Vera",
            "card_look": "german",
            "language": "en",
            "time_zone": "Europe/Berlin",
            "email": "new@example.com",
        },
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.email == "new@example.com" and not verification.is_email_verified(user)

    with pytest.raises(verification.VerificationError, match="earlier e-mail address"):
        verification.verify_email(old_link)
    verification.verify_email(verification.verification_token(user))
    assert verification.is_email_verified(user)

    # Changed anywhere else (the admin): unverified the same way.
    User.objects.filter(pk=user.pk).update(email="third@example.com")
    user.refresh_from_db()
    assert not verification.is_email_verified(user)


@pytest.mark.django_db(transaction=True)
def test_resending_is_throttled(client):
    user = UserFactory(unverified=True)
    client.force_login(user)
    client.post(reverse("accounts:resend_verification"))
    second = client.post(reverse("accounts:resend_verification"), follow=True)
    assert "Wait a minute" in second.content.decode()
    assert len(mail.outbox) == 1 and mail.outbox[0].to == [user.email]

    Profile.objects.filter(user=user).update(verification_sent_at=None)
    client.post(reverse("accounts:resend_verification"))
    assert len(mail.outbox) == 2


@pytest.mark.django_db
def test_the_refusal_is_a_sentence_in_the_persons_language():
    assert verification.email_verification_refusal(UserFactory()) is None
    unverified = UserFactory(unverified=True)
    assert "Confirm your e-mail address" in verification.email_verification_refusal(unverified)
    with translation.override("de"):
        assert "E-Mail-Adresse" in verification.email_verification_refusal(unverified)
