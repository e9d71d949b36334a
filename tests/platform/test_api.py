"""API v1 basics: personal access tokens (hash only, scopes, last use, revocation), session
clients with CSRF, the one error shape, throttling with a 429, and the OpenAPI schema."""

from __future__ import annotations

import datetime as dt
import hashlib

import pytest
import yaml
from django.core.management import call_command
from django.test import override_settings
from django.utils import timezone

from rosbi_platform.accounts import tokens
from rosbi_platform.accounts.models import AccessToken
from tests.api_clients import assert_error, session_client, token_client
from tests.games.factories import UserFactory

pytestmark = [pytest.mark.django_db]


def test_a_token_is_stored_as_a_hash_and_shown_once():
    user = UserFactory()
    new = tokens.create_token(user, "my bot", ["play", "read"])

    assert new.secret.startswith("rosbi_") and len(new.secret) > 40
    stored = AccessToken.objects.get(pk=new.token.pk)
    assert stored.secret_hash == hashlib.sha256(new.secret.encode()).hexdigest()
    assert new.secret not in str(AccessToken.objects.filter(pk=stored.pk).values().get())
    assert stored.scopes == ["read", "play"]
    assert tokens.authenticate_token(new.secret).user == user
    assert tokens.authenticate_token(new.secret[:-1] + "x") is None


@pytest.mark.parametrize(
    ("name", "scopes"), [("", ["read"]), ("bot", []), ("bot", ["admin"]), ("x" * 61, ["read"])]
)
def test_a_token_needs_a_name_and_known_scopes(name, scopes):
    with pytest.raises(tokens.TokenError):
        tokens.create_token(UserFactory(), name, scopes)
    assert not AccessToken.objects.exists()


def test_last_use_is_written_at_most_once_a_minute():
    new = tokens.create_token(UserFactory(), "bot", ["read"])
    tokens.authenticate_token(new.secret)
    first = AccessToken.objects.get(pk=new.token.pk).last_used_at
    assert first is not None
    tokens.authenticate_token(new.secret)
    assert AccessToken.objects.get(pk=new.token.pk).last_used_at == first
    AccessToken.objects.filter(pk=new.token.pk).update(
        last_used_at=timezone.now() - dt.timedelta(minutes=2)
    )
    tokens.authenticate_token(new.secret)
    assert AccessToken.objects.get(pk=new.token.pk).last_used_at > first


def test_the_lookup_loads_the_token_its_user_and_profile_in_one_statement(
    django_assert_num_queries,
):
    user = UserFactory()
    user.profile.display_name = "Anna Ä."
    user.profile.save()
    new = tokens.create_token(user, "bot", ["read", "play"])
    AccessToken.objects.filter(pk=new.token.pk).update(last_used_at=timezone.now())

    with django_assert_num_queries(1):
        token = tokens.authenticate_token(new.secret)
        assert token.pk == new.token.pk and token.scopes == ["read", "play"]
        assert token.user.pk == user.pk and token.user.profile.display_name == "Anna Ä."
        assert token.last_used_at.tzinfo is not None and token.created_at == new.token.created_at


def test_an_inactive_users_token_and_a_revoked_one_are_refused():
    active = tokens.create_token(UserFactory(), "bot", ["read"])
    inactive_user = UserFactory()
    inactive = tokens.create_token(inactive_user, "bot", ["read"])
    inactive_user.is_active = False
    inactive_user.save()
    tokens.revoke_token(active.token.user, active.token.pk)

    assert tokens.authenticate_token(active.secret) is None
    assert tokens.authenticate_token(inactive.secret) is None
    assert tokens.authenticate_token("not-a-token") is None


def test_the_bearer_token_authenticates_and_a_revoked_one_is_refused():
    user = UserFactory()
    client = token_client(user, ["read"])
    me = client.get("/api/v1/me")
    assert me.status_code == 200
    assert me.json() == {
        "user_id": user.pk,
        "username": user.username,
        "name": user.profile.display_name,
        "bot": False,
        "scopes": ["read"],
    }
    token = AccessToken.objects.get(user=user)
    assert tokens.revoke_token(user, token.pk) is True
    assert tokens.revoke_token(user, token.pk) is False
    body = assert_error(client.get("/api/v1/me"), 401, "authentication_failed")
    assert "revoked" in body["detail"]


def test_only_the_owner_revokes_a_token():
    owner, other = UserFactory(), UserFactory()
    token = tokens.create_token(owner, "bot", ["read"]).token
    with pytest.raises(tokens.TokenError):
        tokens.revoke_token(other, token.pk)
    assert AccessToken.objects.get(pk=token.pk).revoked_at is None


def test_without_credentials_an_action_is_a_401_not_a_redirect():
    response = session_client().post("/api/v1/tables", {}, format="json")
    body = assert_error(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert "token" in body["detail"]


def test_a_token_without_the_scope_is_refused():
    client = token_client(UserFactory(), ["read"])
    body = assert_error(client.post("/api/v1/tables", {}, format="json"), 403)
    assert "play" in body["detail"]
    assert client.get("/api/v1/tables").status_code == 200
    write_only = token_client(UserFactory(), ["play"])
    assert "read" in assert_error(write_only.get("/api/v1/tables"), 403)["detail"]


def test_a_session_client_needs_the_csrf_token_for_writes():
    user = UserFactory()
    client = session_client(user, csrf=True)
    assert client.get("/api/v1/me").status_code == 200
    refused = client.post("/api/v1/tables", {"size": 3}, format="json")
    assert "CSRF" in assert_error(refused, 403)["detail"]
    # A program with a token needs no CSRF token.
    assert token_client(user).post("/api/v1/tables", {"size": 3}, format="json").status_code == 201


def test_invalid_input_names_the_field():
    client = token_client(UserFactory())
    body = assert_error(client.post("/api/v1/tables", {"size": 9}, format="json"), 400, "invalid")
    assert list(body["errors"]) == ["size"]
    assert body["errors"]["size"][0] in body["detail"]
    assert_error(client.get("/api/v1/tables/999999"), 404, "not_found")
    assert_error(client.get("/api/v1/no-such-thing"), 404, "not_found")
    assert_error(client.post("/api/v1/tables", "{not json", content_type="application/json"), 400)


@override_settings(API_THROTTLE_RATES={"token": "3/min"})
def test_a_token_over_its_rate_gets_a_429_in_the_error_shape():
    client = token_client(UserFactory(), ["read"])
    for _ in range(3):
        assert client.get("/api/v1/me").status_code == 200
    response = client.get("/api/v1/me")
    body = assert_error(response, 429, "throttled")
    assert int(response["Retry-After"]) > 0
    assert "try again" in body["detail"]


def test_the_schema_has_no_warnings_and_the_docs_are_served(tmp_path):
    call_command(
        "spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yml")
    )
    text = (tmp_path / "schema.yml").read_text()
    assert "/api/v1/tables/{id}/join" in text and "tokenAuth" in text
    operations = {
        f"{method.upper()} {path}": operation
        for path, methods in yaml.safe_load(text)["paths"].items()
        for method, operation in methods.items()
    }
    assert len(operations) > 30
    undescribed = [name for name, op in operations.items() if not op.get("summary")]
    without_examples = [name for name, op in operations.items() if "'examples'" not in str(op)]
    assert undescribed == [] and without_examples == []
    client = session_client()
    assert client.get("/api/docs/").status_code == 200
    assert client.get("/api/redoc/").status_code == 200


# ------------------------------------------------------------- issue 25, defects 9 and 10


def test_json_nested_too_deeply_is_a_400_not_a_500():
    client = token_client(UserFactory())
    for path in ("/api/v1/tables", "/api/v1/tables/1/join"):
        response = client.post(path, "[" * 100_000, content_type="application/json")
        body = assert_error(response, 400, "parse_error")
        assert "nested too deeply" in body["detail"]


def test_a_body_over_the_upload_limit_is_a_413_for_the_api_and_for_pages(client, settings):
    api = token_client(UserFactory())
    big = '{"name": "' + "x" * (3 * 1024 * 1024) + '"}'
    body = assert_error(
        api.post("/api/v1/tables", big, content_type="application/json"), 413, "too_large"
    )
    assert f"{settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 1024} kB" in body["detail"]

    page = client.post("/accounts/signup/", {"username": "x", "password1": "p" * 3_000_000})
    assert page.status_code == 413
    assert "too large" in page.content.decode()


@pytest.mark.parametrize("debug", [False, True])
def test_api_404s_are_json_and_pages_keep_their_html(client, debug):
    with override_settings(DEBUG=debug):
        for path in ("/api/v1/no-such-thing", "/api/v2/tables", "/api/", "/api/v1/tables/1/x"):
            assert_error(client.get(path), 404, "not_found")
        assert_error(token_client(UserFactory()).get("/api/v1/tables/999999"), 404, "not_found")
        page = client.get("/no-such-page/")
    assert page.status_code == 404
    assert page["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("path", ["/api/docs/", "/api/redoc/"])
def test_options_on_the_documentation_pages_answers_which_methods_they_take(client, path):
    response = client.options(path)
    assert response.status_code == 200
    assert set(response["Allow"].replace(" ", "").split(",")) == {"GET", "HEAD", "OPTIONS"}


def test_the_documentation_pages_load_nothing_from_elsewhere(client):
    """Issue 25, defect 10: the pages loaded Swagger UI and Redoc from a CDN that the site's
    CSP refuses. Every script, style sheet and font now comes from this site, and no script
    is inline."""
    for path in ("/api/docs/", "/api/redoc/"):
        response = client.get(path)
        html = response.content.decode()
        assert "https://" not in html and "http://" not in html, html
        for tag in html.split("<script")[1:]:
            assert "src=" in tag.split(">", 1)[0], f"inline script on {path}"
    script = client.get("/api/docs/?script=")
    assert script.status_code == 200
    assert script["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle" in script.content.decode()
