"""The profile page's tokens (create: the secret shown once; list with last use; revoke) and
the irreversible bot account switch, in English and German."""

from __future__ import annotations

import pytest
from django.test import Client

from rosbi_platform.accounts.models import AccessToken, Profile
from tests.games.factories import UserFactory

pytestmark = [pytest.mark.django_db]


def logged_in(user, language: str = "en") -> Client:
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    return client


def test_a_token_is_created_shown_once_listed_and_revoked():
    user = UserFactory()
    client = logged_in(user)
    created = client.post(
        "/accounts/profile/tokens/", {"name": "my bot", "scopes": ["read", "play"]}
    )
    assert created.status_code == 200
    secret = created.context["new_secret"]
    assert secret.startswith("rosbi_") and secret in created.content.decode()
    token = AccessToken.objects.get(user=user)
    assert token.scopes == ["read", "play"]

    api = Client(HTTP_AUTHORIZATION=f"Bearer {secret}")
    assert api.get("/api/v1/me").status_code == 200
    page = client.get("/accounts/profile/").content.decode()
    assert secret not in page and "my bot" in page and token.prefix in page
    assert "never" not in page.split("my bot")[1].split("</tr>")[0]

    revoked = client.post(f"/accounts/profile/tokens/{token.pk}/revoke/")
    assert revoked.status_code == 302
    assert api.get("/api/v1/me").status_code == 401


def test_someone_elses_token_cannot_be_revoked_from_the_page():
    owner = UserFactory()
    token = AccessToken.objects.create(
        user=owner, name="x", prefix="rosbi_abc", secret_hash="0" * 64, scopes=["read"]
    )
    logged_in(UserFactory()).post(f"/accounts/profile/tokens/{token.pk}/revoke/")
    assert AccessToken.objects.get(pk=token.pk).revoked_at is None


def test_a_token_without_scopes_is_refused_with_the_field_named():
    client = logged_in(UserFactory())
    response = client.post("/accounts/profile/tokens/", {"name": "nothing"})
    assert response.status_code == 400
    assert response.context["token_form"].errors["scopes"]
    assert not AccessToken.objects.exists()


def test_the_bot_switch_needs_the_confirmation_and_is_for_good():
    user = UserFactory()
    client = logged_in(user)
    client.post("/accounts/profile/bot/", {})
    assert Profile.objects.get(user=user).bot_since is None
    client.post("/accounts/profile/bot/", {"confirm": "on"})
    first = Profile.objects.get(user=user).bot_since
    assert first is not None
    page = client.get("/accounts/profile/").content.decode()
    assert "Make this a bot account" not in page and "Bot account" in page
    client.post("/accounts/profile/bot/", {"confirm": "on"})
    assert Profile.objects.get(user=user).bot_since == first


def test_the_token_section_speaks_german():
    page = logged_in(UserFactory(), "de").get("/accounts/profile/").content.decode()
    assert "Zugangs-Token" in page and "Bot-Konto" in page
