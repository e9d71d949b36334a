"""API test clients: a token client (Authorization: Bearer) and a session client, and the
one error shape every refusal has."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rest_framework.test import APIClient

from rosbi_platform.accounts import tokens

ALL_SCOPES = ("read", "play", "tournament:write")


def token_client(user: Any, scopes: Iterable[str] = ALL_SCOPES) -> APIClient:
    """A program: no session, no CSRF, the token in the header."""
    secret = tokens.create_token(user, "tests", scopes).secret
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return client


def session_client(user: Any | None = None, *, csrf: bool = False) -> APIClient:
    """The site's own pages: a logged-in session (``csrf`` checks the token as a browser)."""
    client = APIClient(enforce_csrf_checks=csrf)
    if user is not None:
        client.force_login(user)
    return client


def assert_error(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    """``response`` is the API's one error shape with ``status``: JSON, a sentence, a code,
    no trace, never a redirect."""
    assert response.status_code == status, (response.status_code, response.content[:500])
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert set(body) <= {"detail", "code", "errors"}, body
    assert isinstance(body["detail"], str) and body["detail"].strip(), body
    assert isinstance(body["code"], str) and body["code"], body
    assert "Traceback" not in body["detail"]
    if code is not None:
        assert body["code"] == code, body
    return body
